import type { PlanOutcome } from '@marketlens/core';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { beforeEach, describe, expect, it } from 'vitest';
import { type Harness, harness } from '../../../test/support/harness.js';
import { longPlan, planRow } from '../../../test/support/plans.js';
import { OPENAPI_PATH } from '../../app.js';
import { SERVICE_RECORD_TTL_MS } from '../plans/service-record.js';

const H = 3_600_000;
const T = Date.UTC(2026, 0, 10);

interface Figures {
  plans: number;
  counts: Record<PlanOutcome, number>;
  resolved: number;
  hit_rate: number | null;
  mean_realized_r: number | null;
  total_realized_r: number;
  calibration: {
    confidence_min: number;
    confidence_max: number;
    plans: number;
    resolved: number;
    hits: number;
    hit_rate: number | null;
    mean_confidence: number | null;
  }[];
  first_published_at: string | null;
  last_published_at: string | null;
}
interface Record_ {
  as_of: string;
  cost_pct: number | null;
  timeframe: string | null;
  asset_class: string | null;
  total: Figures;
  groups: (Figures & { timeframe: string; asset_class: string; cost_pct: number })[];
}
interface Body<T> {
  code: number | string;
  success: boolean;
  data: T;
  message: string | null;
}

/** The recorded plans, with outcomes known: [asset, timeframe, outcome, confidence, realized R, published hour]. */
const PLANS: [string, string, PlanOutcome, number, number | null, number][] = [
  ['bitcoin', 'h1', 'tp_hit', 0.9, 1.5, 1],
  ['bitcoin', 'h1', 'stopped_out', 0.7, -1, 2],
  ['bitcoin', 'h1', 'time_stopped', 0.3, 0.25, 3],
  ['bitcoin', 'h1', 'pending', 0.5, null, 30],
  ['ethereum', 'h1', 'entered', 0.45, null, 20],
  ['stock-aapl', 'd1', 'tp_hit', 0.65, 2, 0],
  ['stock-aapl', 'd1', 'expired', 0.1, null, 48],
  ['fx-eurusd', 'h1', 'stopped_out', 0.85, -1.1, 5],
];

const at = (hour: number) => new Date(T + hour * H).toISOString();
const zero = { pending: 0, entered: 0, tp_hit: 0, stopped_out: 0, time_stopped: 0, expired: 0 };
const bucket = (i: number, plans = 0, resolved = 0, hits = 0, meanConfidence: number | null = null) => ({
  confidence_min: i / 5,
  confidence_max: (i + 1) / 5,
  plans,
  resolved,
  hits,
  hit_rate: resolved === 0 ? null : hits / resolved,
  mean_confidence: meanConfidence,
});

let h: Harness;

async function record(plans = PLANS) {
  for (const [asset_id, timeframe, outcome, confidence, realized_r, hour] of plans) {
    const row = planRow(longPlan(T + hour * H), T + hour * H, { asset_id, timeframe, outcome, confidence, realized_r });
    expect(await h.storage.publishedPlans.record(row)).toBe(true);
  }
}

async function get(query = '', headers: Record<string, string> = {}) {
  const res = await h.request(`/v2/track-record${query}`, { headers });
  return { res, body: (await res.json()) as Body<Record_> };
}

beforeEach(async () => {
  h = harness();
  await record();
});

