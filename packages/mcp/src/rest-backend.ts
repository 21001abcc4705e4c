/**
 * A `Backend` over a marketlens server's REST API, signed in with a session token: the MCP tools of
 * a local `marketlens mcp --server <url>` answer what that server's routes answer. Every method is
 * one REST call (two for the account) and returns the envelope's `data` untouched; an
 * `ErrorResponse` is thrown as a {@link ToolError} with the same `code` and message, so a tool error
 * carries the REST code whichever side produced it.
 */

import type { FillFilter, NotificationPreferences } from '@marketlens/contract';
import type {
  AccountInfo,
  Alert,
  AnalysisData,
  AnalysisRequest,
  AssetMarketsData,
  AssetRow,
  Backend,
  BalancesData,
  Exchange,
  ExchangeDetail,
  FavoriteState,
  FearGreedListData,
  Followable,
  Followed,
  LiveBackend,
  OrdersData,
  OverviewData,
  PilotSpectate,
  PilotTrackRecord,
  Position,
  PositionAnalysisData,
  PositionsData,
  ScreenerData,
  SignalData,
  SignalListData,
  TrackRecordData,
  TradesData,
} from './backend.js';
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

const seg = (s: string): string => encodeURIComponent(s);

/** The RFC 3339 form of an epoch-ms bound (the fill filters hold ms; the routes read date-times). */
const isoOf = (ms: number | undefined): string | undefined =>
  ms === undefined ? undefined : new Date(ms).toISOString();

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Creates the REST `Backend` for one session. Nothing is sent until a tool runs. Webhooks are
 * registered over `/mcp` only (no REST route), so their tools are not listed here.
 */
