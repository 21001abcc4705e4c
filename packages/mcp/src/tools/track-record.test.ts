import { OPERATIONS, type OperationInput, ServiceTrackRecordSchema } from '@marketlens/contract';
import { describe, expect, it } from 'vitest';
import type { TrackRecordData } from '../backend.js';
import { CATALOG } from '../catalog.js';
import { createRestBackend } from '../rest-backend.js';
import { render } from '../testing/render.js';

/**
 * What get_track_record's text says about the record it reads: made-up figures (three d1 coin plans,
 * their audit and a backtest of bitcoin), parsed by the operation's output schema. The tool over the
 * real use cases (which publish no plan on demand) is tested in `@marketlens/server`.
 */

/** When the fixtures were computed. */
const NOW = '2026-01-15T12:00:00.000Z';

/** No outcome of any kind. */
const NO_OUTCOMES = { pending: 0, entered: 0, tp_hit: 0, stopped_out: 0, time_stopped: 0, expired: 0 };

/** Figures of no plans. */
const NO_FIGURES: TrackRecordData['total'] = {
  plans: 0,
  counts: NO_OUTCOMES,
  resolved: 0,
  hit_rate: null,
  mean_realized_r: null,
  total_realized_r: 0,
  calibration: [0, 1, 2, 3, 4].map((i) => ({
    confidence_min: i / 5,
    confidence_max: (i + 1) / 5,
    plans: 0,
    resolved: 0,
    hits: 0,
    hit_rate: null,
    mean_confidence: null,
  })),
  first_published_at: null,
  last_published_at: null,
};

/** Three d1 coin plans: a hit (+2R, confidence 0.9), a stop (-1R, 0.7) and one pending (0.5). */
const TEST_FIGURES: TrackRecordData['total'] = {
  plans: 3,
  counts: { ...NO_OUTCOMES, pending: 1, tp_hit: 1, stopped_out: 1 },
  resolved: 2,
  hit_rate: 0.5,
  mean_realized_r: 0.5,
  total_realized_r: 1,
  calibration: NO_FIGURES.calibration.map((b, i) =>
    i === 2
      ? { ...b, plans: 1 }
      : i === 3
        ? { ...b, plans: 1, resolved: 1, hit_rate: 0, mean_confidence: 0.7 }
        : i === 4
          ? { ...b, plans: 1, resolved: 1, hits: 1, hit_rate: 1, mean_confidence: 0.9 }
          : b,
  ),
  first_published_at: '2026-01-10T00:00:00.000Z',
  last_published_at: '2026-01-14T00:00:00.000Z',
};

type Stats = TrackRecordData['live']['stats'];
type BacktestData = TrackRecordData['backtest'];

/** The audit of no resolved call. */
const NO_STATS: Stats = {
  count: 0,
  hits: 0,
  hit_rate: null,
  break_even_hit_rate: null,
  expected_r: null,
  realized_r: null,
  total_r: 0,
  max_drawdown_r: 0,
  from: null,
  to: null,
  level: 0.9,
};

/**
 * The audit of TEST_FIGURES' two resolved plans (core's recordStats): the hit (+2R, published at
 * 0.9, closed first) and the stop (-1R, at 0.7), break-even 0.35, expected 3p - 1.04 R each.
 */
const TEST_STATS: Stats = {
  count: 2,
  hits: 1,
  hit_rate: { mean: 0.5, low: 0.09730818173966327, high: 0.9026918182603367 },
  break_even_hit_rate: 0.35,
  expected_r: { mean: 1.36, low: null, high: null },
  realized_r: { mean: 0.5, low: -8.97062727204358, high: 9.97062727204358 },
  total_r: 1,
  max_drawdown_r: 1,
  from: '2026-01-10T00:00:00.000Z',
  to: '2026-01-13T00:00:00.000Z',
  level: 0.9,
};

