// Seeded randomness for the sandbox: every generated value depends only on the seed.
import { unsafeUniformIntDistribution, xoroshiro128plus, type RandomGenerator } from 'pure-rand';

/** Mixes several integers into one 32-bit seed (murmur3 finalizer), so related seeds
 * (seed, seed + 1, ...) give unrelated streams. */
export function mixSeed(...parts: number[]): number {
	let h = 0x9e3779b9;
	for (const part of parts) {
		h = Math.imul(h ^ (part | 0), 0x85ebca6b);
		h ^= h >>> 13;
		h = Math.imul(h, 0xc2b2ae35);
		h ^= h >>> 16;
	}
	return h | 0;
}

/** Hash of a string, for seeds derived from names. */
export function hashString(text: string): number {
	let h = 0x811c9dc5;
	for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
	return h | 0;
}

export class Rng {
	private readonly generator: RandomGenerator;

	constructor(seed: number) {
		this.generator = xoroshiro128plus(seed | 0);
	}

	/** Uniform float in [0, 1). */
	float(): number {
		return (this.generator.unsafeNext() >>> 0) / 4294967296;
	}

	/** Uniform integer in [min, max] (both included). */
	int(min: number, max: number): number {
		return unsafeUniformIntDistribution(min, max, this.generator);
	}

	chance(probability: number): boolean {
		return this.float() < probability;
	}

	pick<T>(items: readonly T[]): T {
		return items[this.int(0, items.length - 1)];
	}

	/** Up to `count` distinct items, in a random order. */
	sample<T>(items: readonly T[], count: number): T[] {
		const pool = [...items];
		const out: T[] = [];
		while (out.length < count && pool.length > 0)
			out.push(pool.splice(this.int(0, pool.length - 1), 1)[0]);
		return out;
	}

	/** Lower-case hex string of the given length. */
	hex(length: number): string {
		let out = '';
		while (out.length < length)
			out += (this.generator.unsafeNext() >>> 0).toString(16).padStart(8, '0');
		return out.slice(0, length);
	}
}
