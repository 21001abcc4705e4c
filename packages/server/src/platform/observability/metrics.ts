import type { MiddlewareHandler } from 'hono';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { routeLabel } from './route.js';

/** How an upstream call ended (the outcomes the exchanges' source guard reports). */
export type UpstreamOutcome = 'ok' | 'error' | 'timeout' | 'rejected';

/** How a cache answered: fresh, absent, or present but past its freshness. */
export type CacheResult = 'hit' | 'miss' | 'stale';

/** Seconds; request buckets span a cached answer (1 ms) to a slow venue read (10 s). */
export const REQUEST_BUCKETS: readonly number[] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10];
/** Seconds; upstream buckets span a local read (10 ms) to a venue timeout (30 s). */
export const UPSTREAM_BUCKETS: readonly number[] = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** A PostgreSQL pool's state at one moment. */
export interface PoolSample {
  inUse: number;
  idle: number;
  waiting: number;
}

/** The server's metrics and the helpers the rest of the code records them with. */
export interface Metrics {
  /** The registry all of them are on (this server's own, never prom-client's global one). */
  readonly registry: Registry;
  /** One answered request: `route` is the registered pattern, never the raw path. */
  request(method: string, route: string, status: number, seconds: number): void;
  /** One call to an upstream source (a venue, a news feed, the LLM). */
  upstream(source: string, outcome: UpstreamOutcome, seconds: number): void;
  /** One cache lookup. */
  cache(cache: string, result: CacheResult): void;
  /** How many items a background job has waiting now. */
  backlog(job: string, n: number): void;
  /** One ended run of a background job in this process. */
  jobRun(job: string, ok: boolean, seconds: number, endedAtMs: number): void;
  /** One check of a repeatable job's schedule: whether it is missing now, and whether this process re-created it. */
  jobSchedule(job: string, missing: boolean, recreated: boolean): void;
  /** Reads the PostgreSQL pool (connections in use, idle, and queries waiting for one) at every scrape. */
  watchPool(read: () => PoolSample): void;
  /** Whether Redis answered the last health check (1) or not (0), and how long it took. */
  redis(up: boolean, seconds: number): void;
}

type RequestLabel = 'method' | 'route' | 'status';

/** One request series: its labels, made once, and its running totals. */
interface RequestSeries {
  labels: Record<RequestLabel, string>;
  count: number;
  sum: number;
  /** Requests per bucket of {@link REQUEST_BUCKETS} (not cumulative); the last slot is above them all. */
  buckets: Float64Array;
}

/** One cache series: its labels and its count. */
interface CacheSeries {
  labels: Record<'cache' | 'result', string>;
  count: number;
}

/**
 * The server's Prometheus metrics on a registry of their own: `http_requests_total` and
 * `http_request_duration_seconds` {method, route, status}; `upstream_calls_total` {source,
 * outcome} and `upstream_call_duration_seconds` {source}; `cache_requests_total` {cache, result};
 * `job_backlog` {job}; `jobs_run_total`, `jobs_failed_total`, `jobs_last_run_timestamp_seconds`,
 * `jobs_last_run_duration_seconds`, `jobs_schedule_missing` and `jobs_schedule_recreated_total`
 * {job}; `db_pool_connections` {state: in_use, idle, waiting}; `redis_up` and
 * `redis_ping_seconds`; and prom-client's default process metrics (CPU, memory, event loop lag,
 * handles, GC). One per process: each collects the process metrics.
 *
 * Requests and cache lookups, which happen on every request, are counted in plain tables
 * (three Map lookups and a few additions, nothing allocated once a series exists) and handed to
 * prom-client when scraped: prom-client's own `inc` and `observe` build a label key string and
 * several objects per call (measured here: 1.2 us a request for the pair, about 4% of a bare
 * hono request).
 */
