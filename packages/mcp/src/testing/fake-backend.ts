/**
 * TEST FIXTURES ONLY: a `Backend` over made-up data for the catalog's unit tests. Nothing here is
 * market data; prices are round numbers chosen to make rendered text easy to check.
 */

import type { OperationId, OperationInput, OperationOutput } from '@marketlens/contract';
import type {
  AlertWebhook,
  AnalysisRequest,
  AssetRef,
  Backend,
  FearGreed,
  MarketTicker,
  OperationRunner,
  PilotTrade,
  Served,
  Signal,
  TrackRecordData,
} from '../backend.js';
import { ToolError } from '../errors.js';

/** The fake's answer to each operation it runs; a test may leave one out or replace one. */
export type FakeOperations = {
  [K in OperationId]?: (input: OperationInput<K>) => Promise<OperationOutput<K>>;
};

/** A backend over `operations`: it runs those of them `runs` lets through (default: all). */
export function backendOf(operations: FakeOperations, runs: (id: OperationId) => boolean = () => true): Backend {
  const can = (id: OperationId) => operations[id] !== undefined && runs(id);
  const run = (async (id: OperationId, input: unknown) => {
    const fn = operations[id] as ((input: unknown) => Promise<unknown>) | undefined;
    if (fn === undefined || !can(id)) throw new ToolError('NotFound', `${id} is not run by this fake`);
    return fn(input);
  }) as OperationRunner;
  return { run, runs: can };
}

/** A one-pixel SVG: icons are data URIs on the wire, never remote URLs. */
const TEST_ICON = 'data:image/svg+xml,%3Csvg%20xmlns%3D%22http%3A%2F%2Fwww.w3.org%2F2000%2Fsvg%22%2F%3E';

export const TEST_BTC: AssetRef = {
  id: 'bitcoin',
  symbol: 'BTC',
  name: 'Bitcoin',
  icon: TEST_ICON,
  asset_class: 'coins',
};

/** Open time of the closed d1 candle every market fixture is computed at (the live one opens a day later). */
const AS_OF = '2026-01-15T00:00:00.000Z';
/** When the fixtures were read or computed. */
const NOW = '2026-01-15T12:00:00.000Z';

const served = (r: AnalysisRequest): Served => ({
  asset: TEST_BTC,
  timeframe: r.timeframe,
  market_type: 'spot',
  pair: 'BTC/USDT',
  venue: 'test-venue',
  data_source: 'simulated',
  fetched_at: NOW,
  stale: false,
});

/** A BUY whose factor contributions (score x weight) add up to its score. */
const BUY_SIGNAL: Signal = {
  action: 'buy',
  score: 0.4,
  confidence: 0.31,
  raw_confidence: 0.72,
  base_rate: 0.24,
  factors: [
    {
      name: 'trend',
      score: 0.8,
      weight: 0.3,
      base_weight: 0.3,
      contribution: 0.24,
      inputs: { adx_14: 28, ema_50: 101 },
    },
    { name: 'momentum', score: 0.5, weight: 0.2, base_weight: 0.2, contribution: 0.1, inputs: { rsi_14: 61.2 } },
    { name: 'sentiment', score: 0.2, weight: 0.2, base_weight: 0.2, contribution: 0.04, inputs: { fear_greed: 64 } },
    { name: 'breakout', score: 0.1, weight: 0.1, base_weight: 0.1, contribution: 0.01, inputs: { breakout: null } },
    { name: 'risk', score: 0.1, weight: 0.1, base_weight: 0.1, contribution: 0.01, inputs: { atr_pct: 3.64 } },
    { name: 'cycle_phase', score: 0, weight: 0.1, base_weight: 0.1, contribution: 0, inputs: { phase: 'markup' } },
  ],
  weights: { trend: 0.3, momentum: 0.2, sentiment: 0.2, breakout: 0.1, risk: 0.1, cycle_phase: 0.1 },
  threshold: 0.25,
  // 0.31 * 3 - 0.69 * 1 = 0.24 R; at the interval's ends 0.27 and 0.35: 0.08 and 0.40 R
  edge: {
    probability: 0.31,
    probability_low: 0.27,
    probability_high: 0.35,
    break_even: 0.25,
    win_r: 3,
    loss_r: 1,
    expected_r: 0.24,
    expected_r_low: 0.08,
    expected_r_high: 0.4,
    level: 0.9,
  },
  declined_plan: null,
};

