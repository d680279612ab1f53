import type { IDataObject } from 'n8n-workflow';

import type { CallOptions, GraphqlErrorEntry, ServiceRequest } from './call';
import type { ServiceClient } from './client';
import { asObject } from './received';

/** A query under `viewer`: constant text, with what the user typed only in its variables. */
export interface GraphqlCall extends CallOptions {
	query: string;
	variables: IDataObject;
}

function graphqlErrors(body: IDataObject): GraphqlErrorEntry[] {
	if (!Array.isArray(body.errors)) return [];
	return body.errors.map((entry) => {
		const error = asObject(entry);
		const code = asObject(error?.extensions)?.code;
		return {
			message: String(error?.message ?? 'Unknown error'),
			code: typeof code === 'string' ? code : undefined,
		};
	});
}

/** Many GraphQL servers answer a query they reject with 400 or 422 and an `errors` list. */
const isGraphqlRejection = (status: number, body: unknown): boolean =>
	(status === 400 || status === 422) && Array.isArray(asObject(body)?.errors);

type GraphqlOutcome =
	| { ok: true; viewer: IDataObject }
	| { ok: false; errors: GraphqlErrorEntry[]; raise: () => Error };

/** Runs one query under `viewer` and hands GraphQL errors back, for callers that can adapt. */
export async function tryGraphql(api: ServiceClient, call: GraphqlCall): Promise<GraphqlOutcome> {
	const request: ServiceRequest = {
		...call,
		to: 'graphql',
		idempotent: true,
		body: { query: call.query, variables: call.variables },
		accept: isGraphqlRejection,
	};
	const body = await api.sendForObject(request);
	const errors = graphqlErrors(body);
	if (errors.length > 0) {
		return { ok: false, errors, raise: () => api.error({ kind: 'graphql', errors }, request) };
	}
	const data = body.data as IDataObject | null | undefined;
	const viewer = data?.viewer as IDataObject | null | undefined;
	if (!viewer || typeof viewer !== 'object') {
		throw api.error({ kind: 'shape', detail: 'The answer has no data.viewer object' }, request);
	}
	return { ok: true, viewer };
}