export function createMetrics(): Metrics {
  const registry = new Registry();
  const registers = [registry];
  collectDefaultMetrics({ register: registry });

  // route -> method -> status -> series. Routes are registered patterns, so this stays small.
  const requestTable = new Map<string, Map<string, Map<number, RequestSeries>>>();
  const requestSeries = function* (): Generator<RequestSeries> {
    for (const byMethod of requestTable.values()) for (const byStatus of byMethod.values()) yield* byStatus.values();
  };
  const cacheTable = new Map<string, Map<string, CacheSeries>>();

  new Counter<RequestLabel>({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'],
    registers,
    collect() {
      this.reset();
      for (const s of requestSeries()) this.inc(s.labels, s.count);
    },
  });
  new RequestDurationHistogram(requestSeries, registers);
  const upstreamCalls = new Counter<'source' | 'outcome'>({
    name: 'upstream_calls_total',
    help: 'Calls to upstream sources, by source and outcome (ok, error, timeout, rejected).',
    labelNames: ['source', 'outcome'],
    registers,
  });
  const upstreamSeconds = new Histogram<'source'>({
    name: 'upstream_call_duration_seconds',
    help: 'Duration of calls to upstream sources, by source.',
    labelNames: ['source'],
    buckets: [...UPSTREAM_BUCKETS],
    registers,
  });
  new Counter<'cache' | 'result'>({
    name: 'cache_requests_total',
    help: 'Cache lookups, by cache and result (hit, miss, stale).',
    labelNames: ['cache', 'result'],
    registers,
    collect() {
      this.reset();
      for (const byResult of cacheTable.values()) for (const s of byResult.values()) this.inc(s.labels, s.count);
    },
  });
  // The job metrics: one label (`job`) each, in the order they are scraped.
  const jobGauge = (name: string, help: string) => new Gauge<'job'>({ name, help, labelNames: ['job'], registers });
  const jobCounter = (name: string, help: string) => new Counter<'job'>({ name, help, labelNames: ['job'], registers });
  const backlog = jobGauge('job_backlog', 'Items a background job has waiting, by job.');
  const jobRuns = jobCounter(
    'jobs_run_total',
    'Runs of a background job that ended in this process (succeeded or failed), by job.',
  );
  const jobFailures = jobCounter('jobs_failed_total', 'Runs of a background job that failed in this process, by job.');
  const jobLastRun = jobGauge(
    'jobs_last_run_timestamp_seconds',
    'When the last run of a background job ended in this process (Unix seconds), by job.',
  );
  const jobLastDuration = jobGauge(
    'jobs_last_run_duration_seconds',
    'How long the last run of a background job took in this process, by job.',
  );
  const scheduleMissing = jobGauge(
    'jobs_schedule_missing',
    "1 while a repeatable job's schedule was found missing from Redis and not yet re-created, else 0, by job.",
  );
  const scheduleRecreated = jobCounter(
    'jobs_schedule_recreated_total',
    "Times this process found a repeatable job's schedule missing and re-created it, by job.",
  );
  let readPool: (() => PoolSample) | null = null;
  new Gauge<'state'>({
    name: 'db_pool_connections',
    help: 'PostgreSQL pool of this process: connections in use, idle, and queries waiting for one (state).',
    labelNames: ['state'],
    registers,
    collect() {
      if (readPool === null) return;
      const p = readPool();
      this.set({ state: 'in_use' }, p.inUse);
      this.set({ state: 'idle' }, p.idle);
      this.set({ state: 'waiting' }, p.waiting);
    },
  });
  const redisUp = new Gauge({
    name: 'redis_up',
    help: 'Whether Redis answered the last health check (PING) of this process: 1 or 0.',
    registers,
  });
  const redisPing = new Gauge({
    name: 'redis_ping_seconds',
    help: 'How long the last Redis health check (PING) took, or until it failed.',
    registers,
  });

  return {
    registry,
    request(method, route, status, seconds) {
      let byMethod = requestTable.get(route);
      if (byMethod === undefined) {
        byMethod = new Map();
        requestTable.set(route, byMethod);
      }
      let byStatus = byMethod.get(method);
      if (byStatus === undefined) {
        byStatus = new Map();
        byMethod.set(method, byStatus);
      }
      let s = byStatus.get(status);
      if (s === undefined) {
        const labels = { method, route, status: String(status) };
        s = { labels, count: 0, sum: 0, buckets: new Float64Array(REQUEST_BUCKETS.length + 1) };
        byStatus.set(status, s);
      }
      let i = 0;
      while (i < REQUEST_BUCKETS.length && seconds > REQUEST_BUCKETS[i]) i++;
      s.buckets[i]++;
      s.count++;
      s.sum += seconds;
    },
    upstream(source, outcome, seconds) {
      upstreamCalls.inc({ source, outcome });
      upstreamSeconds.observe({ source }, seconds);
    },
    cache(cache, result) {
      let byResult = cacheTable.get(cache);
      if (byResult === undefined) {
        byResult = new Map();
        cacheTable.set(cache, byResult);
      }
      let s = byResult.get(result);
      if (s === undefined) {
        s = { labels: { cache, result }, count: 0 };
        byResult.set(result, s);
      }
      s.count++;
    },
    backlog(job, n) {
      backlog.set({ job }, n);
    },
    jobRun(job, ok, seconds, endedAtMs) {
      jobRuns.inc({ job });
      if (!ok) jobFailures.inc({ job });
      jobLastRun.set({ job }, endedAtMs / 1000);
      jobLastDuration.set({ job }, seconds);
    },
    jobSchedule(job, missing, recreated) {
      scheduleMissing.set({ job }, missing ? 1 : 0);
      if (recreated) scheduleRecreated.inc({ job });
    },
    watchPool(read) {
      readPool = read;
    },
    redis(up, seconds) {
      redisUp.set(up ? 1 : 0);
      redisPing.set(seconds);
    },
  };
}

