// The sandbox clock. Video statuses are derived from it lazily, so moving it costs nothing.

/** Start of the manual clock: fixed, so seeded data is identical on every run. */
export const MANUAL_CLOCK_ORIGIN = Date.UTC(2026, 2, 2, 9, 0, 0);

export class Clock {
	private offset = 0;
	private readonly wallStart = Date.now();
	readonly origin: number;

	constructor(
		readonly mode: 'manual' | 'real',
		origin?: number,
	) {
		this.origin = origin ?? (mode === 'manual' ? MANUAL_CLOCK_ORIGIN : this.wallStart);
	}

	/** Current sandbox time in ms since the epoch. */
	now(): number {
		const elapsed = this.mode === 'real' ? Date.now() - this.wallStart : 0;
		return this.origin + elapsed + this.offset;
	}

	/** Moves time forward (both modes; in real mode on top of wall time). */
	advance(ms: number): void {
		if (!Number.isFinite(ms) || ms < 0)
			throw new RangeError(`clock.advance needs a finite ms >= 0, got ${ms}`);
		this.offset += ms;
	}
}