/** The backtest of bitcoin on d1: 800 analyses, 3 calls, two resolved (+1.2R hit, -1.04R stop). */
const BACKTEST_STATS: Stats = {
  count: 2,
  hits: 1,
  hit_rate: { mean: 0.5, low: 0.09730818173966327, high: 0.9026918182603367 },
  break_even_hit_rate: 0.39,
  expected_r: { mean: 0.04, low: 0.0075, high: 0.075 },
  realized_r: { mean: 0.08, low: -6.991401696459206, high: 7.151401696459206 },
  total_r: 0.16,
  max_drawdown_r: 1.04,
  from: '2025-06-02T00:00:00.000Z',
  to: '2025-09-18T00:00:00.000Z',
  level: 0.9,
};

function backtestOf(any: boolean): BacktestData {
  const series = any
    ? [
        {
          asset_id: 'bitcoin',
          asset_class: 'coins' as const,
          timeframe: 'd1' as const,
          cost_pct: 0.22,
          candles: 1000,
          out_of_sample_since: '2010-03-23T00:00:00.000Z',
          analyses: 800,
          calls: 3,
          first_analysis_at: '2023-11-20T00:00:00.000Z',
          last_analysis_at: '2026-01-28T00:00:00.000Z',
          stats: BACKTEST_STATS,
          error: null,
        },
      ]
    : [];
  return {
    kind: 'backtest',
    label: any
      ? 'Backtest, not live trading: 3 of 800 analyses published a Buy or Sell (0.38%): almost every analysis is a Hold.'
      : 'Backtest, not live trading: no series matches.',
    status: 'ready',
    as_of: NOW,
    analyses: any ? 800 : 0,
    calls: any ? 3 : 0,
    call_share: any ? 3 / 800 : null,
    total: any ? BACKTEST_STATS : NO_STATS,
    series,
  };
}

export interface FakeCalls {
  [method: string]: unknown[];
}

/** The record for `filters`: the three plans where they match (d1 coins), none elsewhere. */
function recordOf(r: OperationInput<'analysis.trackRecord'>): TrackRecordData {
  const any = (r.timeframe === undefined || r.timeframe === 'd1') && (r.asset_class ?? 'coins') === 'coins';
  return {
    as_of: NOW,
    cost_pct: any || r.asset_class === 'coins' ? 0.22 : r.asset_class === 'fx' ? 0.012 : null,
    timeframe: r.timeframe ?? null,
    asset_class: r.asset_class ?? null,
    total: any ? TEST_FIGURES : NO_FIGURES,
    groups: any ? [{ timeframe: 'd1', asset_class: 'coins', cost_pct: 0.22, ...TEST_FIGURES }] : [],
    live: {
      kind: 'live',
      label: any
        ? 'Live: the plans the service published; 2 entered and closed.'
        : 'Live: none entered and closed yet.',
      stats: any ? TEST_STATS : NO_STATS,
    },
    backtest: backtestOf(any),
  };
}

