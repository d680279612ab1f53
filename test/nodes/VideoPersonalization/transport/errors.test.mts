/**
 * What the user reads when a call fails. No error format is stated (docs/service-facts.md), so every
 * body shape must be read, and nothing the server echoes may carry the API key out.
 */
import type { IDataObject, INode } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type {
	CallContext,
	Failure,
} from '../../../../nodes/VideoPersonalization/transport/call.ts';
import {
	describeFailure,
	isOutOfTime,
	toNodeApiError,
} from '../../../../nodes/VideoPersonalization/transport/errors.ts';
import {
	looksLikeHtml,
	networkFailure,
	redact,
	serverMessage,
} from '../../../../nodes/VideoPersonalization/transport/received.ts';
import { duration } from '../../../../nodes/VideoPersonalization/transport/errors.ts';
import {
	accepted,
	ASSET_RULES,
	ASSET_TYPES,
} from '../../../../nodes/VideoPersonalization/helpers/uploadRules.ts';

const SECRET = 'vpk_live_Q7mZ2xR9wK4tB8nJ';
const ACTION = 'get the asset "ast_1"';
const PERMISSION = 'Only admins of the brand may do this.';

function context(extra: Partial<CallContext> = {}): CallContext {
	return { action: ACTION, secrets: [SECRET], ...extra };
}

function http(status: number, body: unknown = undefined, headers: IDataObject = {}): Failure {
	return { kind: 'http', status, headers, body };
}

function both(failure: Failure, ctx: CallContext = context()): string {
	const described = describeFailure(failure, ctx);
	return `${described.message}\n${described.description}`;
}

describe('redact', () => {
	it.each([
		['no secret here', [SECRET], 'no secret here'],
		['', [SECRET], ''],
		['text', [], 'text'],
	])('leaves %j alone', (text, secrets, expected) => {
		expect(redact(text, secrets)).toBe(expected);
	});

	it('removes every occurrence of every secret', () => {
		const other = 'second-secret-value';
		const text = `Bearer ${SECRET} and again ${SECRET}${SECRET}; also ${other}.`;
		const result = redact(text, [SECRET, other]);
		expect(result).not.toContain(SECRET);
		expect(result).not.toContain(other);
		expect(result).toMatch(/^Bearer .* and again .*; also .*\.$/);
	});

	it('treats a secret as literal text, not a pattern', () => {
		const secret = 'a.b*c+(d)?[e]$';
		expect(redact(`x ${secret} y`, [secret])).not.toContain(secret);
		expect(redact('x aXbbbc+dd y', [secret])).toBe('x aXbbbc+dd y');
	});

	it('ignores an empty secret (an unset key must not garble the text)', () => {
		expect(redact('plain text', [''])).toBe('plain text');
	});
});

describe('looksLikeHtml', () => {
	it.each([
		'<!DOCTYPE html><html></html>',
		'<!doctype HTML>',
		'<html><body>x</body></html>',
		'  \n\t<HTML lang="en">',
		'<head><title>x</title></head>',
		'<body>x</body>',
		'<h1>502 Bad Gateway</h1>',
		'<title>Error</title>',
	])('%j is HTML', (text) => {
		expect(looksLikeHtml(text)).toBe(true);
	});

	it.each([
		'{"error":"x"}',
		'Service Unavailable',
		'<?xml version="1.0"?><error/>',
		'see <html> below',
		'',
	])('%j is not HTML', (text) => {
		expect(looksLikeHtml(text)).toBe(false);
	});
});

