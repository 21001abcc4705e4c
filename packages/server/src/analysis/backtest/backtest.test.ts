import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BacktestRecord, ServiceTrackRecord } from '@marketlens/contract';
import {
  computeContext,
  outOfSampleSince,
  recordStats,
  SIGNAL_CALIBRATION,
  timeframeFamily,
  walkForward,
} from '@marketlens/core';
import { type MarketData, openMarket, parseSourceList, splitClosed } from '@marketlens/exchanges';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { createApp, OPENAPI_PATH } from '../../app.js';
import { DEFAULT_PILOT_CONFIG } from '../../pilot/config.js';
import { type AppDeps, DEFAULT_CONFIG, type ServerConfig } from '../../platform/deps.js';
import { InProcessJobs } from '../../platform/jobs/in-process.js';
import { observeJobs } from '../../platform/jobs/runner.js';
import { createSqliteStorage } from '../../storage/sqlite/sqlite-storage.js';
import { analyzeOptionsOf } from '../plan-costs.js';
import {
  BACKTEST_CANDLES,
  BACKTEST_JOB,
  backtestWire,
  latestBacktest,
  refreshBacktest,
  scheduleBacktest,
} from './backtest.js';

const DAY = 86_400_000;
const START = Date.UTC(2009, 5, 1);
const DAYS = 760;
/** After the last candle's close: every candle of the file is closed. */
const NOW = START + (DAYS + 2) * DAY;

/** A daily series that trends up and down in legs, with noise: a deterministic made-up stock. */
function candleRows(): string {
  const rows = ['time,open,high,low,close,volume'];
  let p = 50;
  let seed = 12345;
  const rand = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  for (let k = 0; k < DAYS; k++) {
    const drift = 0.004 * Math.sin(k / 45);
    const open = p;
    p = Math.max(1, p * (1 + drift + (rand() - 0.5) * 0.03));
    const high = Math.max(open, p) * (1 + rand() * 0.01);
    const low = Math.min(open, p) * (1 - rand() * 0.01);
    rows.push(`${START + k * DAY},${open},${high},${low},${p},${Math.round(1e5 + rand() * 1e5)}`);
  }
  return `${rows.join('\n')}\n`;
}

async function filesMarket(): Promise<{ dir: string; market: MarketData }> {
  const dir = mkdtempSync(join(tmpdir(), 'marketlens-backtest-'));
  mkdirSync(join(dir, 'stock-nvda'));
  writeFileSync(join(dir, 'stock-nvda', 'd1.csv'), candleRows());
  const market = await openMarket(parseSourceList(`files:${dir}`), { now: () => NOW });
  return { dir, market };
}

async function app(config: Partial<ServerConfig> = {}) {
  const { market } = await filesMarket();
  const deps: AppDeps = {
    storage: createSqliteStorage(':memory:'),
    // No pilot universe: the served series are the files' assets.
    config: { ...DEFAULT_CONFIG, pilot: { ...DEFAULT_PILOT_CONFIG, universe: [] }, ...config },
    now: () => NOW,
    market,
  };
  const server = createApp(deps, { logError: () => {} });
  const peer = { incoming: { socket: { remoteAddress: '203.0.113.9' } } };
  const get = async <T>(path: string, headers: Record<string, string> = {}) => {
    const res = await server.request(path, { headers }, peer);
    return {
      status: res.status,
      body: (await res.json()) as { code: number | string; data: T; message: string | null },
    };
  };
  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const init = {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    };
    return ((await (await server.request(path, init, peer)).json()) as { data: Record<string, unknown> }).data;
  };
  /** An API key of a new user, made through the app. */
  const apiKey = async () => {
    const signup = await post('/v1/auth/signup', { email: 'audit@example.com', password: 'password-123' });
    return String((await post('/v1/users/api_keys', {}, { 'x-session-token': String(signup.session_token) })).key);
  };
  return { deps, market, get, apiKey };
}

