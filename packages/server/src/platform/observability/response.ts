import type { ServerOptions } from 'node:http';
import { PLATFORM_SERVER_OPTIONS, PlatformResponse } from '../rate-limit/response.js';

/** The header a request id arrives in and is answered with (written by {@link PlatformResponse}). */
export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * The response class that carries the request id until the response is written: the platform's
 * ({@link PlatformResponse}), whose one `writeHead` merge adds the id beside the rate-limit headers.
 */
export { PlatformResponse as ObservedResponse };

/** Options for @hono/node-server's `serve`: the server answers with the platform's response class. */
export const OBSERVED_SERVER_OPTIONS: ServerOptions = PLATFORM_SERVER_OPTIONS;