const HOLD_SIGNAL: Signal = {
  action: 'hold',
  score: 0.01,
  confidence: 0.76,
  raw_confidence: 0.3,
  base_rate: 0.24,
  factors: [
    { name: 'trend', score: 0.05, weight: 0.5, base_weight: 0.3, contribution: 0.025, inputs: { adx_14: 14 } },
    { name: 'momentum', score: -0.03, weight: 0.5, base_weight: 0.2, contribution: -0.015, inputs: { rsi_14: 49.5 } },
  ],
  weights: { trend: 0.5, momentum: 0.5 },
  threshold: 0.25,
  edge: null,
  declined_plan: null,
};

/** Greed, 64 = the weighted mean of the two components the candles allow. */
const TEST_FEAR_GREED: FearGreed = {
  score: 64,
  zone: 'greed',
  components: [
    { name: 'momentum', value: 70, weight: 0.5, base_weight: 0.25, inputs: { rsi_14: 61.2 } },
    { name: 'volatility', value: 58, weight: 0.5, base_weight: 0.25, inputs: { atr_pct: 3.64 } },
  ],
  unavailable: [
    { name: 'funding', reason: 'not_supplied' },
    { name: 'breadth', reason: 'not_supplied' },
  ],
};

/** The spot and perpetual tickers of BTC on the test venue; the spot row carries null funding columns. */
const TEST_TICKERS: MarketTicker[] = [
  {
    venue: 'test-venue',
    pair: 'BTC/USDT',
    asset_id: 'bitcoin',
    market_type: 'spot',
    base: 'BTC',
    quote: 'USDT',
    last: 110,
    bid: 109.9,
    ask: 110.1,
    change_1h_pct: 0.2,
    change_24h_pct: 1,
    change_7d_pct: 4.5,
    volume_24h: 9100,
    quote_volume_usd: 1e6,
    time: NOW,
    settle: null,
    funding_rate: null,
    funding_interval_hours: null,
    next_funding_time: null,
    mark_price: null,
    index_price: null,
  },
  {
    venue: 'test-venue',
    pair: 'BTC/USDT:USDT',
    asset_id: 'bitcoin',
    market_type: 'derivatives',
    base: 'BTC',
    quote: 'USDT',
    last: 110.5,
    bid: 110.4,
    ask: 110.6,
    change_1h_pct: null,
    change_24h_pct: null,
    change_7d_pct: null,
    volume_24h: null,
    quote_volume_usd: null,
    time: NOW,
    settle: 'USDT',
    funding_rate: 0.0001,
    funding_interval_hours: 8,
    next_funding_time: '2026-01-15T16:00:00.000Z',
    mark_price: 110.5,
    index_price: 110.4,
  },
];

/** The pilot's first trade: a BTC long stopped out at -1R (16% of margin lost, costs included). */
const TEST_PILOT_LOSS: PilotTrade = {
  trade_index: 1,
  asset_id: 'bitcoin',
  asset: TEST_BTC,
  side: 'long',
  timeframe: 'd1',
  pair: 'BTC/USDT:USDT',
  outcome: 'stopped_out',
  opened_at: '2026-01-02T00:00:00.000Z',
  closed_at: '2026-01-04T00:00:00.000Z',
  entry_price: 100,
  exit_price: 97,
  stop_loss: 97,
  take_profit: 106,
  take_profits: [
    { price: 106, size_pct: 70 },
    { price: 109, size_pct: 30 },
  ],
  quantity: 2.5,
  margin_usd: 50,
  leverage: 5,
  realized_r: -1,
  pnl_usd: -8,
  return_on_margin_pct: -16,
  legs: [
    { target: 1, size_pct: 70, exit: 'stop', exit_price: 97, exit_at: '2026-01-04T00:00:00.000Z' },
    { target: 2, size_pct: 30, exit: 'stop', exit_price: 97, exit_at: '2026-01-04T00:00:00.000Z' },
  ],
};

