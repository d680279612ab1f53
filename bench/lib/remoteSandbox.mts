// The parent side of sandboxChild.mts: a sandbox in a child process, called over IPC.
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

import type { Sandbox, SandboxOptions } from '../../sandbox/index.mts';

export interface RemoteSandbox {
	baseUrl: string;
	cdnUrl: string;
	keys: Sandbox['keys'];
	known: Sandbox['known'];
	pid: number;
	/** Calls a member of the child's Sandbox ('requests.count', 'store.setCredits', ...). */
	call<T = unknown>(path: string, ...args: unknown[]): Promise<T>;
	close(): Promise<void>;
}

interface Reply {
	id?: number;
	ok?: boolean;
	value?: unknown;
	error?: string;
	ready?: Pick<RemoteSandbox, 'baseUrl' | 'cdnUrl' | 'keys' | 'known'>;
}

export async function startRemoteSandbox(options: SandboxOptions = {}): Promise<RemoteSandbox> {
	const child: ChildProcess = fork(
		join(process.cwd(), 'bench', 'lib', 'sandboxChild.mts'),
		[JSON.stringify(options)],
		{
			execArgv: ['--import', 'tsx'],
			stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
		},
	);
	const waiting = new Map<
		number,
		{ resolve: (value: unknown) => void; reject: (error: Error) => void }
	>();
	let nextId = 0;
	const ready = new Promise<NonNullable<Reply['ready']>>((resolve, reject) => {
		child.once('exit', (code) =>
			reject(new Error(`sandbox child exited (${code}) before it was ready`)),
		);
		child.on('message', (reply: Reply) => {
			if (reply.ready) return resolve(reply.ready);
			const pending = reply.id === undefined ? undefined : waiting.get(reply.id);
			if (!pending || reply.id === undefined) return;
			waiting.delete(reply.id);
			if (reply.ok) pending.resolve(reply.value);
			else pending.reject(new Error(`sandbox: ${reply.error}`));
		});
	});
	const info = await ready;
	let closed: Promise<void> | undefined;
	return {
		...info,
		pid: child.pid ?? -1,
		call<T>(path: string, ...args: unknown[]): Promise<T> {
			const id = nextId++;
			return new Promise<T>((resolve, reject) => {
				waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
				child.send({ id, path, args });
			});
		},
		close(): Promise<void> {
			closed ??= new Promise<void>((resolve) => {
				if (child.exitCode !== null) return resolve();
				child.once('exit', () => resolve());
				child.disconnect();
			});
			return closed;
		},
	};
}
