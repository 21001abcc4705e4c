/**
 * The live feature's engine, one per app: the open streams, what they follow, and the timers that
 * exist only while something is followed: the candle clock of each followed timeframe (an
 * `analysis` event per followed asset when its candle closes), the price poll (a `price` event at
 * most once a second per followed asset, when the price moved) and one housekeeping tick
 * (heartbeats, the retention window, the credentials of open streams). When the last stream
 * closes every timer is cleared and the cluster reader stopped: nothing is left behind.
 */
import type { ErrorResponse, StreamPrice, StreamSubscription } from '@marketlens/contract';
import { candleOpenTime, SIMULATED_VENUE_ID, TIMEFRAME_MS, type Timeframe } from '@marketlens/exchanges';
import { analysisOf, analysisWire } from '../analysis/analysis.js';
import { recordServedPlan } from '../analysis/plans/recorder.js';
import { iso, marketOf, universeOf } from '../market/market.js';
import { type AppState, stateKey, stateOf } from '../platform/app-state.js';
import type { AppDeps } from '../platform/deps.js';
import { CHART_DEPTH } from '../platform/product-rules.js';
import { analysisTopic, type LiveEventType, LiveHub, priceTopic, sseFrame, userTopic } from './hub.js';
import { DEFAULT_LIVE_OPTIONS, type LiveOptions } from './options.js';
import { type NodeOutput, SseStream } from './stream.js';
import { type LiveTransport, localTransport, redisTransport } from './transport.js';

export { DEFAULT_LIVE_OPTIONS, type LiveOptions, type LiveTuning } from './options.js';

/** Why an open stream's credential no longer holds: the `error` event that ends it. */
export type CredentialCheck = () => Promise<ErrorResponse | null>;

/** What one stream follows, resolved and checked by the use case. */
export interface StreamPlan {
  subscriptions: readonly StreamSubscription[];
  /** The session's user, whose `alert` and `sync` events it receives; null for an API key. */
  userId: string | null;
  /** Re-checks the credential; streams with the same `credentialKey` share one check per tick. */
  check: CredentialCheck;
  credentialKey: string;
}

interface OpenStream {
  stream: SseStream;
  plan: StreamPlan;
  unsubscribe: () => void;
}

/**
 * The longest the price poll waits, after a candle's end, for the analyses of that close to arrive
 * (a market outside its session has no candle to close, and a venue may be late: the prices go on).
 */
export const CLOSE_QUIET_MS = 3_000;

/**
 * Candles of one close being claimed and computed at once on an instance: enough to overlap the
 * venue's round trips (a real venue's read of the new candle), few enough that an instance claims
 * only what it is about to compute.
 */
export const CLOSE_CONCURRENCY = 8;

const count = <K>(map: Map<K, number>, key: K, by: 1 | -1): number => {
  const n = (map.get(key) ?? 0) + by;
  if (n <= 0) map.delete(key);
  else map.set(key, n);
  return n;
};

/** The live streams of one app. */
export class Live {
  readonly hub: LiveHub;
  readonly #deps: AppDeps;
  readonly #options: LiveOptions;
  readonly #transport: LiveTransport;
  readonly #streams = new Set<OpenStream>();
  /** Followers without a stream (MCP resource subscriptions), one candle each. */
  readonly #watchers = new Set<StreamSubscription>();
  /** Followers per `asset|timeframe`, per asset (prices) and per timeframe (candle clocks). */
  readonly #pairs = new Map<string, number>();
  readonly #assets = new Map<string, number>();
  readonly #timeframes = new Map<Timeframe, number>();
  readonly #closeTimers = new Map<Timeframe, ReturnType<typeof setTimeout>>();
  readonly #retryTimers = new Set<ReturnType<typeof setTimeout>>();
  readonly #lastPrice = new Map<string, number>();
  readonly #pricing = new Set<string>();
  #tick: ReturnType<typeof setInterval> | null = null;
  #priceTimer: ReturnType<typeof setInterval> | null = null;
  #checking = false;
  /** Closed candles whose analysis is being computed here: the price poll waits for them. */
  #closing = 0;
  /**
   * The analysis topics of a close whose event has not reached this instance yet (from here or
   * from the instance that computed it), each with the monotonic time past which it is not waited
   * for: the price poll waits for them too (see {@link CLOSE_QUIET_MS}).
   */
  readonly #awaited = new Map<string, number>();
  /** Closed candles whose analysis this instance computed and published (the benchmark counts them). */
  #computed = 0;

