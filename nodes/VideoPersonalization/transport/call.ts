import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IPollFunctions,
} from 'n8n-workflow';

/**
 * What a call is, as every transport module sees it: the request, the answer, and how it failed.
 * Here, below them all, so that none of them imports another for a type.
 */

/** The n8n contexts that send requests: node runs, trigger polls and the editor's list searches. */
export type ApiContext = IExecuteFunctions | IPollFunctions | ILoadOptionsFunctions;

export type ApiResponse = { status: number; headers: IDataObject; body: unknown };

/**
 * What a call is for, in the words its errors use (the action, who may do it, the item), and how
 * long it may take: what the helpers built on `send` take (graphql, lists, downloads).
 */
export interface CallOptions {
	/** e.g. 'get asset "ast_1"', 'list videos', 'create the video "Welcome Ana"' */
	action: string;
	/** Who may do this (written with each operation); shown on 403. */
	permission?: string;
	itemIndex?: number;
	/** One attempt's timeout (DEFAULT_TIMEOUT_MS unless told); it stops at the deadline. */
	timeoutMs?: number;
	/**
	 * The call's one time limit: when it gives up, in ms since the epoch. Every attempt and wait
	 * of the call ends by then. Unless given (a poll that must end in time passes its own), the
	 * item's time budget (Give Up After) from when the call is sent.
	 */
	deadline?: number;
}

/** A body that can only be read once (a file stream) is rebuilt for every attempt. */
export type PreparedBody = { body: IHttpRequestOptions['body']; headers: Record<string, string> };

/** What every request says besides where it goes. */
interface RequestOptions extends CallOptions {
	/** False for calls that create something: they are retried only when surely not processed. */
	idempotent: boolean;
	/** An answer outside 2xx that the caller reads itself (GraphQL errors sent with a 400). */
	accept?: (status: number, body: unknown) => boolean;
}

/** A call to the REST API (the default), at a path under the Base URL. */
export type RestRequest = RequestOptions & {
	to?: 'rest';
	method: IHttpRequestMethods;
	/** e.g. `/assets/ast_1` */
	path: string;
	qs?: IDataObject;
	body?: IDataObject | (() => Promise<PreparedBody>);
};

/**
 * Every request the client sends: to the REST API, a query to the GraphQL endpoint, or a file
 * on the content host, read as a stream and sent without the API key.
 */
export type ServiceRequest =
	| RestRequest
	| (RequestOptions & { to: 'graphql'; body: IDataObject })
	| (RequestOptions & { to: 'file'; url: string; redirectedFrom?: string });

/** What went wrong with one call, before it becomes an error the user reads. */
export type Failure =
	| { kind: 'http'; status: number; headers: IDataObject; body: unknown }
	| { kind: 'network'; code: string; detail: string }
	/** n8n's SSRF protection refused the address before anything was sent. */
	| { kind: 'ssrf'; ip?: string; blockedHostname?: string }
	| { kind: 'graphql'; errors: GraphqlErrorEntry[] }
	| { kind: 'shape'; detail: string }
	/** The record asked for does not exist: a 404, a GraphQL NOT_FOUND, or a lookup answered with null. */
	| { kind: 'notFound'; serverText?: string }
	/**
	 * The call's time budget ran out (or would, waiting as the service asked): every attempt,
	 * wait and pause of one call fits in it.
	 */
	| {
			kind: 'outOfTime';
			budgetMs: number;
			/** From the call's first turn to giving up. */
			elapsedMs: number;
			/** The wait a 429 asked for that would end past the budget. */
			askedMs?: number;
			/** What the last attempt met, if one was sent. */
			last?: Failure;
			/** The option that sets the budget, for the advice (absent when the caller set a deadline itself). */
			setting?: string;
	  };

export type GraphqlErrorEntry = { message: string; code?: string };

/** What the call was for, so the message can say it in the user's terms. */
export interface CallContext extends Pick<CallOptions, 'action' | 'permission' | 'itemIndex'> {
	/** Values that must never appear in a message (the API key). */
	secrets: string[];
	/** How many times the call was retried before giving up. */
	retries?: number;
	/** True when a call that creates something may have been carried out anyway (dropped connection, 5xx). */
	mayHaveCommitted?: boolean;
	/**
	 * Where the address came from (a credential field, or a file address the service gave) and the
	 * address; for a file reached through a redirect, the address that redirected to it.
	 */
	endpoint?: {
		field: 'Base URL' | 'GraphQL Endpoint' | 'file';
		url: string;
		redirectedFrom?: string;
	};
}

/** A failure as the user reads it. */
export type DescribedFailure = { message: string; description: string; httpCode?: string };
