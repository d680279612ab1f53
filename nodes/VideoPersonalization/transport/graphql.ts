import type { IDataObject } from 'n8n-workflow';

import type { CallOptions } from './call';
import type { ServiceClient } from './client';
import { asObject } from './received';

/** A query under `viewer`: constant text, with what the user typed only in its variables. */
export type GraphqlCall = CallOptions & { query: string; variables: IDataObject };

/** Many GraphQL servers answer a query they reject with 400 or 422 and an `errors` list. */
const isRejection = (status: number, body: unknown): boolean =>
	(status === 400 || status === 422) && Array.isArray(asObject(body)?.errors);

/** Runs one query under `viewer` and hands GraphQL errors back, for callers that can adapt. */
export async function tryGraphql(api: ServiceClient, call: GraphqlCall) {
	const body = { query: call.query, variables: call.variables };
	const request = { ...call, to: 'graphql' as const, idempotent: true, body, accept: isRejection };
	const answer = await api.sendForObject(request);
	const errors = (Array.isArray(answer.errors) ? answer.errors : []).map((entry: unknown) => {
		const error = asObject(entry);
		const code = asObject(error?.extensions)?.code;
		const message = String(error?.message ?? 'Unknown error');
		return { message, code: typeof code === 'string' ? code : undefined };
	});
	const raise = () => api.error({ kind: 'graphql', errors }, request);
	if (errors.length > 0) return { ok: false as const, errors, raise };
	const viewer = asObject(answer.data)?.viewer as IDataObject | null | undefined;
	if (!viewer || typeof viewer !== 'object')
		throw api.error({ kind: 'shape', detail: 'The answer has no data.viewer object' }, request);
	return { ok: true as const, viewer };
}