describe('get_track_record', () => {
  it('is a read-only market tool whose output schema is the REST route’s', () => {
    const tool = CATALOG.find((t) => t.name === 'get_track_record');
    expect(tool?.operation).toBe('analysis.trackRecord');
    expect(tool?.output).toBe(ServiceTrackRecordSchema);
    expect(tool?.annotations.readOnlyHint).toBe(true);
    // Listed for a backend without a session's operations (every signed-in user may read it):
    // checked over the server's backend in @marketlens/server, src/mcp/mcp-tools.test.ts.
    expect(OPERATIONS['analysis.trackRecord'].caller).not.toBe('session');
  });

  it('answers the structured record and renders its figures', async () => {
    const r = await render('get_track_record', 'analysis.trackRecord', recordOf({}));
    expect(r.request).toEqual({});
    expect(r.data).toMatchObject({ timeframe: null, asset_class: null, total: { plans: 3, hit_rate: 0.5 } });
    expect(r.text).toContain('Track record of the published plans, after a 0.22% round-trip cost');
    expect(r.text).toContain(
      'All: 3 plans (pending 1, tp_hit 1, stopped_out 1); resolved 2, hit rate 50%, mean +0.5R (total +1R); published 2026-01-10 to 2026-01-14',
    );
    expect(r.text).toContain('0.8-1: hit rate 100% of 1 resolved (mean confidence 90%)');
    expect(r.text).toContain('- d1 coins (cost 0.22%): 3 plans');
    // The live audit, then the backtest beside it, labelled as one.
    expect(r.text).toContain(
      'Live audit: 2 resolved, hit rate 50% [10%, 90%] against a break-even of 35%; expected +1.36R, realized +0.5R [-8.97R, +9.97R] per call (90% intervals); max drawdown 1R; 2026-01-10 to 2026-01-13',
    );
    expect(r.text).toContain(
      'Backtest (simulated, not live trading; as of 2026-01-15T12:00:00.000Z): 3 calls in 800 analyses (0.38%); 2 resolved, hit rate 50% [10%, 90%] against a break-even of 39%; expected +0.04R [+0.01R, +0.07R], realized +0.08R',
    );
    expect(r.text).toContain('- backtest bitcoin d1 (cost 0.22%): 3 calls in 800 analyses; 2 resolved');
    expect(r.text.indexOf('Live audit')).toBeLessThan(r.text.indexOf('Backtest'));
    expect(r.data).toMatchObject({ live: { kind: 'live' }, backtest: { kind: 'backtest', status: 'ready' } });
  });

  it('says a pending backtest is pending, and an empty audit has nothing to score', async () => {
    const data = recordOf({ asset_class: 'fx' });
    const pending: TrackRecordData = {
      ...data,
      backtest: {
        ...data.backtest,
        status: 'pending',
        as_of: null,
        label: 'Backtest, not live trading: not run yet.',
      },
    };
    const r = await render('get_track_record', 'analysis.trackRecord', pending);
    expect(r.text).toContain('Live audit: no call entered and closed');
    expect(r.text).toContain('Backtest (pending): Backtest, not live trading: not run yet.');
  });

  it('passes the filters on in the REST spelling, and refuses invalid ones', async () => {
    const r = await render(
      'get_track_record',
      'analysis.trackRecord',
      recordOf({ timeframe: 'h1', asset_class: 'fx' }),
      {
        timeframe: '1h',
        asset_class: 'fx',
      },
    );
    expect(r.request).toEqual({ timeframe: 'h1', asset_class: 'fx' });
    expect(r.text).toContain('(h1 fx), after a 0.012% round-trip cost');
    expect(r.text).toContain('All: 0 plans; resolved 0, hit rate unavailable, mean unavailable (total 0R)');
    expect(r.text).not.toContain('published 2026');
    expect(r.text).not.toContain('Calibration');
    // refused by the tool's input schema, before the operation runs (the server answers InvalidRequest)
    const tool = CATALOG.find((t) => t.name === 'get_track_record');
    expect(tool?.input.safeParse({ asset_class: 'crypto' }).success).toBe(false);
  });
});

describe('the REST backend', () => {
  it('reads GET /v2/track-record with the filters it is given', async () => {
    const urls: string[] = [];
    const data = ServiceTrackRecordSchema.parse(recordOf({}));
    const fetch = (async (input: string | URL | Request) => {
      urls.push(String(input));
      return new Response(JSON.stringify({ code: 0, success: true, data, message: null }), { status: 200 });
    }) as typeof globalThis.fetch;
    const b = createRestBackend({ baseUrl: 'http://h:1', sessionToken: 'tok', fetch });
    expect((await b.run('analysis.trackRecord', {})).total.plans).toBe(3);
    await b.run('analysis.trackRecord', { timeframe: 'h4', asset_class: 'stocks' });
    expect(urls).toEqual(['http://h:1/v2/track-record', 'http://h:1/v2/track-record?timeframe=h4&asset_class=stocks']);
  });
});
