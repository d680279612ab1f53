// The rate-limit benchmark's reference: what a developer writes for a documented limit of R
// requests per second. fetch, `concurrency` in flight, one request every 1/0.98R s, a 429 again
// after its Retry-After. It knows R (and when R changes), which the node must learn: a
// self-pacing client's floor.

/** `deadline`: performance.now() at which it gives up. */
export type PacedTarget = {
	baseUrl: string;
	apiKey: string;
	rate: number;
	/** The rate from `at` seconds after the start on (a limit that changes while it runs). */
	schedule?: Array<{ at: number; rate: number }>;
	concurrency: number;
	deadline: number;
};

export type PacedOutcome = { ok: number; failed: number; timedOut: boolean; firstError?: string };

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
/** Runs tasks 0..count-1; `send(i)` makes the request of task i and returns its status. */
async function paced(
	target: PacedTarget,
	count: number,
	send: (index: number) => Promise<{ status: number; retryAfter: number }>,
): Promise<PacedOutcome> {
	const queue = Array.from({ length: count }, (_, index) => index);
	const outcome: PacedOutcome = { ok: 0, failed: 0, timedOut: false };
	const started = performance.now();
	const rateNow = () =>
		(target.schedule ?? [])
			.filter((change) => performance.now() - started >= change.at * 1000)
			.reduce((rate, change) => change.rate, target.rate);
	let next = performance.now();
	const worker = async () => {
		while (queue.length > 0) {
			if (performance.now() > target.deadline) return void (outcome.timedOut = true);
			const index = queue.shift() as number;
			const at = next;
			next = Math.max(next, performance.now()) + 1000 / (rateNow() * 0.98);
			await wait(at - performance.now());
			const { status, retryAfter } = await send(index);
			if (status === 429) {
				next = Math.max(next, performance.now() + retryAfter * 1000);
				queue.unshift(index);
			} else if (status < 300) outcome.ok++;
			else {
				outcome.failed++;
				outcome.firstError ??= `status ${status}`;
			}
		}
	};
	await Promise.all(Array.from({ length: target.concurrency }, worker));
	return outcome;
}

async function request(target: PacedTarget, path: string, init: RequestInit = {}) {
	const response = await fetch(`${target.baseUrl}${path}`, {
		...init,
		headers: { authorization: `Bearer ${target.apiKey}`, 'content-type': 'application/json' },
	});
	const body: unknown = response.ok ? await response.json() : await response.arrayBuffer();
	const retryAfter = Number(response.headers.get('retry-after') ?? 1);
	return { status: response.status, retryAfter, body };
}

/** Creates `count` videos titled `${titlePrefix}${index}`. */
export async function pacedCreate(
	target: PacedTarget,
	count: number,
	titlePrefix: string,
	templateId: string,
): Promise<PacedOutcome> {
	return await paced(target, count, async (index) => {
		const body = JSON.stringify({
			title: `${titlePrefix}${index}`,
			template_id: templateId,
			customer_data: { first_name: `Customer ${index}` },
		});
		return await request(target, '/videos', { method: 'POST', body });
	});
}

/** Every asset: page 1 (it gives the total), then the other pages. */
export async function pacedReturnAll(target: PacedTarget, pageSize: number) {
	const ids = new Map<number, string[]>();
	const page = async (number: number) => {
		const answer = await request(target, `/assets?page=${number}&limit=${pageSize}`);
		const body = answer.body as { data?: Array<{ id: string }>; pagination?: { total: number } };
		if (answer.status < 300)
			ids.set(
				number,
				(body.data ?? []).map((asset) => asset.id),
			);
		return { ...answer, total: body.pagination?.total ?? 0 };
	};
	let total = 0;
	const first = await paced({ ...target, concurrency: 1 }, 1, async () => {
		const answer = await page(1);
		total = answer.total;
		return answer;
	});
	const rest = await paced(target, Math.ceil(total / pageSize) - 1, async (i) => await page(i + 2));
	const all = [...ids.entries()].sort(([a], [b]) => a - b).flatMap(([, list]) => list);
	return { ...rest, ok: rest.ok + first.ok, ids: all };
}