/** The record core computes on the same candles with the same options: what the job must publish. */
async function expected(deps: AppDeps, market: MarketData) {
  const read = await market.candles({ asset_id: 'stock-nvda', timeframe: 'd1', limit: BACKTEST_CANDLES + 1 });
  const { closed } = splitClosed(read.candles, 'd1', NOW, BACKTEST_CANDLES);
  const since = outOfSampleSince(SIGNAL_CALIBRATION, timeframeFamily(closed.time, closed.time.length - 1));
  const options = analyzeOptionsOf(
    deps.config.planCosts,
    { asset_class: 'stocks' },
    market.venue,
    deps.config.signalMinExpectedR,
  );
  const w = walkForward(computeContext(closed), { ...(since === null ? {} : { since }), analyze: options });
  return { closed, since, w, stats: recordStats(w.trades) };
}

describe('the backtest record on a files: market', () => {
  it('is pending before the job ran, then the walk-forward of the stored candles, out of sample, labelled', async () => {
    const { deps, market, get } = await app();
    const before = await get<ServiceTrackRecord>('/v2/track-record');
    expect(before.status).toBe(200);
    expect(before.body.data.backtest).toMatchObject({ kind: 'backtest', status: 'pending', as_of: null, series: [] });
    expect(before.body.data.backtest.label).toMatch(/^Backtest, not live trading/);
    expect(before.body.data.live).toMatchObject({ kind: 'live', stats: { count: 0, realized_r: null } });

    // The job, declared as the server declares it, runs once at once.
    const ended: string[] = [];
    const jobs = observeJobs(new InProcessJobs(), (run) => {
      ended.push(`${run.job}:${run.ok ? 'ok' : run.error}`);
    });
    await scheduleBacktest(deps, jobs, 3_600_000);
    await expect.poll(() => ended, { timeout: 60_000, interval: 50 }).toHaveLength(1);
    expect(ended).toEqual([`${BACKTEST_JOB}:ok`]);
    await jobs.close();

    const { data } = (await get<ServiceTrackRecord>('/v2/track-record')).body;
    const b = data.backtest;
    const want = await expected(deps, market);
    expect(want.since).not.toBeNull();
    expect(b).toMatchObject({ kind: 'backtest', status: 'ready', as_of: new Date(NOW).toISOString() });
    expect(b.series.map((s) => `${s.asset_id}/${s.timeframe}/${s.asset_class}`)).toEqual(['stock-nvda/d1/stocks']);
    const [s] = b.series;
    expect(s).toMatchObject({
      cost_pct: 0.05,
      candles: want.closed.time.length,
      out_of_sample_since: new Date(want.since ?? 0).toISOString(),
      analyses: want.w.analyses,
      calls: want.w.calls.length,
      error: null,
    });
    // Out of sample: no analysis of a candle inside the calibration's training window.
    expect(Date.parse(s.first_analysis_at ?? '')).toBeGreaterThanOrEqual(want.since ?? 0);
    expect(s.analyses).toBeGreaterThan(300);
    expect(s.stats.count).toBe(want.stats.count);
    expect(b.analyses).toBe(s.analyses);
    expect(b.call_share).toBeCloseTo(s.calls / s.analyses, 12);
    // Honest: the label states how many analyses published a call, however few.
    expect(b.label).toContain(`${s.calls} of ${s.analyses} analyses published a Buy or Sell`);
  });

  it('abandons a run under way when the process stops, keeping nothing and reporting no failure', async () => {
    const { deps, get } = await app();
    const ended: string[] = [];
    const jobs = observeJobs(new InProcessJobs(), (run) => ended.push(`${run.job}:${run.ok ? 'ok' : run.error}`));
    const backtest = await scheduleBacktest(deps, jobs, 3_600_000);
    // the first run has started (immediately) and yields after its first slice; stop it there
    backtest.stop();
    await jobs.close();
    expect(ended).toEqual([`${BACKTEST_JOB}:ok`]);
    expect((await get<ServiceTrackRecord>('/v2/track-record')).body.data.backtest.status).toBe('pending');
  });

  it('scores the calls it publishes with the figures core computes (the edge floor lowered by the operator)', async () => {
    const { deps, market, get } = await app({ signalMinExpectedR: -100 });
    await refreshBacktest(deps);
    const want = await expected(deps, market);
    expect(want.stats.count).toBeGreaterThan(3);
    const b = (await get<ServiceTrackRecord>('/v2/track-record')).body.data.backtest;
    const stats = b.series[0].stats;
    expect(stats.count).toBe(want.stats.count);
    expect(stats.hits).toBe(want.stats.hits);
    expect(stats.hit_rate?.mean).toBeCloseTo(want.stats.hit_rate?.mean ?? Number.NaN, 12);
    expect(stats.break_even_hit_rate).toBeCloseTo(want.stats.break_even_hit_rate ?? Number.NaN, 12);
    expect(stats.expected_r?.mean).toBeCloseTo(want.stats.expected_r?.mean ?? Number.NaN, 12);
    expect(stats.realized_r?.low).toBeCloseTo(want.stats.realized_r?.low ?? Number.NaN, 12);
    expect(stats.realized_r?.high).toBeCloseTo(want.stats.realized_r?.high ?? Number.NaN, 12);
    expect(stats.max_drawdown_r).toBeCloseTo(want.stats.max_drawdown_r, 12);
    expect(stats.from).toBe(new Date(want.stats.from ?? 0).toISOString());
    expect(stats.to).toBe(new Date(want.stats.to ?? 0).toISOString());
    expect(b.total).toEqual(stats);
    expect(b.label).toMatch(/resolved: hit rate .* against a break-even of .*; realized .* R per call \[/);

    // The filters narrow the backtest as they narrow the live record.
    const h1 = (await get<ServiceTrackRecord>('/v2/track-record?timeframe=h1')).body.data.backtest;
    expect([h1.series, h1.analyses, h1.total.count, h1.call_share]).toEqual([[], 0, 0, null]);
    expect(h1.label).toContain('No series here');
    const coins = (await get<ServiceTrackRecord>('/v2/track-record?asset_class=coins')).body.data.backtest;
    expect(coins.series).toEqual([]);
    expect(
      (await get<ServiceTrackRecord>('/v2/track-record?asset_class=stocks')).body.data.backtest.series,
    ).toHaveLength(1);
    const bad = await get('/v2/track-record?timeframe=y1');
    expect([bad.status, bad.body.code]).toEqual([400, 'InvalidRequest']);
  });

  it("shows an asset's own series on its track record; an unknown asset or a gated timeframe is an ErrorResponse", async () => {
    const { deps, get, apiKey } = await app({ signalMinExpectedR: -100 });
    await refreshBacktest(deps);
    const key = await apiKey();
    const own = await get<{ backtest: BacktestRecord; live: { kind: string } }>(
      '/v2/analysis/stock-nvda/track-record?timeframe=d1',
      { 'x-api-key': key },
    );
    expect(own.status).toBe(200);
    expect(own.body.data.live.kind).toBe('live');
    expect(own.body.data.backtest.series.map((s) => s.asset_id)).toEqual(['stock-nvda']);
    expect(own.body.data.backtest).toEqual(
      backtestWire(await latestBacktest(deps), { asset_id: 'stock-nvda', timeframe: 'd1' }),
    );
    // Both answers, with a walked series, are what the OpenAPI document says.
    const doc = (await get<unknown>(OPENAPI_PATH)).body as unknown as Record<string, unknown>;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ ...doc, $id: 'https://marketlens.local/openapi.json' });
    const responseOf = (path: string) =>
      ajv.compile({
        $ref: `https://marketlens.local/openapi.json#/paths/${path.replaceAll('/', '~1')}/get/responses/200/content/application~1json/schema`,
      });
    const perAsset = responseOf('/v2/analysis/{asset_id}/track-record');
    expect(perAsset(own.body), ajv.errorsText(perAsset.errors)).toBe(true);
    const service = responseOf('/v2/track-record');
    const all = (await get<ServiceTrackRecord>('/v2/track-record')).body;
    expect(all.data.backtest.series.length).toBe(1);
    expect(service(all), ajv.errorsText(service.errors)).toBe(true);
    const unknown = await get('/v2/analysis/no-such-asset/track-record', { 'x-api-key': key });
    expect([unknown.status, unknown.body.code]).toEqual([400, 'UnknownAsset']);
    expect(typeof unknown.body.message).toBe('string');
    const gated = await get('/v2/analysis/stock-nvda/track-record?timeframe=h1', { 'x-api-key': key });
    expect([gated.status, gated.body.code]).toEqual([402, 1004]);
  });
});