describe('serverMessage', () => {
	it.each([
		['plain words', 'plain words'],
		['  padded text \n', 'padded text'],
		[{ error: { message: 'nested message' } }, 'nested message'],
		[{ error: 'error string' }, 'error string'],
		[{ message: 'top message' }, 'top message'],
		[{ errors: [{ message: 'first of errors' }, { message: 'second' }] }, 'first of errors'],
		[{ errors: ['string in errors'] }, 'string in errors'],
		[{ detail: 'problem detail' }, 'problem detail'],
		[{ title: 'problem title' }, 'problem title'],
		[
			{ error: 'invalid_token', error_description: 'ignored when error is a string' },
			'invalid_token',
		],
		[{ error_description: 'oauth style' }, 'oauth style'],
		[{ error: { detail: 'nested detail' } }, 'nested detail'],
		[{ message: 42, detail: 'the string wins' }, 'the string wins'],
		[{ message: '   ', detail: 'blank is skipped' }, 'blank is skipped'],
		[
			'<html><head><title>502 Bad Gateway</title></head><body><h1>nginx</h1></body></html>',
			'502 Bad Gateway',
		],
		[
			'<!DOCTYPE html><html><body><h1>Service Unavailable</h1><p>later</p></body></html>',
			'Service Unavailable',
		],
	])('reads %j as %j', (body, expected) => {
		expect(serverMessage(body)).toBe(expected);
	});

	it('reads an HTML page without title or heading as its text, without tags', () => {
		const said = serverMessage('<html><body><p>Upstream <b>timed out</b></p></body></html>');
		expect(said).toMatch(/Upstream\s+timed out/);
		expect(said).not.toMatch(/[<>]/);
	});

	it.each([
		undefined,
		null,
		'',
		'   ',
		42,
		true,
		[],
		['text in an array'],
		{},
		{ error: {} },
		{ errors: [] },
		{ code: 17 },
	])('finds nothing in %j', (body) => {
		expect(serverMessage(body)).toBeUndefined();
	});
});

