/** When a failed call is sent again, and after how long. */
import type { Failure } from '../../../../nodes/VideoPersonalization/transport/call.ts';
import {
	DEFAULT_RETRY_POLICY,
	isRetryable,
	mayHaveBeenCarriedOut,
	type RetryPolicy,
	retryDelayMs,
} from '../../../../nodes/VideoPersonalization/transport/retry.ts';
import { parseRetryAfter } from '../../../../nodes/VideoPersonalization/transport/headers.ts';

const status = (code: number): Failure => ({
	kind: 'http',
	status: code,
	headers: {},
	body: undefined,
});
const network = (code: string): Failure => ({ kind: 'network', code, detail: code });

describe('isRetryable', () => {
	it.each([
		// [failure, idempotent call (get, list, update, delete), creating call]
		['429', status(429), true, true],
		['500', status(500), true, false],
		['502', status(502), true, false],
		['503', status(503), true, false],
		['504', status(504), true, false],
		['ECONNREFUSED (never connected)', network('ECONNREFUSED'), true, true],
		['ECONNRESET', network('ECONNRESET'), true, false],
		['EPIPE', network('EPIPE'), true, false],
		['TIMEOUT', network('TIMEOUT'), true, false],
		['ETIMEDOUT', network('ETIMEDOUT'), true, false],
		['EAI_AGAIN', network('EAI_AGAIN'), true, false],
		['400', status(400), false, false],
		['401', status(401), false, false],
		['402', status(402), false, false],
		['403', status(403), false, false],
		['404', status(404), false, false],
		['405', status(405), false, false],
		['409', status(409), false, false],
		['413', status(413), false, false],
		['415', status(415), false, false],
		['422', status(422), false, false],
		['302', status(302), false, false],
		[
			'a GraphQL error',
			{ kind: 'graphql', errors: [{ message: 'x', code: 'INTERNAL_SERVER_ERROR' }] } as Failure,
			false,
			false,
		],
		['a wrong shape', { kind: 'shape', detail: 'x' } as Failure, false, false],
	])('%s: idempotent %p, creating %p', (_name, failure, idempotent, creating) => {
		expect(isRetryable(failure, true)).toBe(idempotent);
		expect(isRetryable(failure, false)).toBe(creating);
	});
});

describe('parseRetryAfter', () => {
	const now = Date.UTC(2015, 9, 21, 7, 28, 0);

	it.each([
		['0', 0],
		['1', 1_000],
		['120', 120_000],
		[' 5 ', 5_000],
		['1.5', 1_500],
		['0.25', 250],
		['2.0', 2_000],
	])('%j seconds is %i ms', (value, ms) => {
		expect(parseRetryAfter(value, now)).toBe(ms);
	});

	it.each([
		['Wed, 21 Oct 2015 07:28:30 GMT', 30_000],
		['Wed, 21 Oct 2015 07:30:00 GMT', 120_000],
		['Wednesday, 21-Oct-15 07:28:10 GMT', 10_000],
		['Wed, 21 Oct 2015 07:28:00 GMT', 0],
		['Wed, 21 Oct 2015 07:00:00 GMT', 0],
		['Tue, 20 Oct 2015 07:28:00 GMT', 0],
	])('the HTTP date %j is %i ms from now (a past date means now)', (value, ms) => {
		expect(parseRetryAfter(value, now)).toBe(ms);
	});

	it.each([
		undefined,
		'',
		'   ',
		'garbage',
		'soon',
		'later please',
		'-5',
		'-1',
		'a 2',
		'in 30',
		'retry in 30 seconds',
		'1e3',
		'12abc',
		'0x10',
		'NaN',
		'Infinity',
		'1,5',
		'5 s',
	])('%j is not readable', (value) => {
		expect(parseRetryAfter(value, now)).toBeUndefined();
	});
});

/**
 * The wait before a retry as request.ts's nextTry works it out: the Retry-After header read
 * (parseRetryAfter), then the retry rule.
 */
const delayMs = (
	retry: number,
	header: string | undefined,
	policy: RetryPolicy,
	nowMs: number,
	random: () => number,
) => retryDelayMs(retry, parseRetryAfter(header, nowMs), policy, random);