type HistogramData = Awaited<ReturnType<Histogram<RequestLabel | 'le'>['get']>>;

const DURATION_NAME = 'http_request_duration_seconds';
const DURATION_HELP = 'Time from a request reaching its route to its response, by method, route pattern and status.';

/**
 * `http_request_duration_seconds`, read from the request table when scraped. prom-client has no
 * call that sets a histogram's buckets, so this one answers `get()` itself, in the shape every
 * prom-client metric answers it.
 */
class RequestDurationHistogram extends Histogram<RequestLabel | 'le'> {
  readonly #series: () => Iterable<RequestSeries>;

  constructor(series: () => Iterable<RequestSeries>, registers: Registry[]) {
    super({
      name: DURATION_NAME,
      help: DURATION_HELP,
      labelNames: ['method', 'route', 'status'],
      buckets: [...REQUEST_BUCKETS],
      registers,
    });
    this.#series = series;
  }

  override async get(): Promise<HistogramData> {
    const values: HistogramData['values'] = [];
    for (const s of this.#series()) {
      let cumulative = 0;
      for (let i = 0; i < REQUEST_BUCKETS.length; i++) {
        cumulative += s.buckets[i];
        values.push({
          labels: { ...s.labels, le: REQUEST_BUCKETS[i] },
          value: cumulative,
          metricName: `${DURATION_NAME}_bucket`,
        });
      }
      values.push({ labels: { ...s.labels, le: '+Inf' }, value: s.count, metricName: `${DURATION_NAME}_bucket` });
      values.push({ labels: s.labels, value: s.sum, metricName: `${DURATION_NAME}_sum` });
      values.push({ labels: s.labels, value: s.count, metricName: `${DURATION_NAME}_count` });
    }
    // prom-client's typings describe `type` as a numeric enum (and a `collect` member) that its
    // metrics do not have at run time: they answer `type: 'histogram'`, as this does.
    const data = { name: DURATION_NAME, help: DURATION_HELP, type: 'histogram', values, aggregator: 'sum' };
    return data as unknown as HistogramData;
  }

  /** The registry renders a histogram through this method when it exists (prom-client's reads state this class does not keep). */
  getForPromString(): Promise<HistogramData> {
    return this.get();
  }
}

/**
 * Records every request into `metrics` (count and duration, by method, route pattern and
 * status). Register it early (after `requestLog`), so the duration covers the layers after it.
 * A middleware layer makes every request asynchronous (see `requestLog`); the marketlens app
 * records through `observeRequests` instead.
 */
export function metricsMiddleware(metrics: Metrics): MiddlewareHandler {
  return async (c, next) => {
    const start = performance.now();
    await next();
    metrics.request(c.req.method, routeLabel(c), c.res.status, (performance.now() - start) / 1000);
  };
}