export function createRestBackend(options: RestBackendOptions): Required<Omit<Backend, 'webhooks'>> {
  const base = options.baseUrl.replace(/\/+$/, '');
  if (!/^https?:\/\//i.test(base)) throw new Error(`baseUrl must be an http(s) URL, got ${options.baseUrl}`);
  if (options.sessionToken.trim() === '') throw new Error('sessionToken is empty');
  const doFetch = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? REST_TIMEOUT_MS;

  /** One call: the envelope's `data`, or the `ErrorResponse` thrown as a `ToolError`. */
  async function call<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
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
    return json.data as T;
  }

  const get = <T>(path: string, headers?: Record<string, string>) => call<T>('GET', path, undefined, headers);

  function analysisQuery(r: AnalysisRequest): string {
    return queryOf({
      timeframe: r.timeframe,
      market_type: r.market_type,
      pair: r.pair,
      limit: r.limit,
      connection: r.connection,
    });
  }

  return {
    live: restLive(base, options, doFetch, timeoutMs),
    market: {
      analysis: (r) => get<AnalysisData>(`/v2/analysis/${seg(r.asset_id)}${analysisQuery(r)}`),
      signal: (r) => get<SignalData>(`/v2/analysis/${seg(r.asset_id)}/signal${analysisQuery(r)}`),
      overview: (r) =>
        get<OverviewData>(
          `/v2/analysis/${seg(r.asset_id)}/overview${analysisQuery(r)}`,
          r.locale === undefined ? {} : { 'x-locale': r.locale },
        ),
      assetMarkets: (r) =>
        get<AssetMarketsData>(
          `/v2/analysis/${seg(r.asset_id)}/markets${queryOf({ market_type: r.market_type, connection: r.connection })}`,
        ),
      tradingSignals: (r) =>
        get<SignalListData>(
          `/v2/assets/signals${queryOf({ timeframe: r.timeframe, asset_class: r.asset_class, limit: r.limit })}`,
        ),
      screener: (r) => get<ScreenerData>(`/v2/assets/screener${queryOf({ asset_class: r.asset_class })}`),
      fearGreed: (r) =>
        get<FearGreedListData>(
          `/v2/insights/fear_greed${queryOf({
            zone: r.zone,
            min_volume: r.min_volume,
            exclude_stables: r.exclude_stables,
            sort: r.sort,
            sort_dir: r.sort_dir,
            limit: r.limit,
          })}`,
        ),
      listAssets: (r) =>
        get<AssetRow[]>(
          `/v2/assets/${queryOf({ asset_class: r.asset_class, sort: r.sort, sort_dir: r.sort_dir, limit: r.limit })}`,
        ),
      listExchanges: () => get<Exchange[]>('/v1/exchanges'),
      exchangeDetail: (r) => get<ExchangeDetail>(`/v1/exchanges/${seg(r.exchange_id)}`),
      trackRecord: (r) =>
        get<TrackRecordData>(`/v2/track-record${queryOf({ timeframe: r.timeframe, asset_class: r.asset_class })}`),
    },
    account: {
      async accountInfo(): Promise<AccountInfo> {
        // The user and tier from /v1/auth/me, the favorites from /v2/assets/favorites.
        const [me, favorites] = await Promise.all([
          get<unknown>('/v1/auth/me'),
          get<AssetRow[]>(`/v2/assets/favorites${queryOf({ asset_class: 'all', limit: 500 })}`),
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
      },
      favorites: (r) =>
        get<AssetRow[]>(
          `/v2/assets/favorites${queryOf({ asset_class: r.asset_class, sort: r.sort, sort_dir: r.sort_dir, limit: r.limit })}`,
        ),
      addFavorite: (r) => call<FavoriteState>('POST', '/v2/assets/favorites', { asset_id: r.asset_id }),
      removeFavorite: (r) => call<FavoriteState>('DELETE', `/v2/assets/favorites/${seg(r.asset_id)}`),
    },
    portfolio: {
      positions: (q) => get<PositionsData>(`/v2/positions${queryOf({ asset_ids: q.asset_ids, coin_ids: q.coin_ids })}`),
      balances: (q) =>
        get<BalancesData>(
          `/v2/balances${queryOf({
            user_connection_id: q.user_connection_id,
            connection_id: q.connection_id,
            asset_ids: q.asset_ids,
            coin_ids: q.coin_ids,
          })}`,
        ),
      orders: (f) => get<OrdersData>(`/v1/orders${fillQuery(f)}`),
      trades: (f) => get<TradesData>(`/v1/trades${fillQuery(f)}`),
      positionAnalysis: (q) =>
        get<PositionAnalysisData>(
          `/v2/positions/${seg(q.position_id)}/analysis${queryOf({ timeframe: q.timeframe, limit: q.limit })}`,
        ),
      editPosition: (input) =>
        call<Position>('PATCH', `/v2/positions/${seg(input.position_id)}`, { notes: input.notes }),
    },
    alerts: {
      alerts: () => get<Alert[]>('/v1/notifications'),
      createAlert: (payload) => call<Alert>('POST', '/v1/notifications', payload),
      deleteAlert: (r) => call<null>('DELETE', `/v1/notifications/${seg(r.alert_id)}`),
      notificationPreferences: () => get<NotificationPreferences>('/v1/users/notification_preferences'),
      updateNotificationPreferences: (patch) =>
        call<NotificationPreferences>('PATCH', '/v1/users/notification_preferences', patch),
    },
    pilot: {
      pilotSpectate: () => get<PilotSpectate>('/pilot/spectate'),
      pilotTrackRecord: (r) =>
        get<PilotTrackRecord>(`/pilot/spectate/track-record${queryOf({ before_trade: r.before_trade })}`),
    },
  };
}

/** The order/trade filter as the routes read it (`start`/`end` as RFC 3339). */
function fillQuery(f: FillFilter): string {
  return queryOf({
    user_connection_id: f.user_connection_id,
    connection_id: f.connection_id,
    pair: f.pair,
    asset_id: f.asset_id,
    side: f.side,
    start: isoOf(f.start),
    end: isoOf(f.end),
    limit: f.limit,
    offset: f.offset,
  });
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
