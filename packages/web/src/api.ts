import { LOCALES } from './locale.js';

/** A failure the page shows: the API's `ErrorResponse` (its `code` and `message`), or why there was none. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** The server could not be reached at all (stopped, restarting, the network down). */
  get unreachable(): boolean {
    return this.status === 0;
  }
}

/** The code the page gives a request that never got an answer. */
export const UNREACHABLE = 'Unreachable';

/** The code the page gives an answer it cannot read (no JSON body, not the API's envelope). */
export const BAD_ANSWER = 'BadAnswer';

interface Envelope<T> {
  success: boolean;
  code: string | number;
  data?: T;
  message?: string | null;
}

function isEnvelope(value: unknown): value is Envelope<unknown> {
  return typeof value === 'object' && value !== null && 'success' in value && 'code' in value;
}

/** What a request sends besides its path. */
export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  body?: unknown;
  headers?: Record<string, string>;
  /** Revalidate with the server instead of a cached answer. */
  fresh?: boolean;
}

/**
 * Calls the REST API of the server that served the page and returns the envelope's `data`. The
 * session travels in the HttpOnly cookie (same origin), never in script-readable storage. Every
 * failure is an {@link ApiError}: the `ErrorResponse` the server sent, or code `Unreachable`.
 */
export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(path, {
      method: options.method ?? 'GET',
      headers,
      credentials: 'same-origin',
      ...(options.fresh ? { cache: 'no-cache' as const } : {}),
      ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
    });
  } catch {
    throw new ApiError(0, UNREACHABLE, 'The server cannot be reached. The page will retry when it is back.');
  }
  let payload: unknown;
  try {
    payload = await response.json();
  } catch {
    throw new ApiError(response.status, BAD_ANSWER, `The server answered ${response.status} without a JSON body.`);
  }
  if (!isEnvelope(payload)) {
    throw new ApiError(response.status, BAD_ANSWER, `The server answered ${response.status} in an unknown shape.`);
  }
  if (!response.ok || !payload.success) {
    throw new ApiError(response.status, payload.code, payload.message ?? `Request failed (${response.status})`);
  }
  return payload.data as T;
}

/** `x-locale` for the narrative, when the page's language is one the server writes. */
export function localeHeader(locale: string): Record<string, string> {
  return (LOCALES as readonly string[]).includes(locale) ? { 'x-locale': locale } : {};
}

const early = new Map<string, Promise<unknown>>();

/**
 * Starts a GET now (before the page that reads it is drawn), for {@link apiOnce} to take. The page
 * still sees its failure; the branch kept here only keeps an early failure from counting as unhandled.
 */
export function prefetch(path: string): void {
  const request = api<unknown>(path);
  request.catch(() => undefined);
  early.set(path, request);
}

/** The prefetched answer of `path` if one was started (once), else a new request. */
export function apiOnce<T>(path: string): Promise<T> {
  const started = early.get(path);
  if (started === undefined) return api<T>(path);
  early.delete(path);
  return started as Promise<T>;
}