describe('GET /v2/track-record', () => {
  it('is public: answered without a credential, within the anonymous request budget', async () => {
    const { res, body } = await get();
    expect(res.status).toBe(200);
    expect(body).toMatchObject({ code: 0, success: true });
    expect(res.headers.get('x-ratelimit-limit')).not.toBeNull();
    expect(res.headers.get('cache-control')).toBe(`public, max-age=${SERVICE_RECORD_TTL_MS / 1000}`);
    // Credentials are not needed and not read; a bearer token reaches /mcp only, as everywhere.
    expect((await get('', { 'x-session-token': 'not-a-session' })).res.status).toBe(200);
    const bearer = await get('', { authorization: 'Bearer abc' });
    expect([bearer.res.status, bearer.body.code]).toEqual([401, 'BearerNotAccepted']);
  });

  it('groups the recorded plans by timeframe and asset class, figures computed by hand', async () => {
    const { data } = (await get()).body;
    expect(data.as_of).toBe(new Date(h.clock.now).toISOString());
    // Each class is scored with its own round trip, as its plans are published (core's COST_MODELS):
    // coins 0.22%, fx 0.012%, stocks 0.05%; the classes differ, so there is no one cost for the whole.
    expect([data.cost_pct, data.timeframe, data.asset_class]).toEqual([null, null, null]);
    expect(data.groups.map((g) => `${g.timeframe}/${g.asset_class}/${g.cost_pct}`)).toEqual([
      'h1/coins/0.22',
      'h1/fx/0.012',
      'd1/stocks/0.05',
    ]);
    const [coins, fx, stocks] = data.groups;

    // h1 coins: bitcoin tp_hit (0.9, +1.5R), stopped_out (0.7, -1R), time_stopped (0.3, +0.25R), pending (0.5); ethereum entered (0.45).
    expect(coins).toMatchObject({
      plans: 5,
      counts: { ...zero, tp_hit: 1, stopped_out: 1, time_stopped: 1, pending: 1, entered: 1 },
      resolved: 3,
      first_published_at: at(1),
      last_published_at: at(30),
    });
    expect(coins.hit_rate).toBeCloseTo(1 / 3, 12);
    expect(coins.mean_realized_r).toBeCloseTo((1.5 - 1 + 0.25) / 3, 12);
    expect(coins.total_realized_r).toBeCloseTo(0.75, 12);
    expect(coins.calibration).toEqual([
      bucket(0),
      bucket(1, 1, 1, 0, 0.3),
      bucket(2, 2, 0, 0),
      bucket(3, 1, 1, 0, 0.7),
      bucket(4, 1, 1, 1, 0.9),
    ]);

    expect(fx).toMatchObject({
      plans: 1,
      counts: { ...zero, stopped_out: 1 },
      resolved: 1,
      hit_rate: 0,
      mean_realized_r: -1.1,
      total_realized_r: -1.1,
      first_published_at: at(5),
      last_published_at: at(5),
    });
    expect(fx.calibration[4]).toEqual(bucket(4, 1, 1, 0, 0.85));

    expect(stocks).toMatchObject({
      plans: 2,
      counts: { ...zero, tp_hit: 1, expired: 1 },
      resolved: 1,
      hit_rate: 1,
      mean_realized_r: 2,
      total_realized_r: 2,
      first_published_at: at(0),
      last_published_at: at(48),
    });
    expect(stocks.calibration.map((b) => b.plans)).toEqual([1, 0, 0, 1, 0]);

    // Total: 8 plans; resolved 3 + 1 + 1 = 5, of which 2 tp_hit; R 1.5 - 1 + 0.25 - 1.1 + 2 = 1.65.
    expect(data.total).toMatchObject({
      plans: 8,
      counts: { pending: 1, entered: 1, tp_hit: 2, stopped_out: 2, time_stopped: 1, expired: 1 },
      resolved: 5,
      first_published_at: at(0),
      last_published_at: at(48),
    });
    expect(data.total.hit_rate).toBeCloseTo(2 / 5, 12);
    expect(data.total.mean_realized_r).toBeCloseTo(1.65 / 5, 12);
    expect(data.total.total_realized_r).toBeCloseTo(1.65, 12);
    expect(data.total.calibration.map((b) => [b.plans, b.resolved, b.hits])).toEqual([
      [1, 0, 0],
      [1, 1, 0],
      [2, 0, 0],
      [2, 2, 1],
      [2, 2, 1],
    ]);
    // Bucket [0.6, 0.8): 0.7 stopped out, 0.65 hit.
    expect(data.total.calibration[3].mean_confidence).toBeCloseTo((0.7 + 0.65) / 2, 12);
    expect(data.total.calibration[4].mean_confidence).toBeCloseTo((0.9 + 0.85) / 2, 12);
  });

  it('filters by timeframe and asset class', async () => {
    const h1 = (await get('?timeframe=h1')).body.data;
    expect(h1.timeframe).toBe('h1');
    expect(h1.groups.map((g) => g.asset_class)).toEqual(['coins', 'fx']);
    expect([h1.total.plans, h1.total.resolved]).toEqual([6, 4]);
    expect(h1.total.mean_realized_r).toBeCloseTo((1.5 - 1 + 0.25 - 1.1) / 4, 12);

    const stocks = (await get('?asset_class=stocks')).body.data;
    expect(stocks.asset_class).toBe('stocks');
    expect(stocks.cost_pct).toBe(0.05);
    expect(stocks.groups.map((g) => `${g.timeframe}/${g.asset_class}`)).toEqual(['d1/stocks']);
    expect(stocks.total.plans).toBe(2);

    const none = (await get('?timeframe=d1&asset_class=fx')).body.data;
    expect(none.groups).toEqual([]);
    expect(none.cost_pct).toBe(0.012);
    expect(none.total).toMatchObject({
      plans: 0,
      counts: zero,
      resolved: 0,
      hit_rate: null,
      mean_realized_r: null,
      total_realized_r: 0,
      first_published_at: null,
      last_published_at: null,
    });
    expect(none.total.calibration.every((b) => b.plans === 0 && b.hit_rate === null)).toBe(true);
  });

  it('refuses an invalid filter with 400 InvalidRequest', async () => {
    for (const query of ['?timeframe=h2', '?timeframe=1h', '?asset_class=crypto', '?asset_class=']) {
      const { res, body } = await get(query);
      expect([query, res.status, body.code, body.success]).toEqual([query, 400, 'InvalidRequest', false]);
    }
  });

  it('keeps the sums a minute', async () => {
    expect((await get()).body.data.total.plans).toBe(8);
    await record([['solana', 'h4', 'tp_hit', 0.6, 1, 60]]);
    h.clock.now += SERVICE_RECORD_TTL_MS - 1;
    expect((await get()).body.data.total.plans).toBe(8);
    h.clock.now += 1;
    const fresh = (await get()).body.data;
    expect(fresh.total.plans).toBe(9);
    expect(fresh.groups.map((g) => `${g.timeframe}/${g.asset_class}`)).toEqual([
      'h1/coins',
      'h1/fx',
      'h4/coins',
      'd1/stocks',
    ]);
  });

  it('answers what its OpenAPI document says, and the document explains the figures', async () => {
    const doc = (await (await h.request(OPENAPI_PATH)).json()) as {
      paths: Record<string, { get: { operationId: string; security: unknown[]; description: string; tags: string[] } }>;
    };
    const op = doc.paths['/v2/track-record'].get;
    expect(op.operationId).toBe('getServiceTrackRecord');
    expect(op.security).toEqual([]);
    expect(op.tags).toEqual(['Analysis']);
    expect(op.description).toContain('hit_rate');
    // The description said "a flat 0.20% round-trip cost" while every plan is scored with its asset
    // class's cost (issue 40); it now says so, and describes the live audit and the backtest beside it.
    expect(op.description).toContain("asset class's round-trip cost");
    for (const word of [
      'break_even_hit_rate',
      'max_drawdown_r',
      "kind: 'backtest'",
      'out_of_sample_since',
      'call_share',
    ]) {
      expect(op.description).toContain(word);
    }
    type Node = { $ref?: string; description?: string; properties?: Record<string, Node> };
    const schemas = (doc as unknown as { components: { schemas: Record<string, Node> } }).components.schemas;
    const deref = (n: Node | undefined): Node | undefined =>
      n?.$ref === undefined ? n : schemas[n.$ref.replace('#/components/schemas/', '')];
    const record = schemas.ServiceTrackRecord.properties ?? {};
    const described: [Node | undefined, readonly string[]][] = [
      [
        schemas.RecordStats,
        ['count', 'hit_rate', 'break_even_hit_rate', 'expected_r', 'realized_r', 'max_drawdown_r', 'from', 'to'],
      ],
      [deref(record.backtest), ['kind', 'label', 'status', 'as_of', 'calls', 'call_share', 'total', 'series']],
      [deref(record.live), ['kind', 'label']],
      [schemas.BacktestSeries, ['cost_pct', 'candles', 'out_of_sample_since', 'analyses', 'calls', 'error']],
    ];
    for (const [node, fields] of described) {
      for (const f of fields) {
        const field = node?.properties?.[f];
        expect(field?.description ?? deref(field)?.description, f).toBeTruthy();
      }
    }
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    const id = 'https://marketlens.local/openapi.json';
    ajv.addSchema({ ...doc, $id: id });
    const validate = ajv.compile({
      $ref: `${id}#/paths/~1v2~1track-record/get/responses/200/content/application~1json/schema`,
    });
    for (const query of ['', '?timeframe=d1&asset_class=fx']) {
      const { body } = await get(query);
      expect(validate(body), ajv.errorsText(validate.errors)).toBe(true);
    }
    const error = ajv.compile({ $ref: `${id}#/components/schemas/ErrorResponse` });
    expect(error((await get('?timeframe=h2')).body)).toBe(true);
  });
});

