// A sandbox in its own process, driven over IPC by remoteSandbox.mts, so that the server's
// work runs on the other core and stays out of the process being measured.
import { startSandbox, type Sandbox, type SandboxOptions } from '../../sandbox/index.mts';

interface Call {
	id: number;
	/** A member of the Sandbox, dotted: 'requests.count', 'store.addVideos', 'faults.random'. */
	path: string;
	args: unknown[];
}

const state: { sandbox?: Sandbox } = {};

/** RegExp fault and request paths travel as { regex: '...' }. */
function revive(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(revive);
	if (value !== null && typeof value === 'object') {
		const entries = Object.entries(value as Record<string, unknown>);
		if (entries.length === 1 && entries[0][0] === 'regex' && typeof entries[0][1] === 'string')
			return new RegExp(entries[0][1]);
		return Object.fromEntries(entries.map(([key, inner]) => [key, revive(inner)]));
	}
	return value;
}

async function invoke(path: string, args: unknown[]): Promise<unknown> {
	const { sandbox } = state;
	if (!sandbox) throw new Error('sandbox not started');
	const parts = path.split('.');
	let owner: unknown = sandbox;
	for (const part of parts.slice(0, -1)) owner = (owner as Record<string, unknown>)[part];
	const member = (owner as Record<string, unknown>)[parts[parts.length - 1]];
	if (typeof member !== 'function') return member;
	return await (member as (...values: unknown[]) => unknown).apply(owner, args.map(revive));
}

const send = (message: unknown) => process.send?.(message);

process.on('message', (message: Call) => {
	void invoke(message.path, message.args).then(
		(value) => send({ id: message.id, ok: true, value }),
		(error: unknown) =>
			send({
				id: message.id,
				ok: false,
				error: error instanceof Error ? error.stack : String(error),
			}),
	);
});
process.on('disconnect', () => {
	void (state.sandbox?.close() ?? Promise.resolve()).finally(() => process.exit(0));
});

const options = JSON.parse(process.argv[2] ?? '{}') as SandboxOptions;
const sandbox = await startSandbox({ quiet: true, ...options });
state.sandbox = sandbox;
send({
	ready: {
		baseUrl: sandbox.baseUrl,
		cdnUrl: sandbox.cdnUrl,
		keys: sandbox.keys,
		known: sandbox.known,
	},
});