/** A closed short of an asset outside the coin universe (no `asset`): target 1 hit, then the rest at 95 too. */
const TEST_PILOT_TRADE: PilotTrade = {
  trade_index: 2,
  asset_id: 'oddcoin',
  side: 'short',
  timeframe: 'd1',
  pair: 'ODD/USDT:USDT',
  outcome: 'tp_hit',
  opened_at: '2026-01-05T00:00:00.000Z',
  closed_at: '2026-01-08T00:00:00.000Z',
  entry_price: 100,
  exit_price: 95,
  stop_loss: 104,
  take_profit: 95,
  take_profits: [{ price: 95, size_pct: 100 }],
  quantity: 2.5,
  margin_usd: 50,
  leverage: 5,
  realized_r: 1.25,
  pnl_usd: 12,
  return_on_margin_pct: 24,
  legs: [{ target: 1, size_pct: 100, exit: 'target', exit_price: 95, exit_at: '2026-01-08T00:00:00.000Z' }],
};

/** Calls the fake saw, for assertions on what the tools pass down. */
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

/** A backend of test fixtures; `calls` records each operation's input, by operation id. */
export function fakeBackend(): {
  backend: Backend;
  operations: FakeOperations;
  calls: FakeCalls;
} {
  const calls: FakeCalls = {};
  const record = (name: string, arg: unknown) => {
    calls[name] = [...(calls[name] ?? []), arg];
  };

  const market = {
    async 'analysis.get'(r) {
      record('analysis.get', r);
      if (r.asset_id === 'nope') throw new ToolError('UnknownAsset', "Unknown asset 'nope'");
      if (r.timeframe !== 'd1') throw new ToolError(1004, `Timeframe ${r.timeframe} requires Pro`);
      const support = {
        kind: 'support' as const,
        low: 100,
        high: 102,
        mid: 101,
        strength: 0.8,
        touches: 3,
        last_touch_index: r.limit - 10,
        last_touch_time: '2026-01-05T00:00:00.000Z',
        volume: 3600,
        sources: ['swing' as const],
        timeframe: 'd1',
      };
      return {
        ...served(r),
        as_of: AS_OF,
        as_of_index: r.limit - 1,
        indicators: {
          close: 110,
          change_pct: 1.5,
          volume: 1200,
          volume_z: 0.4,
          volume_ratio: 1.1,
          sma_20: 106,
          sma_50: 100,
          sma_200: 90,
          ema_20: 106.5,
          ema_50: 101,
          ema_200: 92,
          rsi_14: 61.2,
          macd: 1.8,
          macd_signal: 1.2,
          macd_histogram: 0.6,
          stoch_k: 72,
          stoch_d: 68,
          adx_14: 28,
          plus_di_14: 27,
          minus_di_14: 14,
          atr_14: 4,
          atr_pct: 3.64,
          cci_20: 110,
          williams_r_14: -22,
        },
        levels: {
          as_of_index: r.limit - 1,
          as_of_time: AS_OF,
          mark: 110,
          atr: 4,
          zones: [support],
          inside: null,
          nearest_support: { ...support, distance_pct: -8.1, distance_atr: -2.25 },
          nearest_resistance: null,
          range: {
            all_time_high: 131,
            all_time_high_time: '2025-11-20T00:00:00.000Z',
            all_time_low: 82,
            all_time_low_time: '2025-03-02T00:00:00.000Z',
            high_52w: 131,
            low_52w: 82,
            candles: r.limit,
          },
          at_all_time_high: false,
          at_all_time_low: false,
          timeframe: 'd1',
          higher_timeframe: 'w1',
        },
        volume_profile: {
          poc: 104,
          value_area_low: 99,
          value_area_high: 112,
          total_volume: 50_000,
          basis: 'volume',
          bins: [
            { low: 96, high: 104, volume: 30_000 },
            { low: 104, high: 112, volume: 20_000 },
          ],
        },
        zone: {
          direction: 'long',
          bias: 'long',
          reason: null,
          published_index: r.limit - 1,
          published_time: AS_OF,
          mark: 110,
          atr: 4,
          entry_type: 'limit',
          entry_zone: { low: 100, high: 102 },
          entry_price: 101,
          invalidation: 97,
          stop_loss: 96,
          take_profits: [
            { price: 115, size_pct: 70, risk_reward: 2.8, risk_reward_net: 2.64 },
            { price: 120, size_pct: 30, risk_reward: 3.8, risk_reward_net: 3.6 },
          ],
          risk_pct: 5,
          cost_pct: 0.22,
          horizon_bars: 20,
          entry_window_bars: 5,
        },
        signal: BUY_SIGNAL,
        technical_rating: {
          value: 0.4,
          rating: 'buy',
          moving_averages: {
            value: 0.6,
            rating: 'buy',
            buy: 2,
            neutral: 0,
            sell: 0,
            votes: [
              { name: 'sma_20', value: 106, vote: 1 },
              { name: 'ema_50', value: 101, vote: 1 },
            ],
          },
          oscillators: {
            value: 0.2,
            rating: 'neutral',
            buy: 1,
            neutral: 1,
            sell: 0,
            votes: [
              { name: 'rsi_14', value: 61.2, vote: 0 },
              { name: 'macd', value: 1.8, vote: 1 },
            ],
          },
        },
        fear_greed: TEST_FEAR_GREED,
        regime: {
          phase: 'markup',
          previous_phase: 'accumulation',
          since: '2026-01-05T00:00:00.000Z',
          bars_in_phase: 11,
          strength: 0.6,
          transition: { from: 'accumulation', to: 'markup', time: '2026-01-05T00:00:00.000Z', bars_ago: 10 },
          changed: false,
          structure: 'up',
          inputs: {
            ema_50: 101,
            atr_14: 4,
            efficiency_ratio: 0.45,
            move_atr: 3,
            channel_position: 0.8,
            sma_200: 92,
            ema_50_slope_atr: 0.6,
            sma_200_slope_atr: 0.9,
            swing_high: 109,
            previous_swing_high: 104,
            swing_low: 98,
            previous_swing_low: 94,
          },
        },
        patterns: ['hammer'],
        history: {
          candles: 500,
          min_candles: { technical_rating: 200, fear_greed: 104, patterns: 7, levels: 50, signal: 200, regime: 220 },
          insufficient: [],
        },
        live: { price: 110.5, time: '2026-01-16T00:00:00.000Z', change_pct: 0.4545, entry_distance_pct: 8.33 },
      };
    },
    async 'analysis.signal'(r) {
      record('analysis.signal', r);
      return { ...served(r), as_of: AS_OF, signal: HOLD_SIGNAL, cached_at: NOW, age: 0, max_age: 3600 };
    },
    async 'analysis.overview'(r) {
      record('analysis.overview', r);
      return {
        ...served(r),
        as_of: AS_OF,
        locale: r.locale ?? 'en',
        text: 'TEST narrative.',
        source: 'facts',
        facts: [
          { id: 'price', values: { close: { value: 110, text: '110' }, change_pct: { value: 1.5, text: '+1.5%' } } },
        ],
      };
    },
    async 'analysis.markets'(r) {
      record('analysis.markets', r);
      return { asset: TEST_BTC, venue: 'test-venue', markets: TEST_TICKERS };
    },
    async 'analysis.signals'(r) {
      record('analysis.signals', r);
      return {
        timeframe: r.timeframe,
        asset_class: r.asset_class,
        as_of: NOW,
        sort: 'confidence_desc',
        total: 1,
        limit: 10,
        restricted: true,
        rows: [
          {
            asset: TEST_BTC,
            action: 'buy',
            confidence: 0.72,
            expected_r: 0.24,
            expected_r_low: 0.08,
            break_even: 0.25,
            score: 0.4,
            trend: 'up',
            rsi: 61.2,
            breakout: null,
            volume_z: 0.4,
            volume_surge: false,
            fear_greed: 64,
            fear_greed_zone: 'greed',
            inside_zone: false,
            support_distance_atr: -2.25,
            resistance_distance_atr: null,
            patterns: ['hammer'],
            change_pct: 1.5,
          },
        ],
      };
    },
    async 'analysis.screener'(r) {
      record('analysis.screener', r);
      return {
        asset_class: r.asset_class,
        timeframe: 'd1',
        as_of: AS_OF,
        assets_screened: 3,
        breakouts: [
          {
            asset: TEST_BTC,
            direction: 'up',
            kind: 'zone',
            level: 105,
            close: 110,
            distance_pct: 4.7,
            distance_atr: 1.25,
            volume_z: 2.1,
            volume_ratio: 2.4,
          },
        ],
        oversold: [],
        volume_surges: [],
      };
    },
    async 'analysis.fearGreed'(r) {
      record('analysis.fearGreed', r);
      return {
        timeframe: 'd1',
        as_of: AS_OF,
        total: 1,
        limit: Math.min(r.limit, 100),
        assets: [
          {
            asset: TEST_BTC,
            is_stablecoin: false,
            score: 64,
            zone: 'greed',
            price: 110,
            change_24h_pct: 1,
            volume_24h_usd: null,
            funding_rate: 0.0001,
          },
        ],
      };
    },
    async 'market.assets'(r) {
      record('market.assets', r);
      return [
        {
          id: 'bitcoin',
          symbol: 'BTC',
          name: 'Bitcoin',
          icon: TEST_ICON,
          asset_class: 'coins',
          is_stablecoin: false,
          price: 110,
          change_1h_pct: null,
          change_24h_pct: 1,
          change_7d_pct: null,
          volume_24h_usd: 1e6,
          market_type: 'spot',
          pair: 'BTC/USDT',
          venue: 'test-venue',
        },
      ];
    },
    async 'analysis.trackRecord'(r) {
      record('analysis.trackRecord', r);
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
    },
  } satisfies FakeOperations;

  const _hooks: AlertWebhook[] = [];
  const pilot = {
    async 'pilot.spectate'() {
      // No `last_active_at`: the bot's last run is unknown.
      return {
        timeframe: 'd1',
        universe: [{ asset_id: 'bitcoin', asset: TEST_BTC }],
        starting_equity_usd: 10_000,
        equity_usd: 10_004,
        realized_pnl_usd: 4,
        risk_per_trade_usd: 100,
        leverage: 5,
        cost_pct: 0.2,
        closed_trades: 2,
        open_positions: [
          {
            trade_index: 3,
            asset_id: 'bitcoin',
            asset: TEST_BTC,
            side: 'long',
            timeframe: 'd1',
            pair: 'BTC/USDT:USDT',
            opened_at: '2026-01-14T00:00:00.000Z',
            entry_price: 100,
            stop_loss: 96,
            take_profit: 115,
            take_profits: [
              { price: 115, size_pct: 70 },
              { price: 120, size_pct: 30 },
            ],
            quantity: 25,
            margin_usd: 500,
            leverage: 5,
            closed_pct: 0,
            realized_pnl_usd: 0,
            current_price: 102,
            unrealized_pnl_usd: 50,
            mfe_r: 0.5,
            mae_r: null,
          },
        ],
      };
    },
    async 'pilot.trackRecord'(r) {
      record('pilot.trackRecord', r);
      // The first page holds trade 2; trade 1 (the loss) is on the older page.
      const truncated = r.before_trade === undefined;
      const t = TEST_PILOT_TRADE;
      const odd = {
        trades: 1,
        wins: 1,
        losses: 0,
        win_rate: 1,
        pnl_usd: 12,
        return_on_margin_pct: 24,
        mean_realized_r: 1.25,
      };
      const btc = {
        trades: 1,
        wins: 0,
        losses: 1,
        win_rate: 0,
        pnl_usd: -8,
        return_on_margin_pct: -16,
        mean_realized_r: -1,
      };
      return {
        page_size: 50,
        trades: [t],
        trades_truncated: truncated,
        next_before_trade: truncated ? t.trade_index : null,
        curve: [
          {
            trade_index: TEST_PILOT_LOSS.trade_index,
            time: TEST_PILOT_LOSS.closed_at,
            return_on_margin_pct: -16,
            cumulative_return_on_margin_pct: -16,
            equity_usd: 9_992,
          },
          {
            trade_index: t.trade_index,
            time: t.closed_at,
            return_on_margin_pct: t.return_on_margin_pct,
            cumulative_return_on_margin_pct: 8,
            equity_usd: 10_004,
          },
        ],
        best_trade: t,
        worst_trade: TEST_PILOT_LOSS,
        by_asset: [
          { asset_id: 'bitcoin', asset: TEST_BTC, ...btc },
          { asset_id: t.asset_id, ...odd },
        ],
        summary: {
          trades: 2,
          wins: 1,
          losses: 1,
          win_rate: 0.5,
          pnl_usd: 4,
          return_on_margin_pct: 8,
          mean_realized_r: 0.125,
          starting_equity_usd: 10_000,
          equity_usd: 10_004,
          cumulative_return_on_margin_pct: 8,
        },
      };
    },
  } satisfies FakeOperations;

  const operations: FakeOperations = { ...market, ...pilot };
  return { backend: backendOf(operations), operations, calls };
}
