// What the HTTP layers share.
import type { GraphQLSchema } from 'graphql';
import type { Clock } from './clock.mts';
import type { FaultInjector } from './faults.mts';
import type { RequestLog } from './log.mts';
import type { Fixtures } from './media.mts';
import type { RateLimiter } from './rateLimit.mts';
import type { Store } from './store.mts';

export interface AppContext {
	store: Store;
	clock: Clock;
	faults: FaultInjector;
	rateLimiter: RateLimiter;
	requests: RequestLog;
	fixtures: Fixtures;
	/** Uploaded files live here. */
	uploadDir: string;
	schema: GraphQLSchema;
	/** Set once the CDN listens. */
	cdnUrl: string;
	log: (message: string) => void;
	/** Tests only: runs before each API request is handled, to change the data between two requests. */
	beforeRequest?: (request: {
		method: string;
		path: string;
		query: URLSearchParams;
	}) => void | Promise<void>;
}
