/**
 * A `Backend` over a marketlens server's REST API, signed in with a session token: the MCP tools of
 * a local `marketlens mcp --server <url>` answer what that server's routes answer. Each operation it
 * runs is one REST call (two for the account), written as a row of {@link REST_ROUTES}, and returns
 * the envelope's `data` untouched; an `ErrorResponse` is thrown as a {@link ToolError} with the same
 * `code` and message, so a tool error carries the REST code whichever side produced it.
 */

import type { FillFilter, OperationId } from '@marketlens/contract';
import type { AssetRow, Backend, Followable, Followed, LiveBackend, OperationRunner } from './backend.js';
import { ToolError } from './errors.js';

/** Time one REST call may take, by default (an analysis on a cold venue is the slow one). */
export const REST_TIMEOUT_MS = 30_000;

/** Options of {@link createRestBackend}. */
export interface RestBackendOptions {
  /** The server's base URL (`https://api.example.com`, `http://127.0.0.1:8080`); a path prefix is kept. */
  baseUrl: string;
  /** A session token (`x-session-token`), from `POST /v1/auth/login` or `marketlens serve`. */
  sessionToken: string;
  /** The fetch to call (tests, proxies); default the global one. */
  fetch?: typeof fetch;
  /** Abandon a call after this many ms with `ServiceUnavailable` (default {@link REST_TIMEOUT_MS}). */
  timeoutMs?: number;
  /** Sent as `user-agent` where the runtime allows it, so the server's logs can tell MCP traffic apart. */
  userAgent?: string;
}

type QueryValue = string | number | boolean | readonly string[] | null | undefined;

type Input = Readonly<Record<string, unknown>>;

/** A query string of the defined values; lists are comma-joined, as every list parameter of the API reads. */
function queryOf(params: Readonly<Record<string, QueryValue>>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null) continue;
    if (Array.isArray(v)) {
      if (v.length > 0) q.set(k, v.join(','));
    } else {
      q.set(k, String(v));
    }
  }
  const s = q.toString();
  return s === '' ? '' : `?${s}`;
}

/** The RFC 3339 form of an epoch-ms bound (the fill filters hold ms; the routes read date-times). */
const isoOf = (ms: number | undefined): string | undefined =>
  ms === undefined ? undefined : new Date(ms).toISOString();

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The fields of `input` named by `keys`, in that order. */
const pick = (input: Input, keys: readonly string[]): Record<string, QueryValue> =>
  Object.fromEntries(keys.map((k) => [k, input[k] as QueryValue]));

/**
 * One operation's REST call: the method and path (`{name}`: the input field `name`, percent-encoded),
 * the input fields sent as the query (in that order; a function where a field is spelled otherwise on
 * the wire), as the JSON body (`'input'`: the whole input), and as headers (field -> header).
 */
interface RestRoute {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  query?: readonly string[] | ((input: Input) => Record<string, QueryValue>);
  body?: readonly string[] | 'input';
  headers?: Readonly<Record<string, string>>;
}

/** One REST call: the envelope's `data` of `method path` with `body` and extra `headers`. */
type RestCall = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise<unknown>;

const ANALYSIS_QUERY = ['timeframe', 'market_type', 'pair', 'limit', 'connection'] as const;
const ASSET_LIST_QUERY = ['asset_class', 'sort', 'sort_dir', 'limit'] as const;

/** The order/trade filter as the routes read it (`start`/`end` as RFC 3339). */
function fillQuery(input: Input): Record<string, QueryValue> {
  const f = input as unknown as FillFilter;
  return {
    ...pick(input, ['user_connection_id', 'connection_id', 'pair', 'asset_id', 'side']),
    start: isoOf(f.start),
    end: isoOf(f.end),
    limit: f.limit,
    offset: f.offset,
  };
}

/**
 * The REST call of each operation the REST backend runs. Webhooks are registered over `/mcp` only
 * (no REST route), so their operations, and the tools running them, are not served here.
 */
