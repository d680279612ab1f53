// Preloaded (node --require) into n8n, its task runner and the sandbox when VP_NETWATCH names a
// file, by the project's scripts (n8n.mjs adds it to NODE_OPTIONS): every DNS lookup of a name
// other than localhost, and every TCP connection or UDP datagram to an address outside loopback,
// is written to that file as one JSON line and refused, so nothing leaves the machine. The
// end-to-end and queue-mode runners set VP_NETWATCH and fail when the file is not empty.
// CommonJS so that --require loads it under any Node and before n8n's own modules.
'use strict';

const file = process.env.VP_NETWATCH;
if (file) {
	const fs = require('node:fs');
	const net = require('node:net');
	const dns = require('node:dns');
	const dgram = require('node:dgram');
	const { syncBuiltinESMExports } = require('node:module');

	const isLoopback = (value) => {
		const host = String(value ?? '')
			.toLowerCase()
			.replace(/^\[|\]$/g, '');
		if (host === '' || host === 'localhost' || host.endsWith('.localhost')) return true;
		if (host === '::1' || /^(::ffff:)?127\.\d+\.\d+\.\d+$/.test(host)) return true;
		return false;
	};
	const record = (kind, host, port) => {
		const entry = {
			at: new Date().toISOString(),
			pid: process.pid,
			process: process.argv.slice(1, 3).join(' '),
			kind,
			host: String(host),
			...(port !== undefined ? { port: Number(port) } : {}),
		};
		try {
			fs.appendFileSync(file, `${JSON.stringify(entry)}\n`);
		} catch {
			// The log is the point; a process must not die because it cannot write it.
		}
	};
	const refusal = (syscall, host) =>
		Object.assign(
			new Error(`${syscall} ${host}: refused by scripts/lib/netwatch.cjs (not loopback)`),
			{
				code: syscall === 'connect' ? 'EHOSTUNREACH' : 'ENOTFOUND',
				syscall,
				hostname: String(host),
			},
		);

	// DNS: getaddrinfo (lookup) and c-ares (resolve*, reverse), callback and promise forms.
	const wrapCallback = (owner, name) => {
		const original = owner[name];
		if (typeof original !== 'function') return;
		owner[name] = function (host, ...rest) {
			if (net.isIP(String(host)) || isLoopback(host)) return original.call(this, host, ...rest);
			record(`dns.${name}`, host);
			const callback = rest.reverse().find((arg) => typeof arg === 'function');
			if (callback) process.nextTick(callback, refusal(name, host));
			return undefined;
		};
	};
	const wrapPromise = (owner, name) => {
		const original = owner[name];
		if (typeof original !== 'function') return;
		owner[name] = async function (host, ...rest) {
			if (net.isIP(String(host)) || isLoopback(host))
				return await original.call(this, host, ...rest);
			record(`dns.${name}`, host);
			throw refusal(name, host);
		};
	};
	const dnsNames = (owner) =>
		Object.getOwnPropertyNames(owner).filter((name) =>
			/^(lookup|lookupService|resolve\w*|reverse)$/.test(name),
		);
	for (const name of dnsNames(dns)) wrapCallback(dns, name);
	for (const name of dnsNames(dns.Resolver.prototype)) wrapCallback(dns.Resolver.prototype, name);
	for (const name of dnsNames(dns.promises)) wrapPromise(dns.promises, name);
	for (const name of dnsNames(dns.promises.Resolver.prototype))
		wrapPromise(dns.promises.Resolver.prototype, name);

	// TCP (http, https, undici's fetch, PostgreSQL, Redis all connect through net.Socket).
	const connect = net.Socket.prototype.connect;
	net.Socket.prototype.connect = function (...args) {
		const first = args[0];
		const options = Array.isArray(first) ? first[0] : first;
		let host;
		let port;
		if (options !== null && typeof options === 'object') {
			if (options.path === undefined) {
				host = options.host ?? 'localhost';
				port = options.port;
			}
		} else if (typeof options === 'number' || /^\d+$/.test(String(options))) {
			port = options;
			host = typeof args[1] === 'string' ? args[1] : 'localhost';
		}
		// A name is looked up through dns.lookup above; an address is checked here.
		if (host !== undefined && net.isIP(String(host).replace(/^\[|\]$/g, '')) && !isLoopback(host)) {
			record('connect', host, port);
			process.nextTick(() => this.destroy(refusal('connect', host)));
			return this;
		}
		return connect.apply(this, args);
	};

	// UDP.
	const send = dgram.Socket.prototype.send;
	dgram.Socket.prototype.send = function (...args) {
		const address = args.find((arg, index) => index > 0 && typeof arg === 'string');
		if (address !== undefined && !isLoopback(address)) {
			record('udp', address);
			return undefined;
		}
		return send.apply(this, args);
	};

	syncBuiltinESMExports();
}
