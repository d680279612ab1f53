import { createHmac, randomBytes } from 'crypto';
import { sleep } from 'n8n-workflow';

import { Pacer, type PacerAnswer } from './pacer';

/** A request waiting its turn: `resolve` gets the time it is sent, or undefined (out of time, or the execution stopped). */
type Waiter = { deadline: number; resolve(sentAt: number | undefined): void };

/** A gate left with nothing waiting or in flight for this long is dropped: its key's pace is relearnt. */
const IDLE_MS = 15 * 60_000;
/** Gates kept at most; past that, the longest idle ones go. */
const MAX_GATES = 100;
/** The longest nap between looks at the queue, so a clock change cannot stall it. */
const MAX_NAP_MS = 60_000;

/**
 * The door of every request sent with one API key from this n8n process: every execution of the
 * node, every poll of the trigger and every list the editor loads waits here, in arrival order,
 * and goes when the key's pacer says. A 429 seen by one holds all of them; what one learns about
 * the rate, all use. A waiter whose execution is stopped leaves at once.
 */
export class KeyGate {
	readonly pacer = new Pacer();
	private readonly queue: Waiter[] = [];
	private inFlight = 0;
	private serving = false;
	private wake?: AbortController;
	lastUsed = Date.now();

	/**
	 * Waits for this request's turn: the time it is sent, or undefined when the turn would come
	 * after `deadline` (or the pause asked for outlasts it) or the execution stopped. A request
	 * sent again after a 429 goes first: it arrived before those waiting.
	 */
	async waitTurn(deadline: number, signal?: AbortSignal, again = false) {
		if (signal?.aborted) return undefined;
		return await new Promise<number | undefined>((resolve) => {
			const leave = () => this.leave(waiter);
			const waiter: Waiter = {
				deadline,
				resolve: (sentAt) => {
					signal?.removeEventListener('abort', leave);
					resolve(sentAt);
				},
			};
			signal?.addEventListener('abort', leave, { once: true });
			this.queue[again ? 'unshift' : 'push'](waiter);
			this.lastUsed = Date.now();
			void this.serve();
		});
	}

	/** The answer to a request sent at `sentAt` (status 0: none came). */
	answered(sentAt: number, answer: PacerAnswer): void {
		this.inFlight--;
		this.lastUsed = Date.now();
		this.pacer.onAnswer(this.lastUsed, sentAt, answer);
		this.wake?.abort();
	}

	get idle(): boolean {
		return this.queue.length === 0 && this.inFlight === 0;
	}

	private leave(waiter: Waiter): void {
		if (this.queue.includes(waiter)) this.queue.splice(this.queue.indexOf(waiter), 1);
		waiter.resolve(undefined);
		this.wake?.abort();
	}

	/** One loop per gate while anything waits: sends the first waiter when the pacer allows. */
	private async serve(): Promise<void> {
		if (this.serving) return;
		this.serving = true;
		try {
			while (this.queue.length > 0) {
				const now = Date.now();
				// Out of time: its deadline passed, or falls within the pause the service asked for.
				const earliest = Math.max(now, this.pacer.pausedUntil);
				for (const waiter of this.queue.filter((entry) => entry.deadline <= earliest))
					this.leave(waiter);
				const first = this.queue[0];
				if (!first) break;
				const at = this.pacer.nextSendAt(now, this.inFlight);
				if (at !== undefined && at > first.deadline) this.leave(first);
				else if (at !== undefined && at <= now) {
					this.queue.shift();
					this.pacer.onSent(now, this.inFlight++); // the others in flight, then this one
					first.resolve(now);
				} else {
					const soonest = Math.min(...this.queue.map((waiter) => waiter.deadline));
					await this.nap(Math.min(at ?? soonest, soonest) - now);
				}
			}
		} finally {
			this.serving = false;
		}
	}

	/** Sleeps until `ms` passed or something changed (an answer came, a waiter left). */
	private async nap(ms: number): Promise<void> {
		const wake = (this.wake = new AbortController());
		await sleep(Math.max(0, Math.min(ms, MAX_NAP_MS)), wake.signal).catch(() => {});
		if (this.wake === wake) this.wake = undefined;
	}
}

/** This process's gates, by a one-way fingerprint of the service address and key. */
export const keyGates = new Map<string, KeyGate>();

/** Keyed with a secret of this process: the fingerprint cannot be checked against a guessed key. */
const FINGERPRINT_SECRET = randomBytes(32);

/** The gate of an API key at a service address (one per key per n8n process). */
export function gateFor(baseUrl: string, apiKey: string): KeyGate {
	const hmac = createHmac('sha256', FINGERPRINT_SECRET);
	const id = hmac.update(`${baseUrl}\n${apiKey}`).digest('base64url');
	const now = Date.now();
	const idle = [...keyGates].filter(([, gate]) => gate.idle);
	for (const [key, gate] of idle) if (now - gate.lastUsed > IDLE_MS) keyGates.delete(key);
	if (keyGates.size >= MAX_GATES) {
		idle.sort(([, left], [, right]) => left.lastUsed - right.lastUsed);
		for (const [key] of idle.slice(0, keyGates.size - MAX_GATES + 1)) keyGates.delete(key);
	}
	if (!keyGates.has(id)) keyGates.set(id, new KeyGate());
	return keyGates.get(id) as KeyGate;
}