export const REST_ROUTES: Partial<Record<OperationId, RestRoute>> = {
  'analysis.get': { method: 'GET', path: '/v2/analysis/{asset_id}', query: ANALYSIS_QUERY },
  'analysis.signal': { method: 'GET', path: '/v2/analysis/{asset_id}/signal', query: ANALYSIS_QUERY },
  'analysis.overview': {
    method: 'GET',
    path: '/v2/analysis/{asset_id}/overview',
    query: ANALYSIS_QUERY,
    headers: { locale: 'x-locale' },
  },
  'analysis.markets': { method: 'GET', path: '/v2/analysis/{asset_id}/markets', query: ['market_type', 'connection'] },
  'analysis.signals': { method: 'GET', path: '/v2/assets/signals', query: ['timeframe', 'asset_class', 'limit'] },
  'analysis.screener': { method: 'GET', path: '/v2/assets/screener', query: ['asset_class'] },
  'analysis.fearGreed': {
    method: 'GET',
    path: '/v2/insights/fear_greed',
    query: ['zone', 'min_volume', 'exclude_stables', 'sort', 'sort_dir', 'limit'],
  },
  'analysis.trackRecord': { method: 'GET', path: '/v2/track-record', query: ['timeframe', 'asset_class'] },
  'market.assets': { method: 'GET', path: '/v2/assets/', query: ASSET_LIST_QUERY },
  'market.exchanges': { method: 'GET', path: '/v1/exchanges' },
  'market.exchange': { method: 'GET', path: '/v1/exchanges/{exchange_id}' },
  'market.favorites': { method: 'GET', path: '/v2/assets/favorites', query: ASSET_LIST_QUERY },
  'market.addFavorite': { method: 'POST', path: '/v2/assets/favorites', body: ['asset_id'] },
  'market.removeFavorite': { method: 'DELETE', path: '/v2/assets/favorites/{asset_id}' },
  'accounts.positions': { method: 'GET', path: '/v2/positions', query: ['asset_ids', 'coin_ids'] },
  'accounts.balances': {
    method: 'GET',
    path: '/v2/balances',
    query: ['user_connection_id', 'connection_id', 'asset_ids', 'coin_ids'],
  },
  'accounts.orders': { method: 'GET', path: '/v1/orders', query: fillQuery },
  'accounts.trades': { method: 'GET', path: '/v1/trades', query: fillQuery },
  'accounts.positionAnalysis': {
    method: 'GET',
    path: '/v2/positions/{position_id}/analysis',
    query: ['timeframe', 'limit'],
  },
  'accounts.editPosition': { method: 'PATCH', path: '/v2/positions/{position_id}', body: ['notes'] },
  'alerts.list': { method: 'GET', path: '/v1/notifications' },
  'alerts.create': { method: 'POST', path: '/v1/notifications', body: 'input' },
  'alerts.delete': { method: 'DELETE', path: '/v1/notifications/{alert_id}' },
  'alerts.preferences': { method: 'GET', path: '/v1/users/notification_preferences' },
  'alerts.updatePreferences': { method: 'PATCH', path: '/v1/users/notification_preferences', body: 'input' },
  'pilot.spectate': { method: 'GET', path: '/pilot/spectate' },
  'pilot.trackRecord': { method: 'GET', path: '/pilot/spectate/track-record', query: ['before_trade'] },
};

/** Runs `route` with `input` over `call`. */
function callRoute(call: RestCall, route: RestRoute, input: Input): Promise<unknown> {
  const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(input[name])));
  const query =
    route.query === undefined
      ? ''
      : queryOf(typeof route.query === 'function' ? route.query(input) : pick(input, route.query));
  const body = route.body === undefined ? undefined : route.body === 'input' ? input : pick(input, route.body);
  const headers: Record<string, string> = {};
  for (const [field, header] of Object.entries(route.headers ?? {})) {
    if (input[field] !== undefined) headers[header] = String(input[field]);
  }
  return call(route.method, `${path}${query}`, body, headers);
}

/** `auth.accountInfo` over REST: the user and tier from /v1/auth/me, the favorites from /v2/assets/favorites. */
async function accountInfo(call: RestCall): Promise<unknown> {
  const [me, favorites] = await Promise.all([
    call('GET', '/v1/auth/me'),
    call('GET', `/v2/assets/favorites${queryOf({ asset_class: 'all', limit: 500 })}`) as Promise<AssetRow[]>,
  ]);
  const user = isRecord(me) ? me.user : null;
  if (
    !isRecord(me) ||
    !isRecord(user) ||
    typeof user.id !== 'string' ||
    typeof user.email !== 'string' ||
    typeof user.created_at !== 'string'
  ) {
    throw new ToolError('ServiceUnavailable', 'GET /v1/auth/me answered without a user');
  }
  const tier = me.tier === 'free' || me.tier === 'pro' || me.tier === 'elite' ? me.tier : null;
  const expires = typeof me.tier_expires_at === 'string' ? me.tier_expires_at : null;
  return {
    user: { id: user.id, email: user.email, created_at: user.created_at },
    tier,
    tier_expires_at: expires,
    favorites: favorites.map((row) => row.id),
  };
}

/**
 * Creates the REST `Backend` for one session. Nothing is sent until a tool runs. It runs the
 * operations of {@link REST_ROUTES} and `auth.accountInfo`.
 */