  constructor(deps: AppDeps, options: LiveOptions) {
    this.#deps = deps;
    this.#options = options;
    this.hub = new LiveHub({
      now: deps.now,
      retentionMs: options.retentionMs,
      maxEvents: options.maxEvents,
      appended: (event) => {
        if (event.type === 'analysis') this.#awaited.delete(event.topic);
      },
    });
    this.#transport =
      deps.shared === undefined ? localTransport(this.hub) : redisTransport(deps.shared.redis, this.hub, options);
  }

  /** The options in force. */
  get options(): Readonly<LiveOptions> {
    return this.#options;
  }

  /**
   * Opens a stream for `plan`: its `ready` event, then (with `lastEventId`) the retained events
   * after that id, then its topics' events as they happen. With `output` (the request's Node
   * response) the frames are written to it directly (see {@link SseStream}).
   */
  open(plan: StreamPlan, lastEventId?: string, output?: NodeOutput): SseStream {
    const entry: OpenStream = {
      stream: new SseStream(this.#options.bufferBytes, () => this.#closed(entry), output),
      plan,
      unsubscribe: () => {},
    };
    const { stream } = entry;
    const topics = plan.subscriptions.map((s) => analysisTopic(s.asset_id, s.timeframe));
    const assets = [...new Set(plan.subscriptions.map((s) => s.asset_id))];
    topics.push(...assets.map(priceTopic));
    if (plan.userId !== null) topics.push(userTopic(plan.userId));
    this.#streams.add(entry);
    for (const s of plan.subscriptions) this.#follow(s, 1);
    for (const a of assets) count(this.#assets, a, 1);
    this.#schedule();
    const attach = () => {
      if (!stream.open) return;
      // The ready event goes first; the replay and the subscription follow in one synchronous run,
      // so no event can fall between them.
      const replay: Uint8Array[] = [];
      const probe = this.hub.subscribe(topics, { deliver: (e) => replay.push(e.frame) }, lastEventId);
      probe.close();
      stream.write(
        sseFrame(
          'ready',
          JSON.stringify({
            subscriptions: plan.subscriptions,
            user_events: plan.userId !== null,
            resumed: probe.resumed,
            retention_seconds: Math.floor(this.#options.retentionMs / 1000),
            heartbeat_seconds: Math.floor(this.#options.heartbeatMs / 1000),
            buffer_bytes: this.#options.bufferBytes,
          }),
        ),
      );
      for (const frame of replay) stream.write(frame);
      if (!stream.open) return;
      entry.unsubscribe = this.hub.subscribe(topics, stream).close;
    };
    // With Redis, a stream attaches once this instance reads the cluster's log from a known place.
    const reading = this.#transport.start();
    if (reading === undefined) attach();
    else void reading.then(attach);
    return stream;
  }

  /**
   * Follows one candle without a stream (an MCP resource subscription): `onClose` is called each
   * time its analysis is published, from this instance's close or another's (with Redis). It shares
   * the candle clocks, the once-per-cluster analysis and the hub with the streams. Answers the
   * function that stops following (idempotent); the last follower gone, the timers go too.
   */
  watch(followed: StreamSubscription, onClose: () => void): () => void {
    // A watcher is its own object, so two watchers of one candle are counted twice.
    const entry: StreamSubscription = { asset_id: followed.asset_id, timeframe: followed.timeframe };
    this.#watchers.add(entry);
    this.#follow(entry, 1);
    this.#schedule();
    let unsubscribe: (() => void) | null = null;
    let stopped = false;
    const attach = () => {
      if (stopped) return;
      unsubscribe = this.hub.subscribe([analysisTopic(entry.asset_id, entry.timeframe)], {
        deliver: () => onClose(),
      }).close;
    };
    const reading = this.#transport.start();
    if (reading === undefined) attach();
    else void reading.then(attach);
    return () => {
      if (stopped) return;
      stopped = true;
      unsubscribe?.();
      this.#watchers.delete(entry);
      this.#follow(entry, -1);
      this.#schedule();
    };
  }

  /** Publishes a user's event (an alert fired, a sync finished) to their streams on every instance. */
  publishUser(userId: string, type: Extract<LiveEventType, 'alert' | 'sync'>, json: string): Promise<boolean> {
    return this.#transport.publish(type, userTopic(userId), json);
  }

  /**
   * Open streams, watchers, timers held, closed candles computed here and the hub's counts (tests
   * count them; the benchmark reports them).
   */
  stats() {
    return {
      streams: this.#streams.size,
      watchers: this.#watchers.size,
      timers:
        this.#closeTimers.size +
        this.#retryTimers.size +
        (this.#tick === null ? 0 : 1) +
        (this.#priceTimer === null ? 0 : 1),
      followed: this.#pairs.size,
      computed: this.#computed,
      transport: this.#transport.running(),
      ...this.hub.stats(),
    };
  }

  /** Ends every stream (server shutdown); the timers and the reader stop with the last one. */
  async close(): Promise<void> {
    for (const s of [...this.#streams]) s.stream.finish(undefined, 'shutdown');
    await this.#transport.stop();
  }

  #closed(entry: OpenStream): void {
    if (!this.#streams.delete(entry)) return;
    entry.unsubscribe();
    for (const s of entry.plan.subscriptions) this.#follow(s, -1);
    for (const a of new Set(entry.plan.subscriptions.map((s) => s.asset_id))) {
      if (count(this.#assets, a, -1) === 0) this.#lastPrice.delete(a);
    }
    this.#schedule();
  }

  #follow(s: StreamSubscription, by: 1 | -1): void {
    const followers = count(this.#pairs, `${s.asset_id}|${s.timeframe}`, by);
    count(this.#timeframes, s.timeframe, by);
    if (by === 1 && followers === 1) this.#warm(s);
  }

  /**
   * A candle followed for the first time: its analysis now, as `/v2/analysis` computes it (the same
   * cache), so the venue's series of it is read here and not at its close, when only the new
   * candle is read (a series followed for a while was read at its previous close already).
   * Failures are left to the close, which asks again.
   */
  #warm(s: StreamSubscription): void {
    const deps = this.#deps;
    const market = marketOf(deps);
    const asset = universeOf(market).get(s.asset_id);
    if (asset === undefined || asset.is_stablecoin) return;
    analysisOf(deps, market, asset, { asset_id: s.asset_id, timeframe: s.timeframe, limit: CHART_DEPTH.free }).catch(
      () => undefined,
    );
  }

  /** Starts the timers something needs and clears the ones nothing needs any more. */
  #schedule(): void {
    const any = this.#streams.size > 0 || this.#watchers.size > 0;
    if (any && this.#tick === null) {
      this.#tick = setInterval(() => this.#housekeeping(), this.#options.heartbeatMs);
      this.#tick.unref();
    } else if (!any && this.#tick !== null) {
      clearInterval(this.#tick);
      this.#tick = null;
      void this.#transport.stop();
    }
    if (this.#assets.size > 0 && this.#priceTimer === null) {
      this.#priceTimer = setInterval(() => this.#pollPrices(), this.#options.priceMs);
      this.#priceTimer.unref();
    } else if (this.#assets.size === 0 && this.#priceTimer !== null) {
      clearInterval(this.#priceTimer);
      this.#priceTimer = null;
    }
    for (const tf of this.#timeframes.keys()) if (!this.#closeTimers.has(tf)) this.#armClose(tf);
    for (const [tf, timer] of this.#closeTimers) {
      if (!this.#timeframes.has(tf)) {
        clearTimeout(timer);
        this.#closeTimers.delete(tf);
      }
    }
    if (!any) {
      for (const t of this.#retryTimers) clearTimeout(t);
      this.#retryTimers.clear();
      this.#awaited.clear();
    }
  }

  /**
   * The timer of `tf`'s next candle close: its end, plus the settle time of a venue that publishes
   * a candle a moment after its end. The simulated venue's candle is final at its end (it is made
   * from the clock), so it is read at once.
   */
  #armClose(tf: Timeframe): void {
    const now = this.#deps.now();
    const end = candleOpenTime(tf, now) + TIMEFRAME_MS[tf];
    const settle = marketOf(this.#deps).venue === SIMULATED_VENUE_ID ? 0 : this.#options.settleMs;
    const timer = setTimeout(
      () => {
        this.#closeTimers.delete(tf);
        if (!this.#timeframes.has(tf)) return;
        this.#armClose(tf);
        const quietUntil = performance.now() + CLOSE_QUIET_MS;
        const assets: string[] = [];
        for (const key of this.#pairs.keys()) {
          const [asset, frame] = key.split('|');
          if (frame !== tf) continue;
          this.#awaited.set(analysisTopic(asset, tf), quietUntil);
          assets.push(asset);
        }
        void this.#closeAll(assets, tf, end - TIMEFRAME_MS[tf]);
      },
      Math.max(0, end - now) + settle,
    );
    timer.unref();
    this.#closeTimers.set(tf, timer);
  }

  /**
   * The candles of one close, a few at a time ({@link CLOSE_CONCURRENCY}), each claimed only when
   * this instance is about to compute it, from a point drawn per close: the instances of a cluster
   * share the close's work as each has room for it (claimed all at once, the instance whose timer
   * fired first won nearly every candle and computed them on one core while the others waited),
   * and the first analyses are published while the later ones are computed.
   */
  async #closeAll(assets: readonly string[], tf: Timeframe, open: number): Promise<void> {
    const from = Math.floor(Math.random() * assets.length);
    let next = 0;
    const worker = async () => {
      while (next < assets.length) {
        const asset = assets[(from + next++) % assets.length];
        await this.#candleClosed(asset, tf, open, 0);
      }
    };
    await Promise.all(Array.from({ length: Math.min(CLOSE_CONCURRENCY, assets.length) }, worker));
  }

  /**
   * A followed candle closed: once across the cluster (a claim on the candle), its analysis is
   * computed as `/v2/analysis` computes it at its defaults (the same cache, the plan recorded as
   * published) and published. When the venue has not published the candle yet the same instance
   * asks again a little later, a few times.
   */
  async #candleClosed(assetId: string, tf: Timeframe, open: number, attempt: number): Promise<void> {
    if (!this.#pairs.has(`${assetId}|${tf}`)) return;
    this.#closing++;
    try {
      if (attempt === 0 && !(await this.#transport.claim(`close:${assetId}:${tf}:${open}`, TIMEFRAME_MS[tf]))) return;
      const deps = this.#deps;
      const market = marketOf(deps);
      const asset = universeOf(market).get(assetId);
      if (asset === undefined) return;
      const result = await analysisOf(deps, market, asset, {
        asset_id: assetId,
        timeframe: tf,
        limit: CHART_DEPTH.free,
      });
      if (result.analysis.as_of < open) {
        this.#retryClose(assetId, tf, open, attempt);
        return;
      }
      // The plan is recorded beside the publication, not before it: the event does not wait for a
      // storage write (recordServedPlan never throws).
      const recorded = recordServedPlan(deps, market, result);
      await this.#transport.publish('analysis', analysisTopic(assetId, tf), JSON.stringify(analysisWire(result)));
      await recorded;
      this.#computed++;
    } catch (err) {
      // This instance holds the candle's claim: a failure (the venue, the shared cache) is retried
      // here, or no instance would send it.
      this.#options.warn(
        `analysis of ${assetId} ${tf} at ${iso(open)} failed (attempt ${attempt + 1}): ${err instanceof Error ? err.message : String(err)}`,
      );
      this.#retryClose(assetId, tf, open, attempt);
    } finally {
      this.#closing--;
    }
  }

  /**
   * Asks again for a candle's analysis a little later, a few times at most: when the clock has not
   * reached the candle's end yet (a timer may fire a moment before the wall clock says so), right
   * at its end; else after the retry period.
   */
  #retryClose(assetId: string, tf: Timeframe, open: number, attempt: number): void {
    if (attempt + 1 > this.#options.closeRetries || !this.#pairs.has(`${assetId}|${tf}`)) return;
    const early = open + TIMEFRAME_MS[tf] - this.#deps.now();
    const timer = setTimeout(
      () => {
        this.#retryTimers.delete(timer);
        void this.#candleClosed(assetId, tf, open, attempt + 1);
      },
      early > 0 ? Math.min(early + 1, this.#options.closeRetryMs) : this.#options.closeRetryMs,
    );
    timer.unref();
    this.#retryTimers.add(timer);
  }

  /**
   * One price read per followed asset (none while the previous read of it is in flight). While a
   * closed candle's analyses are being computed and sent the poll is skipped: a candle close sends
   * an event to every stream that follows the timeframe, and the second's price events, one per
   * stream too, would otherwise be written between them (a price is sent at most once a second:
   * the next poll sends the moved prices). With several instances the same holds until the close's
   * analyses reached this instance, wherever they were computed (at most {@link CLOSE_QUIET_MS}).
   */
  #pollPrices(): void {
    if (this.#closing > 0 || this.#awaiting()) return;
    const market = marketOf(this.#deps);
    for (const assetId of this.#assets.keys()) {
      if (this.#pricing.has(assetId)) continue;
      this.#pricing.add(assetId);
      market
        .ticker({ asset_id: assetId })
        .then((t) => {
          if (!this.#assets.has(assetId) || this.#lastPrice.get(assetId) === t.last) return;
          this.#lastPrice.set(assetId, t.last);
          const data: StreamPrice = {
            asset_id: assetId,
            price: t.last,
            time: new Date(t.time).toISOString(),
            change_24h_pct: t.change_24h_pct,
          };
          const second = Math.floor(this.#deps.now() / 1000);
          return this.#transport.publish('price', priceTopic(assetId), JSON.stringify(data), {
            key: `price:${assetId}:${second}`,
            ttlMs: 2_000,
          });
        })
        .catch(() => undefined)
        .finally(() => this.#pricing.delete(assetId));
    }
  }

  /** Whether an analysis of the last close is still awaited here (the ones waited for too long are dropped). */
  #awaiting(): boolean {
    if (this.#awaited.size === 0) return false;
    const now = performance.now();
    for (const [topic, until] of this.#awaited) if (until <= now) this.#awaited.delete(topic);
    return this.#awaited.size > 0;
  }

  /** Heartbeats, the retention window, and the credentials of open streams (one check per credential). */
  #housekeeping(): void {
    this.hub.prune(this.#deps.now());
    const byCredential = new Map<string, OpenStream[]>();
    for (const s of this.#streams) {
      s.stream.heartbeat();
      const list = byCredential.get(s.plan.credentialKey);
      if (list === undefined) byCredential.set(s.plan.credentialKey, [s]);
      else list.push(s);
    }
    if (this.#checking) return;
    this.#checking = true;
    void Promise.all(
      [...byCredential.values()].map(async (streams) => {
        let refusal: ErrorResponse | null;
        try {
          refusal = await streams[0].plan.check();
        } catch {
          return; // storage away: the stream goes on, checked again next tick
        }
        if (refusal === null) return;
        const frame = sseFrame('error', JSON.stringify(refusal));
        for (const s of streams) s.stream.finish(frame);
      }),
    ).finally(() => {
      this.#checking = false;
    });
  }
}

const LIVE = stateKey('live', (): { live: Live | null; options: Partial<LiveOptions> } => ({
  live: null,
  options: {},
}));

/** The app's live engine, made on first use. */
export function liveOf(deps: AppDeps): Live {
  const held = stateOf(deps, LIVE);
  if (held.live === null) {
    held.live = new Live(deps, { ...DEFAULT_LIVE_OPTIONS, ...deps.config.live, ...held.options });
  }
  return held.live;
}

/**
 * Sets the options of an app's live engine (over the defaults) before it is made: tests shorten
 * the periods. Refused once the engine exists, since its timers already run on the old values.
 */
export function configureLive(app: { state?: AppState }, options: Partial<LiveOptions>): void {
  const held = stateOf(app, LIVE);
  if (held.live !== null) throw new Error('the live engine already runs; configure it before the first stream');
  held.options = { ...held.options, ...options };
}

/** An app's live engine once made (by its first stream or event), else null: tests reach it by the app's state. */
export function liveIn(app: { state?: AppState }): Live | null {
  return stateOf(app, LIVE).live;
}

/**
 * Tells every stream of `userId` (on every instance) that an alert fired or a sync finished. Never
 * throws: a stream is a convenience beside the push and the stored state.
 */
export function publishUserEvent(deps: AppDeps, userId: string, type: 'alert' | 'sync', data: object): Promise<void> {
  return liveOf(deps)
    .publishUser(userId, type, JSON.stringify(data))
    .then(
      () => undefined,
      () => undefined,
    );
}
