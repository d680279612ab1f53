/**
 * The gate of an API key (transport/gate.ts): arrival order, a stopped execution leaving at once,
 * one pause for all, and the process's registry of gates (one per key, no key material in it,
 * bounded). Real time, short waits.
 */
import {
	gateFor,
	KeyGate,
	keyGates,
} from '../../../../nodes/VideoPersonalization/transport/gate.ts';

const ok = { status: 200, headers: {} };
const FAR = () => Date.now() + 60_000;

afterEach(() => keyGates.clear());

describe('KeyGate', () => {
	it('serves requests in arrival order: a one-item run waits behind the batch that came first, no longer', async () => {
		const gate = new KeyGate();
		const order: string[] = [];
		// Until the service limits, one request at a time: each is answered before the next goes.
		const request = async (name: string) => {
			const sentAt = (await gate.waitTurn(FAR())) as number;
			order.push(name);
			await new Promise((resolve) => setTimeout(resolve, 2));
			gate.answered(sentAt, ok);
		};
		const batch = [1, 2, 3, 4].map(async (n) => await request(`batch ${n}`));
		const webhook = request('webhook');
		const later = [5, 6].map(async (n) => await request(`batch ${n}`));
		await Promise.all([...batch, webhook, ...later]);
		expect(order).toEqual([
			'batch 1',
			'batch 2',
			'batch 3',
			'batch 4',
			'webhook',
			'batch 5',
			'batch 6',
		]);
	});

	it('sends a request refused with 429 again before those that arrived after it', async () => {
		const gate = new KeyGate();
		const first = (await gate.waitTurn(FAR())) as number;
		const waiting = gate.waitTurn(FAR()).then(() => 'newcomer');
		gate.answered(first, { status: 429, headers: { 'retry-after': '0' } });
		const again = gate.waitTurn(FAR(), undefined, true).then(() => 'again');
		expect(await Promise.race([waiting, again])).toBe('again');
	});

	it('a stopped execution leaves the queue at once; the others keep their turn', async () => {
		const gate = new KeyGate();
		const first = (await gate.waitTurn(FAR())) as number;
		gate.answered(first, { status: 429, headers: { 'retry-after': '2' } });
		const stop = new AbortController();
		const stopped = gate.waitTurn(FAR(), stop.signal);
		const other = gate.waitTurn(FAR());
		stop.abort();
		expect(await stopped).toBeUndefined();
		// At once: long before the 2 s pause the others wait out.
		expect(Date.now()).toBeLessThan(gate.pacer.pausedUntil);
		expect(await other).toBeGreaterThanOrEqual(gate.pacer.pausedUntil);
	});

	it('one 429 holds every waiting request until the pause ends', async () => {
		const gate = new KeyGate();
		const first = (await gate.waitTurn(FAR())) as number;
		// Each is answered once sent: after a first 429 the pacer may send one at a time.
		const answeredOnceSent = async () => {
			const sentAt = (await gate.waitTurn(FAR())) as number;
			gate.answered(sentAt, ok);
			return sentAt;
		};
		const waiting = [answeredOnceSent(), answeredOnceSent()];
		gate.answered(first, { status: 429, headers: { 'retry-after': '1' } });
		const sent = await Promise.all(waiting);
		for (const at of sent) expect(at).toBeGreaterThanOrEqual(gate.pacer.pausedUntil - 1);
		expect(gate.pacer.pausedUntil - first).toBeGreaterThanOrEqual(1000);
	});

	it('a request whose deadline falls within the pause asked for gives up at once', async () => {
		const gate = new KeyGate();
		const first = (await gate.waitTurn(FAR())) as number;
		gate.answered(first, { status: 429, headers: { 'retry-after': '30' } });
		const deadline = Date.now() + 5_000;
		expect(await gate.waitTurn(deadline)).toBeUndefined();
		// At once: not at its deadline, nor at the pause's end.
		expect(Date.now()).toBeLessThan(deadline);
	});
});

describe('gateFor: one gate per API key per process', () => {
	const KEY_A = 'vpk_gate_canary_a_4f2d9e81';
	const KEY_B = 'vpk_gate_canary_b_77c0a3e5';
	const BASE = 'https://api.example.com/v1';

	it('the same key shares a gate; another key, or the same key at another address, has its own', () => {
		const gate = gateFor(BASE, KEY_A);
		expect(gateFor(BASE, KEY_A)).toBe(gate);
		expect(gateFor(BASE, KEY_B)).not.toBe(gate);
		expect(gateFor('https://other.example.com/v1', KEY_A)).not.toBe(gate);
		expect(keyGates.size).toBe(3);
	});

	it('holds no key material: the registry is keyed by a keyed one-way fingerprint', () => {
		gateFor(BASE, KEY_A);
		for (const id of keyGates.keys()) {
			expect(id).not.toContain(KEY_A);
			expect(id).not.toContain(KEY_A.slice(4, 16));
			expect(id).not.toContain('example.com');
			expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/);
		}
	});

	it('drops gates left idle, and keeps at most 100', () => {
		const now = Date.now();
		const clock = jest.spyOn(Date, 'now');
		try {
			const old = gateFor(BASE, KEY_A);
			clock.mockReturnValue(now + 16 * 60_000);
			expect(gateFor(BASE, KEY_A)).not.toBe(old);
			for (let n = 0; n < 150; n++) gateFor(BASE, `vpk_many_${n}`);
			expect(keyGates.size).toBeLessThanOrEqual(100);
		} finally {
			clock.mockRestore();
		}
	});

	it('keeps a gate that has requests waiting, however long ago it began', async () => {
		const gate = gateFor(BASE, KEY_B);
		const first = (await gate.waitTurn(FAR())) as number;
		const now = Date.now();
		const clock = jest.spyOn(Date, 'now').mockReturnValue(now + 60 * 60_000);
		try {
			expect(gateFor(BASE, KEY_B)).toBe(gate);
		} finally {
			clock.mockRestore();
			gate.answered(first, ok);
		}
	});
});