export function createRestBackend(options: RestBackendOptions): Required<Backend> {
  const base = options.baseUrl.replace(/\/+$/, '');
  if (!/^https?:\/\//i.test(base)) throw new Error(`baseUrl must be an http(s) URL, got ${options.baseUrl}`);
  if (options.sessionToken.trim() === '') throw new Error('sessionToken is empty');
  const doFetch = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? REST_TIMEOUT_MS;

  /** One call: the envelope's `data`, or the `ErrorResponse` thrown as a `ToolError`. */
  const call: RestCall = async (method, path, body, headers = {}) => {
    const init: RequestInit = {
      method,
      headers: {
        accept: 'application/json',
        'x-session-token': options.sessionToken,
        ...(options.userAgent === undefined ? {} : { 'user-agent': options.userAgent }),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(timeoutMs),
    };
    let res: Response;
    let text: string;
    try {
      res = await doFetch(`${base}${path}`, init);
      text = await res.text();
    } catch (err) {
      const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
      throw new ToolError(
        'ServiceUnavailable',
        timedOut
          ? `${method} ${path}: no answer from ${base} within ${timeoutMs} ms`
          : `${method} ${path}: ${base} could not be reached (${err instanceof Error ? err.message : String(err)})`,
      );
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    if (isRecord(json) && json.success === false && (typeof json.code === 'number' || typeof json.code === 'string')) {
      throw new ToolError(json.code, typeof json.message === 'string' ? json.message : `HTTP ${res.status}`);
    }
    if (!res.ok || !isRecord(json) || json.success !== true || !('data' in json)) {
      // Not the marketlens API (a proxy's error page, another service at that URL): no REST code to pass on.
      throw new ToolError(
        res.status >= 500 || res.ok ? 'ServiceUnavailable' : 'InvalidRequest',
        `${method} ${path}: HTTP ${res.status} without a marketlens envelope from ${base}`,
      );
    }
    return json.data;
  };

  const runs = (id: OperationId): boolean => id === 'auth.accountInfo' || REST_ROUTES[id] !== undefined;
  const run = (async (id: OperationId, input: Input) => {
    if (id === 'auth.accountInfo') return accountInfo(call);
    const route = REST_ROUTES[id];
    if (route === undefined) throw new ToolError('NotFound', `${id} is not served over REST`);
    return callRoute(call, route, input ?? {});
  }) as OperationRunner;

  return { run, runs, live: restLive(base, options, doFetch, timeoutMs) };
}

// The live part: resource subscriptions over the server's `GET /v2/stream`.

/** Wait before the stream is opened again after it dropped (doubling up to {@link RECONNECT_MAX_MS}). */
const RECONNECT_MS = 1_000;
const RECONNECT_MAX_MS = 30_000;

interface SseEvent {
  id?: string;
  event?: string;
  data?: string;
}

/** Reads the SSE events of `body` into `on` (comments, the heartbeats, are skipped); resolves at its end. */
async function readSse(body: ReadableStream<Uint8Array>, on: (e: SseEvent) => boolean | undefined): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      text += decoder.decode(value, { stream: true }).replace(/\r\n?/g, '\n');
      for (let cut = text.indexOf('\n\n'); cut >= 0; cut = text.indexOf('\n\n')) {
        const e: SseEvent = {};
        for (const line of text.slice(0, cut).split('\n')) {
          const colon = line.indexOf(':');
          if (colon <= 0) continue;
          const field = line.slice(0, colon);
          const v = line.slice(colon + 1).replace(/^ /, '');
          if (field === 'id' || field === 'event') e[field] = v;
          else if (field === 'data') e.data = e.data === undefined ? v : `${e.data}\n${v}`;
        }
        text = text.slice(cut + 2);
        if ((e.event !== undefined || e.data !== undefined) && on(e) === false) return;
      }
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
}

/**
 * Candle closes from the server's `GET /v2/stream`: a subscription is checked as the server checks
 * a stream (a probe stream opened with the session's subscriptions and closed at its `ready`
 * event, so a refusal is the server's own error), and the followed candles share one stream,
 * opened again with the new `follow` list when it changes (with `Last-Event-ID`, so a close between
 * the two is replayed) and after a drop (1 s, doubling up to 30 s). Each `analysis` event calls the
 * watchers of its candle. The last watcher gone, the stream is closed and no timer is left.
 */
function restLive(base: string, options: RestBackendOptions, doFetch: typeof fetch, timeoutMs: number): LiveBackend {
  const watchers = new Map<string, Set<() => void>>();
  let conn: { abort: AbortController; follow: string } | null = null;
  let lastId: string | undefined;
  let retry: ReturnType<typeof setTimeout> | null = null;
  let backoff = RECONNECT_MS;
  let refreshing = false;
  const keyOf = (f: Followed) => `${f.asset_id}:${f.timeframe}`;

  /** Opens `GET /v2/stream` following `follow`; a refusal is thrown as the server's error. */
  async function open(follow: string, signal: AbortSignal, lastEventId?: string): Promise<ReadableStream<Uint8Array>> {
    const path = `/v2/stream${queryOf({ follow })}`;
    let res: Response;
    try {
      res = await doFetch(`${base}${path}`, {
        headers: {
          accept: 'text/event-stream',
          'x-session-token': options.sessionToken,
          ...(options.userAgent === undefined ? {} : { 'user-agent': options.userAgent }),
          ...(lastEventId === undefined ? {} : { 'last-event-id': lastEventId }),
        },
        signal,
      });
    } catch (err) {
      throw new ToolError('ServiceUnavailable', `GET ${path}: ${base} could not be reached (${String(err)})`);
    }
    if (res.status === 200 && res.body !== null) return res.body;
    const json = (await res.json().catch(() => undefined)) as unknown;
    if (isRecord(json) && json.success === false && (typeof json.code === 'number' || typeof json.code === 'string')) {
      throw new ToolError(json.code, typeof json.message === 'string' ? json.message : `HTTP ${res.status}`);
    }
    throw new ToolError('ServiceUnavailable', `GET ${path}: HTTP ${res.status} without a marketlens envelope`);
  }

  /** The subscriptions the server resolves for `follow` (its `ready` event); the probe stream is closed. */
  async function probe(follow: string): Promise<Followed[]> {
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), timeoutMs);
    try {
      const body = await open(follow, abort.signal);
      let ready: Followed[] | null = null;
      await readSse(body, (e) => {
        if (e.event !== 'ready' || e.data === undefined) return;
        const data = JSON.parse(e.data) as { subscriptions?: Followed[] };
        ready = data.subscriptions ?? [];
        return false;
      });
      if (ready === null) throw new ToolError('ServiceUnavailable', 'GET /v2/stream ended before its ready event');
      return ready;
    } catch (err) {
      if (err instanceof ToolError) throw err;
      throw new ToolError('ServiceUnavailable', `GET /v2/stream: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      clearTimeout(timer);
      abort.abort();
    }
  }

  /** Follows the watched candles on one stream from `lastId` on, until it drops or is replaced. */
  function connect(follow: string): void {
    const c = { abort: new AbortController(), follow };
    conn = c;
    void (async () => {
      try {
        const body = await open(follow, c.abort.signal, lastId);
        backoff = RECONNECT_MS;
        await readSse(body, (e) => {
          if (conn !== c) return false;
          if (e.id !== undefined) lastId = e.id;
          if (e.event !== 'analysis' || e.data === undefined) return;
          const d = JSON.parse(e.data) as { asset?: { id?: string }; timeframe?: string };
          for (const notify of [...(watchers.get(`${d.asset?.id}:${d.timeframe}`) ?? [])]) notify();
        });
      } catch (err) {
        // Refused (the session expired, the tier changed): following stops; nothing to retry.
        if (conn === c && err instanceof ToolError && err.code !== 'ServiceUnavailable') {
          conn = null;
          return;
        }
      }
      if (conn !== c) return; // replaced by a stream with another list, or stopped
      conn = null;
      retry = setTimeout(() => {
        retry = null;
        if (conn === null && watchers.size > 0) connect([...watchers.keys()].join(','));
      }, backoff);
      backoff = Math.min(backoff * 2, RECONNECT_MAX_MS);
    })();
  }

  /** Opens, replaces or closes the stream to follow what is watched now (once per tick). */
  function refresh(): void {
    if (refreshing) return;
    refreshing = true;
    queueMicrotask(() => {
      refreshing = false;
      const follow = [...watchers.keys()].join(',');
      if (conn !== null && conn.follow === follow) return;
      conn?.abort.abort();
      conn = null;
      if (retry !== null) clearTimeout(retry);
      retry = null;
      if (follow === '') {
        lastId = undefined;
        backoff = RECONNECT_MS;
        return;
      }
      connect(follow);
    });
  }

  function watch(followed: Followed, onClose: () => void): () => void {
    const key = keyOf(followed);
    let set = watchers.get(key);
    if (set === undefined) {
      set = new Set();
      watchers.set(key, set);
    }
    const notify = () => onClose();
    set.add(notify);
    refresh();
    let stopped = false;
    return () => {
      if (stopped) return;
      stopped = true;
      set.delete(notify);
      if (set.size === 0) watchers.delete(key);
      refresh();
    };
  }

  return {
    async checkFollow(followed: readonly Followed[]): Promise<Followable> {
      const resolved = await probe(followed.map(keyOf).join(','));
      // The server drops duplicates (a ticker and its id): an item not found as it was asked is resolved alone.
      const each = await Promise.all(
        followed.map(async (f) =>
          resolved.some((r) => keyOf(r) === keyOf(f)) ? f : ((await probe(keyOf(f)))[0] ?? f),
        ),
      );
      return { followed: each, watch };
    },
  };
}