describe('retryDelayMs', () => {
	const policy: RetryPolicy = {
		maxAttempts: 5,
		baseDelayMs: 100,
		maxDelayMs: 1_000,
	};
	const now = Date.UTC(2024, 0, 1, 12, 0, 0);
	const never = (): number => {
		throw new Error('random() must not be used when the server says how long to wait');
	};

	describe('with Retry-After', () => {
		it.each([
			['0', 0],
			['3', 3_000],
			['2.5', 2_500],
			['9.999', 9_999],
			['10', 10_000],
			['Mon, 01 Jan 2024 12:00:07 GMT', 7_000],
			['Mon, 01 Jan 2024 12:00:10 GMT', 10_000],
			['Mon, 01 Jan 2024 11:00:00 GMT', 0],
		])('honours %j exactly: %i ms', (header, ms) => {
			for (const retry of [1, 2, 4]) expect(delayMs(retry, header, policy, now, never)).toBe(ms);
		});

		it.each([
			['10.001', 10_001],
			['3600', 3_600_000],
			['Tue, 02 Jan 2024 12:00:00 GMT', 24 * 3_600_000],
		])(
			'honours %j however long: the time budget decides whether it is waited for',
			(header, ms) => {
				expect(delayMs(1, header, policy, now, never)).toBe(ms);
			},
		);

		it('falls back to backoff when the header is unreadable', () => {
			for (const header of ['garbage', 'a 2', '-5']) {
				const delay = delayMs(1, header, policy, now, () => 0.5);
				expect(delay).toBeGreaterThan(0);
				expect(delay).toBeLessThanOrEqual(policy.baseDelayMs);
			}
		});
	});

	describe('attempts', () => {
		it('allows maxAttempts attempts in all: retries 1 .. maxAttempts-1', () => {
			for (let retry = 1; retry < policy.maxAttempts; retry++) {
				expect(delayMs(retry, undefined, policy, now, () => 0.5)).toEqual(expect.any(Number));
				expect(delayMs(retry, '1', policy, now, never)).toBe(1_000);
			}
			for (const retry of [policy.maxAttempts, policy.maxAttempts + 1, 100]) {
				expect(delayMs(retry, undefined, policy, now, () => 0.5)).toBeUndefined();
				expect(delayMs(retry, '1', policy, now, never)).toBeUndefined();
				expect(delayMs(retry, '0', policy, now, never)).toBeUndefined();
			}
		});

		it('one attempt in all means no retry', () => {
			expect(delayMs(1, undefined, { ...policy, maxAttempts: 1 }, now, () => 0.5)).toBeUndefined();
		});
	});

	describe('exponential backoff with jitter', () => {
		const low = (retry: number, p: RetryPolicy = policy): number =>
			delayMs(retry, undefined, p, now, () => 0) as number;
		const high = (retry: number, p: RetryPolicy = policy): number =>
			delayMs(retry, undefined, p, now, () => 0.999) as number;
		/** The ceiling exponential backoff grows towards: base, 2 base, 4 base, ... capped at maxDelayMs. */
		const ceiling = (retry: number, p: RetryPolicy = policy): number =>
			Math.min(p.maxDelayMs, p.baseDelayMs * 2 ** (retry - 1));

		it.each([1, 2, 3, 4])(
			'retry %i waits more than nothing and at most the ceiling, and the jitter spreads it',
			(retry) => {
				expect(low(retry)).toBeGreaterThan(0);
				expect(high(retry)).toBeLessThanOrEqual(ceiling(retry));
				expect(high(retry)).toBeGreaterThanOrEqual(ceiling(retry) * 0.99);
				expect(low(retry)).toBeLessThan(high(retry));
				const middle = delayMs(retry, undefined, policy, now, () => 0.5) as number;
				expect(middle).toBeGreaterThanOrEqual(low(retry));
				expect(middle).toBeLessThanOrEqual(high(retry));
			},
		);

		it('doubles from one retry to the next until maxDelayMs', () => {
			const wide: RetryPolicy = {
				maxAttempts: 30,
				baseDelayMs: 100,
				maxDelayMs: 5_000,
			};
			// 100, 200, 400, 800, 1600, 3200 and then capped at 5000.
			for (let retry = 1; retry < 6; retry++) {
				expect(high(retry + 1, wide)).toBeCloseTo(2 * high(retry, wide), -1);
				expect(low(retry + 1, wide)).toBeCloseTo(2 * low(retry, wide), -1);
			}
			for (let retry = 7; retry < 30; retry++) {
				expect(high(retry, wide)).toBeLessThanOrEqual(wide.maxDelayMs);
				expect(high(retry, wide)).toBeGreaterThanOrEqual(wide.maxDelayMs * 0.99);
				expect(low(retry, wide)).toBeGreaterThan(0);
			}
		});

		it('stays finite and capped for very high retry numbers', () => {
			const many: RetryPolicy = { ...policy, maxAttempts: 10_000 };
			for (const retry of [50, 1_100, 9_999]) {
				const delay = high(retry, many);
				expect(Number.isFinite(delay)).toBe(true);
				expect(delay).toBeLessThanOrEqual(many.maxDelayMs);
			}
		});

		it('the default policy retries, with delays within its own bounds', () => {
			for (let retry = 1; retry < DEFAULT_RETRY_POLICY.maxAttempts; retry++) {
				expect(high(retry, DEFAULT_RETRY_POLICY)).toBeLessThanOrEqual(
					DEFAULT_RETRY_POLICY.maxDelayMs,
				);
				expect(low(retry, DEFAULT_RETRY_POLICY)).toBeGreaterThan(0);
			}
			expect(
				delayMs(DEFAULT_RETRY_POLICY.maxAttempts, undefined, DEFAULT_RETRY_POLICY, now, () => 0),
			).toBeUndefined();
		});
	});
});

describe('mayHaveBeenCarriedOut', () => {
	it.each([
		['a 5xx: the service got the call', status(503), true],
		['a dropped connection: the call may have arrived', network('ECONNRESET'), true],
		['a timeout: the call may have arrived', network('TIMEOUT'), true],
		['a refused connection: nothing was sent', network('ECONNREFUSED'), false],
		['a 429: the service turned it away', status(429), false],
		['a 4xx: the service refused it', status(422), false],
		['a wrong shape: it answered', { kind: 'shape', detail: 'x' } as Failure, false],
	])('%s: %p', (_name, failure, expected) => {
		expect(mayHaveBeenCarriedOut(failure)).toBe(expected);
	});
});