describe('describeFailure: HTTP statuses', () => {
	it.each([301, 302, 303, 307, 308])(
		'%i names only the origin of the redirect target',
		(status) => {
			const failure = http(
				status,
				{ message: `moved, your key ${SECRET}` },
				{
					location: `https://login.elsewhere.example:8443/sso/start?next=%2Fv1&key=${SECRET}#frag`,
				},
			);
			const described = describeFailure(failure, context());
			expect(described.httpCode).toBe(String(status));
			expect(described.message).toContain(`(${status})`);
			expect(described.message).toContain(ACTION);
			expect(described.message).toContain('https://login.elsewhere.example:8443');
			const text = both(failure);
			for (const part of ['/sso/start', 'next=', 'frag', SECRET]) expect(text).not.toContain(part);
			expect(described.description).toMatch(/never sent on to another address/);
			expect(described.description).toMatch(/Base URL/);
		},
	);

	it.each([
		['a relative Location', { location: '/v2/assets/ast_1' }],
		['no Location', {}],
		['an unreadable Location', { location: 'http://[broken' }],
	])('a redirect with %s names no address', (_case, headers) => {
		const described = describeFailure(http(302, undefined, headers), context());
		expect(described.message).toMatch(/redirect \(302\) to another address/);
		expect(described.message).not.toContain('/v2');
	});

	it('a redirect to an address with credentials does not repeat them', () => {
		const text = both(http(302, undefined, { location: 'https://admin:hunter22@evil.example/x' }));
		expect(text).toContain('https://evil.example');
		expect(text).not.toContain('hunter22');
		expect(text).not.toContain('admin');
	});

	it.each([
		// [status, message, description]
		[
			400,
			/^The service rejected the request to get the asset "ast_1" \(400\)$/,
			/Check this item's fields/,
		],
		[
			422,
			/^The service rejected the request to get the asset "ast_1" \(422\)$/,
			/Check this item's fields/,
		],
		[401, /rejected the API key \(401\)/, /API Key of the Video Personalization API credential/],
		[402, /^Not enough credits to get the asset "ast_1" \(402\)$/, /credits/],
		[403, /^The API key may not get the asset "ast_1" \(403\)$/, /role|administrator/],
		[404, /^Not found: get the asset "ast_1" \(404\)$/, /Check the ID or name/],
		[405, /does not allow this call: get the asset "ast_1" \(405\)/, /Base URL.*\/v1/],
		[409, /refused to get the asset "ast_1" because of a conflict \(409\)/, /state/],
		[413, /too large .*\(413\)/, /images up to 10 MB, videos up to 200 MB, audio up to 50 MB/],
		[
			415,
			/does not accept this file format \(415\)/,
			/JPG, PNG, SVG, WEBP.*MP4, WEBM, MOV.*MP3, WAV, AAC/,
		],
		[429, /rate limiting requests \(429\)/, /later|fewer items|Wait node/],
		[500, /^The service failed to get the asset "ast_1" \(500\)$/, /service's side/],
		[502, /failed to get the asset "ast_1" \(502\)/, /service's side/],
		[503, /failed to get the asset "ast_1" \(503\)/, /service's side/],
		[504, /failed to get the asset "ast_1" \(504\)/, /service's side/],
		[418, /answered 418 to get the asset "ast_1"/, /Unexpected status/],
		[410, /answered 410 to get the asset "ast_1"/, /Unexpected status/],
	])(
		'%i: message %p, description %p, httpCode set, server text quoted',
		(status, message, description) => {
			const described = describeFailure(
				http(status, { message: 'the server explains' }),
				context(),
			);
			expect(described.message).toMatch(message);
			expect(described.description).toMatch(description);
			expect(described.httpCode).toBe(String(status));
			expect(described.description).toContain('the server explains');
		},
	);

	it('413 and 415 say the limits and formats that helpers/uploadRules.ts holds (written out there for grep)', () => {
		const plural = (type: string) => `${type === 'audio' ? 'audio' : `${type}s`}`;
		const limits = ASSET_TYPES.map((type) => `${plural(type)} up to ${ASSET_RULES[type].maxMB} MB`);
		const formats = ASSET_TYPES.map((type) => `${plural(type)} ${accepted(type)}`);
		expect(describeFailure(http(413), context()).description).toBe(`Limits: ${limits.join(', ')}.`);
		expect(describeFailure(http(415), context()).description).toBe(
			`Accepted: ${formats.join('; ')}.`,
		);
	});

	it('403 includes the permission text of the call', () => {
		const described = describeFailure(
			http(403, { message: 'forbidden' }),
			context({ permission: PERMISSION }),
		);
		expect(described.description).toContain(PERMISSION);
		expect(described.description).toContain('forbidden');
	});

	it('403 without a permission text says nothing odd', () => {
		const described = describeFailure(http(403), context());
		expect(described.description).not.toMatch(/undefined|null/);
		expect(described.description.startsWith(' ')).toBe(false);
	});

	it.each([
		[0, /^The service is rate limiting requests \(429\)$/],
		[1, /and still was after 1 retry$/],
		[7, /and still was after 7 retries$/],
	])(
		'429 after %i retries says "after the retries" only when there were some',
		(retries, pattern) => {
			expect(describeFailure(http(429), context({ retries })).message).toMatch(pattern);
		},
	);

	it('5xx mentions the retries too', () => {
		expect(describeFailure(http(503), context({ retries: 3 })).description).toMatch(
			/retried 3 times/,
		);
	});

	it.each([500, 502, 503, 504])(
		'%i with mayHaveCommitted warns that the call may have been carried out',
		(status) => {
			const withWarning = describeFailure(http(status), context({ mayHaveCommitted: true }));
			const without = describeFailure(http(status), context({ mayHaveCommitted: false }));
			expect(withWarning.description).toMatch(
				/may have carried it out: check with Get Many before running it again/,
			);
			expect(without.description).not.toMatch(/may have carried it out/);
		},
	);

	it('5xx with an HTML page says a proxy or gateway answered, and quotes only its title', () => {
		const page =
			'<!DOCTYPE html><html><head><title>503 Service Temporarily Unavailable</title></head><body><center>nginx/1.25</center></body></html>';
		const described = describeFailure(http(503, page, { 'content-type': 'text/html' }), context());
		expect(described.description).toMatch(/HTML page instead of JSON/);
		expect(described.description).toMatch(/proxy or gateway/);
		expect(described.description).toContain('503 Service Temporarily Unavailable');
		expect(described.description).not.toMatch(/<|nginx/);
	});

	it('5xx with plain text says so and quotes it', () => {
		const described = describeFailure(
			http(502, 'upstream connect error', { 'content-type': 'text/plain' }),
			context(),
		);
		expect(described.description).toMatch(/plain text instead of JSON/);
		expect(described.description).toContain('upstream connect error');
	});

	it('5xx with JSON or no body does not talk about HTML or plain text', () => {
		for (const body of [{ error: 'boom' }, undefined, '']) {
			const described = describeFailure(
				http(500, body, { 'content-type': 'application/json' }),
				context(),
			);
			expect(described.description).not.toMatch(/HTML|plain text/);
		}
	});

	it('4xx with an HTML page quotes its title, not the markup', () => {
		const described = describeFailure(
			http(404, '<html><head><title>404 Not Found</title></head><body>x</body></html>'),
			context(),
		);
		expect(described.description).toContain('404 Not Found');
		expect(described.description).not.toContain('<');
	});

	it('no server text: no empty quote', () => {
		for (const status of [400, 401, 402, 403, 404, 409, 413, 415, 429, 500]) {
			expect(describeFailure(http(status), context()).description).not.toContain(
				'The service said',
			);
		}
	});
});

describe('describeFailure: network faults', () => {
	it.each([
		[
			'ECONNREFUSED',
			/^Could not connect to the service to get the asset "ast_1": the address refused the connection$/,
			/Base URL/,
		],
		['ENOTFOUND', /^Could not find the service's host to get the asset "ast_1"$/, /host name/],
		['EAI_AGAIN', /^Could not find the service's host/, /host name/],
		[
			'TIMEOUT',
			/^The service did not answer in time to get the asset "ast_1"$/,
			/No answer within 60 s\. .*Timeout option/,
		],
		[
			'ECONNRESET',
			/^The connection to the service dropped while trying to get the asset "ast_1"$/,
			/closed the connection/,
		],
		['EPIPE', /connection to the service dropped/, /closed the connection/],
		[
			'EHOSTUNREACH',
			/^Could not reach the service to get the asset "ast_1"$/,
			/No answer within 60 s/,
		],
	])('%s', (code, message, description) => {
		const described = describeFailure(
			{ kind: 'network', code, detail: 'No answer within 60 s' },
			context(),
		);
		expect(described.message).toMatch(message);
		expect(described.description).toMatch(description);
		expect(described.httpCode).toBeUndefined();
	});

	it.each(['TIMEOUT', 'ECONNRESET', 'EPIPE', 'EHOSTUNREACH'])(
		'%s with mayHaveCommitted warns that the call may have been carried out',
		(code) => {
			const withWarning = describeFailure(
				{ kind: 'network', code, detail: 'x' },
				context({ mayHaveCommitted: true }),
			);
			const without = describeFailure(
				{ kind: 'network', code, detail: 'x' },
				context({ mayHaveCommitted: false }),
			);
			expect(withWarning.description).toMatch(/may have carried it out/);
			expect(withWarning.description).toMatch(/Get Many/);
			expect(without.description).not.toMatch(/may have carried it out/);
		},
	);

	it.each(['ECONNREFUSED', 'ENOTFOUND'])(
		'%s never claims the call may have been carried out (nothing was sent)',
		(code) => {
			const described = describeFailure(
				{ kind: 'network', code, detail: 'x' },
				context({ mayHaveCommitted: true }),
			);
			expect(described.description).not.toMatch(/may have carried it out/);
		},
	);

	it.each(['ECONNREFUSED', 'ENOTFOUND', 'TIMEOUT', 'ECONNRESET', 'EHOSTUNREACH'])(
		'%s mentions the retries',
		(code) => {
			expect(
				describeFailure({ kind: 'network', code, detail: 'x' }, context({ retries: 2 }))
					.description,
			).toMatch(/retried 2 times/);
		},
	);
});

describe('describeFailure: GraphQL errors', () => {
	function graphql(...errors: Array<{ message: string; code?: string }>): Failure {
		return { kind: 'graphql', errors };
	}

	it('UNAUTHENTICATED reads like a rejected key', () => {
		const described = describeFailure(
			graphql({ message: 'token expired', code: 'UNAUTHENTICATED' }),
			context(),
		);
		expect(described.message).toMatch(/rejected the API key/);
		expect(described.description).toMatch(/credential/);
		expect(described.description).toContain('token expired');
	});

	it('FORBIDDEN reads like a 403 and gives the permission text', () => {
		const described = describeFailure(
			graphql({ message: 'admins only', code: 'FORBIDDEN' }),
			context({ permission: PERMISSION }),
		);
		expect(described.message).toMatch(/^The API key may not get the asset "ast_1"/);
		expect(described.description).toContain(PERMISSION);
		expect(described.description).toContain('admins only');
	});

	it('NOT_FOUND reads like a 404', () => {
		const described = describeFailure(
			graphql({ message: 'no such template', code: 'NOT_FOUND' }),
			context(),
		);
		expect(described.message).toMatch(/^Not found: get the asset "ast_1"/);
		expect(described.description).toContain('no such template');
	});

	it('BAD_USER_INPUT says the query was rejected and quotes why', () => {
		const described = describeFailure(
			graphql({ message: 'limit must be at most 50', code: 'BAD_USER_INPUT' }),
			context(),
		);
		expect(described.message).toBe(`The service rejected the query to ${ACTION}`);
		expect(described.description).toContain('limit must be at most 50');
	});

	it('an unknown field names the field and its type and says how to leave it out', () => {
		const described = describeFailure(
			graphql({
				message: 'Cannot query field "previewVideo" on type "VideoTemplate".',
				code: 'GRAPHQL_VALIDATION_FAILED',
			}),
			context(),
		);
		expect(described.message).toContain('"previewVideo"');
		expect(described.message).toContain('VideoTemplate');
		expect(described.description).toMatch(/Fields/);
	});

	it('an unknown field is recognised without a code and among other errors', () => {
		const described = describeFailure(
			graphql(
				{ message: 'something else' },
				{ message: 'Cannot query field "team" on type "User". Did you mean "teams"?' },
			),
			context(),
		);
		expect(described.message).toContain('"team"');
		expect(described.message).toContain('User');
	});

	it('any other error quotes every message', () => {
		const described = describeFailure(
			graphql({ message: 'first problem' }, { message: 'second problem', code: 'INTERNAL' }),
			context(),
		);
		expect(described.message).toContain(ACTION);
		expect(described.description).toContain('first problem');
		expect(described.description).toContain('second problem');
	});

	it('an empty error list still gives a description', () => {
		const described = describeFailure(graphql(), context());
		expect(described.message).toContain(ACTION);
		expect(described.description.trim()).not.toBe('');
	});
});

describe('describeFailure: an answer of the wrong shape', () => {
	it('says the answer is not what the API describes, and what was expected', () => {
		const described = describeFailure(
			{ kind: 'shape', detail: 'Expected { data: [...] }' },
			context(),
		);
		expect(described.message).toContain(ACTION);
		expect(described.message).toMatch(/not what the API describes/);
		expect(described.description).toContain('Expected { data: [...] }');
		expect(described.httpCode).toBeUndefined();
	});
});

describe('the API key never reaches the user', () => {
	const echoes: Array<[string, unknown]> = [
		['plain text', `invalid key ${SECRET}`],
		['plain text with Bearer', `Authorization: Bearer ${SECRET} refused`],
		['HTML title', `<html><head><title>Denied ${SECRET}</title></head></html>`],
		['HTML heading', `<html><body><h1>Denied ${SECRET}</h1></body></html>`],
		['HTML text', `<html><body><p>Denied ${SECRET}</p></body></html>`],
		['error.message', { error: { message: `bad ${SECRET}` } }],
		['error string', { error: `bad ${SECRET}` }],
		['message', { message: `bad ${SECRET}` }],
		['errors[].message', { errors: [{ message: `bad ${SECRET}` }] }],
		['errors[] string', { errors: [`bad ${SECRET}`] }],
		['detail', { detail: `bad ${SECRET}` }],
		['title', { title: `bad ${SECRET}` }],
		['error_description', { error_description: `bad ${SECRET}` }],
		['error.detail', { error: { detail: `bad ${SECRET}` } }],
		['several fields', { message: `m ${SECRET}`, detail: `d ${SECRET}`, key: SECRET }],
	];
	const statuses = [302, 400, 401, 402, 403, 404, 405, 409, 413, 415, 422, 429, 500, 502, 503, 418];

	it.each(echoes)('echoed in %s, for every status', (_shape, body) => {
		for (const status of statuses) {
			const text = both(
				http(status, body, {
					'content-type': typeof body === 'string' ? 'text/html' : 'application/json',
				}),
				context({ permission: PERMISSION }),
			);
			expect(text).not.toContain(SECRET);
		}
	});

	it('the server text is still shown, only the key is taken out', () => {
		const described = describeFailure(
			http(400, { message: `bad header Bearer ${SECRET} sent` }),
			context(),
		);
		expect(described.description).toMatch(/bad header Bearer .+ sent/);
		expect(described.description).not.toContain(SECRET);
	});

	it.each([
		['a GraphQL error', { kind: 'graphql', errors: [{ message: `key ${SECRET} is not allowed` }] }],
		[
			'a GraphQL UNAUTHENTICATED',
			{ kind: 'graphql', errors: [{ message: `key ${SECRET}`, code: 'UNAUTHENTICATED' }] },
		],
		[
			'a GraphQL FORBIDDEN',
			{ kind: 'graphql', errors: [{ message: `key ${SECRET}`, code: 'FORBIDDEN' }] },
		],
		[
			'a GraphQL BAD_USER_INPUT',
			{ kind: 'graphql', errors: [{ message: `key ${SECRET}`, code: 'BAD_USER_INPUT' }] },
		],
		[
			'an unknown network fault',
			{ kind: 'network', code: 'UNKNOWN', detail: `request to https://x/?k=${SECRET} failed` },
		],
		['a wrong shape', { kind: 'shape', detail: `got ${SECRET}` }],
	] as Array<[string, Failure]>)('echoed in %s', (_case, failure) => {
		expect(both(failure)).not.toContain(SECRET);
	});

	it('not even half of it when the text is cut right through the key', () => {
		for (let prefix = 250; prefix <= 320; prefix++) {
			const text = both(http(400, { message: `${'x'.repeat(prefix)}${SECRET}${'y'.repeat(50)}` }));
			expect(text).not.toContain(SECRET.slice(0, SECRET.length / 2));
		}
	});
});

describe('long server text is cut', () => {
	const long = `START ${'lorem ipsum '.repeat(400)} END`;

	it.each([
		['an HTTP body', http(400, { message: long })],
		['a plain-text 5xx', http(500, long)],
		['a GraphQL error', { kind: 'graphql', errors: [{ message: long }] } as Failure],
		['a network detail', { kind: 'network', code: 'UNKNOWN', detail: long } as Failure],
		['a shape detail', { kind: 'shape', detail: long } as Failure],
	])('in %s', (_case, failure) => {
		const described = describeFailure(failure, context());
		expect(described.description).toContain('START');
		expect(described.description).not.toContain('END');
		expect(described.description).toContain('…');
		expect(described.description.length).toBeLessThan(long.length / 4);
	});
});

describe('toNodeApiError', () => {
	const node: INode = {
		id: '0f1c2d3e-0000-4000-8000-000000000001',
		name: 'Video Personalization',
		type: 'n8n-nodes-video-personalization.videoPersonalization',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};

	it.each([
		['a 404', http(404, { message: `gone ${SECRET}` })],
		['a 403', http(403, { message: 'no' })],
		['a 429', http(429, 'slow down')],
		['a 503 HTML page', http(503, '<html><title>Down</title></html>')],
		[
			'a GraphQL FORBIDDEN',
			{ kind: 'graphql', errors: [{ message: 'nope', code: 'FORBIDDEN' }] } as Failure,
		],
		['a shape', { kind: 'shape', detail: 'x' } as Failure],
	])('%s becomes a NodeApiError carrying our text, status and item', (_case, failure) => {
		const ctx = context({ itemIndex: 3, permission: PERMISSION, retries: 2 });
		const described = describeFailure(failure, ctx);
		const error = toNodeApiError(node, failure, ctx);
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe(described.message);
		expect(error.description).toBe(described.description);
		expect(error.httpCode ?? undefined).toBe(described.httpCode);
		expect(error.context.itemIndex).toBe(3);
		expect(error.node).toBe(node);
	});

	it('a network fault has no HTTP status', () => {
		const error = toNodeApiError(
			node,
			{ kind: 'network', code: 'ECONNREFUSED', detail: 'x' },
			context({ itemIndex: 0 }),
		);
		expect(error.message).toMatch(/refused the connection/);
		expect(error.httpCode ?? undefined).toBeUndefined();
		expect(error.context.itemIndex).toBe(0);
	});

	it('keeps the key out of everything the error carries', () => {
		const error = toNodeApiError(
			node,
			http(401, { message: `key ${SECRET} revoked`, token: SECRET }),
			context({ itemIndex: 1 }),
		);
		const carried = JSON.stringify({
			...error,
			message: error.message,
			description: error.description,
			stack: error.stack,
		});
		expect(carried).toContain('revoked');
		expect(carried).not.toContain(SECRET);
	});
});

describe('describeFailure: a record that does not exist', () => {
	it('a lookup answered with null (notFound) reads like a 404, with the same code', () => {
		const asNotFound = describeFailure({ kind: 'notFound' }, context());
		expect(asNotFound).toEqual(describeFailure(http(404), context()));
		expect(asNotFound.message).toBe(`Not found: ${ACTION} (404)`);
		expect(asNotFound.httpCode).toBe('404');
	});

	it('quotes what the service said about it, without the key', () => {
		const described = describeFailure(
			{ kind: 'notFound', serverText: `no asset for ${SECRET}` },
			context(),
		);
		expect(described.description).toContain('The service said: "no asset for ***"');
		expect(described.description).not.toContain(SECRET);
	});
});

describe('networkFailure: thrown errors as failures', () => {
	const thrown = (fields: IDataObject, cause?: IDataObject) =>
		Object.assign(new Error(String(fields.message ?? '')), fields, cause ? { cause } : {});

	it.each([
		'ECONNREFUSED',
		'ECONNRESET',
		'EPIPE',
		'ENOTFOUND',
		'EAI_AGAIN',
		'EHOSTUNREACH',
		'ENETUNREACH',
	])('keeps the code %s', (code) => {
		expect(networkFailure(thrown({ code, message: `connect ${code}` }))).toEqual({
			kind: 'network',
			code,
			detail: `connect ${code}`,
		});
	});

	it('finds the code on a cause, as fetch and axios wrap it', () => {
		expect(
			networkFailure(
				thrown(
					{ message: 'request failed' },
					{ code: 'ECONNREFUSED', message: 'connect ECONNREFUSED' },
				),
			),
		).toMatchObject({
			kind: 'network',
			code: 'ECONNREFUSED',
		});
	});

	it.each([
		[{ code: 'ECONNABORTED', message: 'timeout of 1500ms exceeded' }, 'No answer within 1.5 s'],
		[{ code: 'ETIMEDOUT', message: 'socket timed out' }, 'No answer in time'],
		[{ message: 'timeout of 60000ms exceeded' }, 'No answer within 60 s'],
	])('reads %j as a timeout', (fields, detail) => {
		expect(networkFailure(thrown(fields))).toEqual({ kind: 'network', code: 'TIMEOUT', detail });
	});

	it.each(['socket hang up', 'stream has been aborted'])(
		'reads %j as a dropped connection',
		(message) => {
			expect(networkFailure(thrown({ message }))).toMatchObject({
				kind: 'network',
				code: 'ECONNRESET',
			});
		},
	);

	it.each([
		['a cancelled request', { code: 'ERR_CANCELED', message: 'canceled' }],
		['an abort', { name: 'AbortError', message: 'The operation was aborted' }],
		['an error of the code itself', { message: 'Cannot read properties of undefined' }],
	])('is not a network fault: %s', (_name, fields) => {
		expect(networkFailure(thrown(fields))).toBeUndefined();
	});
});

describe('messages name the address and the credential field it came from', () => {
	const rest = { field: 'Base URL', url: 'https://api.example.com/v1' } as const;
	const query = { field: 'GraphQL Endpoint', url: 'https://api.example.com/v1/graphql' } as const;

	it.each([404, 405])(
		'a %i for the whole query request says the GraphQL endpoint is wrong, never "not found"',
		(status) => {
			const described = describeFailure(
				http(status, '<html><title>Not Found</title></html>'),
				context({ action: 'get the template "Welcome"', endpoint: query }),
			);
			expect(described.message).toBe(
				`The GraphQL endpoint is wrong: nothing takes queries at https://api.example.com/v1/graphql (${status})`,
			);
			expect(described.description).toMatch(/^Set the GraphQL Endpoint field of the credential/);
			expect(described.description).toContain('not about a missing record');
			expect(both(http(status), context({ endpoint: query }))).not.toMatch(/Not found|ID or name/);
			expect(described.httpCode).toBe(String(status));
		},
	);

	it('a record the query did not find still reads as not found, and names the GraphQL Endpoint with its address', () => {
		const described = describeFailure({ kind: 'notFound' }, context({ endpoint: query }));
		expect(described.message).toBe(`Not found: ${ACTION} (404)`);
		expect(described.description).toContain(
			'check the GraphQL Endpoint in the credential (now https://api.example.com/v1/graphql)',
		);
	});

	it('a REST 404 and 405 show the real Base URL, not a placeholder', () => {
		expect(describeFailure(http(404), context({ endpoint: rest })).description).toContain(
			'check the Base URL in the credential (now https://api.example.com/v1)',
		);
		expect(describeFailure(http(405), context({ endpoint: rest })).description).toContain(
			'Check the Base URL in the credential (now https://api.example.com/v1)',
		);
		expect(both(http(404), context({ endpoint: rest }))).not.toContain('<');
	});

	it('connection faults name the field and the address', () => {
		const refused = describeFailure(
			{ kind: 'network', code: 'ECONNREFUSED', detail: 'x' },
			context({ endpoint: query }),
		);
		expect(refused.description).toMatch(
			/^Nothing accepts connections at that host and port\. Check the port and host in the GraphQL Endpoint in the credential \(now https:\/\/api\.example\.com\/v1\/graphql\)/,
		);
		// The host and port dialled (the default port written out), and the address that refused.
		expect(refused.message).toBe(
			'Could not connect to the service to get the asset "ast_1": api.example.com:443 refused the connection',
		);
		const byAddress = describeFailure(
			{ kind: 'network', code: 'ECONNREFUSED', detail: 'connect ECONNREFUSED 10.0.0.5:443' },
			context({ endpoint: query }),
		);
		expect(byAddress.message).toMatch(
			/: api\.example\.com:443 \(10\.0\.0\.5:443\) refused the connection$/,
		);
		const host = describeFailure(
			{ kind: 'network', code: 'ENOTFOUND', detail: 'x' },
			context({ endpoint: rest }),
		);
		expect(host.description).toMatch(
			/^Check the host name in the Base URL in the credential \(now https:\/\/api\.example\.com\/v1\)/,
		);
	});

	it('an answer that is not GraphQL from the query address points at the GraphQL Endpoint', () => {
		const described = describeFailure(
			{ kind: 'shape', detail: 'Expected JSON, got an HTML page (status 200)' },
			context({ endpoint: query }),
		);
		expect(described.description).toContain(
			'check the GraphQL Endpoint in the credential (now https://api.example.com/v1/graphql)',
		);
		expect(
			describeFailure({ kind: 'shape', detail: 'x' }, context({ endpoint: rest })).description,
		).toBe('x');
	});
});

describe("out of time (the call's time budget)", () => {
	const SETTING = 'Options > Give Up After (Minutes)';
	const node = {
		id: 'n',
		name: 'Video Personalization',
		type: 't',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	} as INode;

	it.each([
		[400, '1 s'],
		[3_000, '3 s'],
		[119_000, '119 s'],
		[150_000, '2.5 min'],
		[300_000, '5 min'],
	])('says %i ms as "%s"', (ms, text) => {
		expect(duration(ms)).toBe(text);
	});

	it('a Retry-After longer than the budget names the wait, the budget and the option value that allows it', () => {
		const failure: Failure = {
			kind: 'outOfTime',
			budgetMs: 120_000,
			elapsedMs: 50,
			askedMs: 150_000,
			last: http(429, { message: `slow down ${SECRET}` }),
			setting: SETTING,
		};
		const described = describeFailure(failure, context());
		expect(described.message).toBe(
			`The service asked to wait 2.5 min before it takes the request to ${ACTION} (429): longer than the time budget of 2 min`,
		);
		expect(described.description).toBe(
			`To wait for it, set ${SETTING} to 4 or more; or run again later. The service said: "slow down ***".`,
		);
		expect(described.httpCode).toBe('429');
	});

	it("without an option to name (a caller's own deadline), gives no advice about one", () => {
		const described = describeFailure(
			{ kind: 'outOfTime', budgetMs: 10_000, elapsedMs: 10, askedMs: 60_000, last: http(429) },
			context(),
		);
		expect(described.description).toBe('Run again later.');
		const gaveUp = describeFailure(
			{ kind: 'outOfTime', budgetMs: 10_000, elapsedMs: 10_000, last: http(503) },
			context({ retries: 2 }),
		);
		expect(gaveUp.description).not.toMatch(/Raise/);
	});

	it("a budget spent on faults keeps the last fault's words and says it gave up", () => {
		const described = describeFailure(
			{
				kind: 'outOfTime',
				budgetMs: 3_000,
				elapsedMs: 3_020,
				last: { kind: 'network', code: 'TIMEOUT', detail: 'No answer within 3 s' },
				setting: SETTING,
			},
			context({ retries: 0 }),
		);
		expect(described.message).toBe(
			`The service did not answer in time to ${ACTION} (gave up after 3 s, the time budget of 3 s)`,
		);
		expect(described.description).toMatch(
			/^No answer within 3 s\. .*Raise Options > Give Up After \(Minutes\) to keep trying longer\.$/,
		);
	});

	it('a call that never got its turn says so', () => {
		const described = describeFailure(
			{ kind: 'outOfTime', budgetMs: 60_000, elapsedMs: 60_000, setting: SETTING },
			context(),
		);
		expect(described.message).toBe(
			`Could not ${ACTION} in time: it was still waiting for its turn (gave up after 60 s, the time budget of 60 s)`,
		);
	});

	it('is recognisable as its own kind of error', () => {
		const outOfTime = toNodeApiError(
			node,
			{ kind: 'outOfTime', budgetMs: 1_000, elapsedMs: 1_000 },
			context(),
		);
		expect(isOutOfTime(outOfTime)).toBe(true);
		expect(isOutOfTime(toNodeApiError(node, http(503), context()))).toBe(false);
		expect(isOutOfTime(new Error('x'))).toBe(false);
		expect(isOutOfTime(undefined)).toBe(false);
	});
});
