import { freePort } from '../../scripts/lib/n8n.mjs';

// The e2e, browser and queue runners ask for several ports before starting n8n; the OS hands a
// port it has just closed to the next caller now and then (CI once gave n8n and its task broker
// the same one). Asked many times, the OS repeats itself hundreds of times; freePort never does.
describe('freePort', () => {
	it('never hands out the same port twice in one process', async () => {
		const ports: number[] = [];
		for (let i = 0; i < 3000; i++) ports.push(await freePort());
		expect(new Set(ports).size).toBe(ports.length);
		for (const port of ports) expect(port).toBeGreaterThan(0);
	});
});