describe('the live audit of /v2/track-record', () => {
  it('audits the resolved plans: hit rate against break-even, expected against realized R, drawdown in closing order', async () => {
    h = harness();
    // longPlan: entry 100, stop 95 (risk 5), target 1 at 110, cost 0.2% (0.04 R): a win nets 1.96 R, a
    // loss costs 1.04 R, so the break-even probability is 1.04 / 3 and the expected R at p is 3p - 1.04.
    const resolved: [PlanOutcome, number, number, number][] = [
      // outcome, confidence, realized R, closing hour
      ['tp_hit', 0.9, 1.5, 10],
      ['stopped_out', 0.7, -1, 5],
      ['time_stopped', 0.3, 0.25, 8],
    ];
    for (const [k, [outcome, confidence, realized_r, closed]] of resolved.entries()) {
      const row = planRow(longPlan(T + k * H), T + k * H, {
        outcome,
        confidence,
        realized_r,
        closed_at: T + closed * H,
      });
      await h.storage.publishedPlans.record(row);
    }
    await h.storage.publishedPlans.record(planRow(longPlan(T + 4 * H), T + 4 * H, { outcome: 'pending' }));
    const live = (await get()).body.data as unknown as {
      live: { kind: string; label: string; stats: Record<string, unknown> & { expected_r: { mean: number } } };
    };
    expect(live.live.kind).toBe('live');
    expect(live.live.label).toContain('3 entered and closed');
    const s = live.live.stats;
    expect(s).toMatchObject({ count: 3, hits: 1, from: new Date(T).toISOString(), to: at(10), level: 0.9 });
    expect((s.hit_rate as { mean: number }).mean).toBeCloseTo(1 / 3, 12);
    expect(s.break_even_hit_rate).toBeCloseTo(1.04 / 3, 12);
    expect(s.expected_r.mean).toBeCloseTo(3 * ((0.9 + 0.7 + 0.3) / 3) - 1.04, 12);
    expect(s.expected_r).toMatchObject({ low: null, high: null });
    expect((s.realized_r as { mean: number }).mean).toBeCloseTo(0.75 / 3, 12);
    // closing order: -1 (hour 5), +0.25 (hour 8), +1.5 (hour 10): down 1 R from the start
    expect(s.max_drawdown_r).toBeCloseTo(1, 12);
    expect(s.total_r).toBeCloseTo(0.75, 12);
    // The backtest sits beside it, labelled, pending until its job runs (no job in this harness).
    expect((await get()).body.data).toMatchObject({ backtest: { kind: 'backtest', status: 'pending' } });
    // A filter with no plans audits nothing.
    const none = (await get('?asset_class=fx')).body.data as unknown as { live: { stats: { count: number } } };
    expect(none.live.stats.count).toBe(0);
  });

  it('states the expected R interval of plans published with their confidence interval', async () => {
    h = harness();
    // The same plan geometry: expected R at p is 3p - 1.04, so at an interval's ends 3 * low - 1.04
    // and 3 * high - 1.04; the record's ends are the means over the calls.
    const resolved: [PlanOutcome, number, number, number, number][] = [
      // outcome, confidence, its low and high end, realized R
      ['tp_hit', 0.5, 0.4, 0.6, 1.96],
      ['stopped_out', 0.45, 0.3, 0.55, -1.04],
    ];
    for (const [k, [outcome, confidence, low, high, realized_r]] of resolved.entries()) {
      const row = planRow(longPlan(T + k * H), T + k * H, {
        outcome,
        confidence,
        confidence_low: low,
        confidence_high: high,
        realized_r,
        closed_at: T + (k + 5) * H,
      });
      await h.storage.publishedPlans.record(row);
    }
    const s = ((await get()).body.data as unknown as { live: { stats: { expected_r: Record<string, number> } } }).live
      .stats;
    expect(s.expected_r.mean).toBeCloseTo(3 * ((0.5 + 0.45) / 2) - 1.04, 12);
    expect(s.expected_r.low).toBeCloseTo(3 * ((0.4 + 0.3) / 2) - 1.04, 12);
    expect(s.expected_r.high).toBeCloseTo(3 * ((0.6 + 0.55) / 2) - 1.04, 12);
    expect(s.expected_r.low).toBeLessThan(s.expected_r.mean);
    expect(s.expected_r.high).toBeGreaterThan(s.expected_r.mean);
  });
});

describe('GET /v2/analysis/{asset_id}/track-record', () => {
  it('gives the same figures for one asset and timeframe', async () => {
    const { token } = await h.signup();
    const res = await h.request('/v2/analysis/bitcoin/track-record?timeframe=d1', {
      headers: { 'x-session-token': token },
    });
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as Body<Figures & { recent: unknown[] }>;
    expect(data).toMatchObject({ plans: 0, resolved: 0, hit_rate: null, first_published_at: null, recent: [] });
    await record([['bitcoin', 'd1', 'stopped_out', 0.5, -1, 10]]);
    const again = (await (
      await h.request('/v2/analysis/bitcoin/track-record?timeframe=d1', { headers: { 'x-session-token': token } })
    ).json()) as Body<Figures & { recent: unknown[] }>;
    expect(again.data).toMatchObject({
      plans: 1,
      resolved: 1,
      hit_rate: 0,
      mean_realized_r: -1,
      last_published_at: at(10),
    });
    expect(again.data.recent).toHaveLength(1);
  });
});
