import type { OperationOutput } from '@marketlens/contract';
import { describe, expect, it } from 'vitest';
import type { AnalysisData, FearGreed, MarketTicker, Served, Signal } from '../backend.js';
import { CATALOG } from '../catalog.js';
import { render, TEST_BTC, TEST_ICON } from '../testing/render.js';

/**
 * What the market tools' text says about their operation's answer: fixtures of round numbers (not
 * market data), each parsed by the operation's output schema. The tools over the real use cases are
 * tested in `@marketlens/server` (`src/mcp/mcp-tools.test.ts`).
 */

/** Open time of the closed d1 candle every fixture is computed at (the live one opens a day later). */
const AS_OF = '2026-01-15T00:00:00.000Z';
/** When the fixtures were read or computed. */
const NOW = '2026-01-15T12:00:00.000Z';

const served = (timeframe: Served['timeframe']): Served => ({
  asset: TEST_BTC,
  timeframe,
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

/** A BUY of bitcoin on d1 with its plan (entry zone 100 - 102, two targets) and a live price. */
const support = {
  kind: 'support' as const,
  low: 100,
  high: 102,
  mid: 101,
  strength: 0.8,
  touches: 3,
  last_touch_index: 500 - 10,
  last_touch_time: '2026-01-05T00:00:00.000Z',
  volume: 3600,
  sources: ['swing' as const],
  timeframe: 'd1',
};
const analysis: AnalysisData = {
  ...served('d1'),
  as_of: AS_OF,
  as_of_index: 500 - 1,
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
    as_of_index: 500 - 1,
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
      candles: 500,
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
    published_index: 500 - 1,
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

describe('get_asset_analysis', () => {
  it('renders zones, plan, signal and Fear & Greed and returns the REST shape', async () => {
    const r = await render('get_asset_analysis', 'analysis.get', analysis, { asset_id: 'bitcoin' });
    expect(r.request).toEqual({ asset_id: 'bitcoin', timeframe: 'd1', limit: 500 });
    expect(r.text).toContain(
      'Signal: BUY, 31% chance that its plan reaches target 1 before the stop (base rate 24%), break-even 25%, expected 0.24R after costs (0.08 to 0.4, 90% interval)',
    );
    expect(r.text).toContain('Fear & Greed: 64 (greed)');
    expect(r.text).toContain('entry zone 100 - 102');
    expect(r.text).toContain('TP1 115 (70% of size, 2.8R, 2.64R after costs)');
    expect(r.text).toContain('Live: 110.5');
    expect(r.text).toContain('nearest resistance: none');
    expect((r.data.zone as { take_profits: unknown[] }).take_profits).toHaveLength(2);
  });
});

describe('get_trading_signals', () => {
  const list = (timeframe: 'm15' | 'h1'): OperationOutput<'analysis.signals'> => ({
    timeframe,
    asset_class: 'coins',
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
  });

  it('takes 1h and 15m and passes the REST spelling; renders a restricted list', async () => {
    const r = await render('get_trading_signals', 'analysis.signals', list('m15'), { timeframe: '15m' });
    expect(r.request).toEqual({ timeframe: 'm15', asset_class: 'coins', limit: 100 });
    expect(r.text).toContain('Bitcoin (BTC): BUY 72%');
    expect(r.text).toContain('free list');
    const h1 = await render('get_trading_signals', 'analysis.signals', list('h1'), { timeframe: '1h' });
    expect(h1.request.timeframe).toBe('h1');
    // 4h is not a timeframe of the signal list: refused before it runs (the server answers InvalidRequest)
    const tool = CATALOG.find((t) => t.name === 'get_trading_signals');
    expect(tool?.input.safeParse({ timeframe: '4h' }).success).toBe(false);
  });
});

describe('the other market tools', () => {
  it('get_asset_signal says why a HOLD has no trade, never a confidence in holding', async () => {
    const hold = await render(
      'get_asset_signal',
      'analysis.signal',
      { ...served('d1'), as_of: AS_OF, signal: HOLD_SIGNAL, cached_at: NOW, age: 0, max_age: 3600 },
      { asset_id: 'bitcoin' },
    );
    expect(hold.text).toContain('Signal: HOLD, no trade: the factors do not point clearly to one side');
    expect(hold.text).not.toMatch(/confiden/i);
  });

  it('get_asset_overview renders the narrative and passes the locale', async () => {
    const o = await render(
      'get_asset_overview',
      'analysis.overview',
      {
        ...served('d1'),
        as_of: AS_OF,
        locale: 'de',
        text: 'TEST narrative.',
        source: 'facts',
        facts: [
          { id: 'price', values: { close: { value: 110, text: '110' }, change_pct: { value: 1.5, text: '+1.5%' } } },
        ],
      },
      { asset_id: 'bitcoin', locale: 'de' },
    );
    expect(o.text).toContain('TEST narrative.');
    expect(o.request.locale).toBe('de');
  });

  it('get_asset_markets renders a perpetual with unavailable figures and its funding', async () => {
    const m = await render(
      'get_asset_markets',
      'analysis.markets',
      { asset: TEST_BTC, venue: 'test-venue', markets: TEST_TICKERS },
      { asset_id: 'bitcoin', market_type: 'derivatives' },
    );
    expect(m.text).toContain(
      'BTC/USDT:USDT (derivatives): last 110.5, 24h unavailable, volume unavailable, funding +0.01%',
    );
    expect(m.request).toEqual({ asset_id: 'bitcoin', market_type: 'derivatives' });
  });

  it('get_screener renders a breakout through a zone', async () => {
    const s = await render(
      'get_screener',
      'analysis.screener',
      {
        asset_class: 'all',
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
      },
      { asset_class: 'all' },
    );
    expect(s.text).toContain('Bitcoin (BTC) up through zone 105');
    expect(s.request.asset_class).toBe('all');
  });

  it('get_fear_greed renders a coin’s score and zone, and answers the list as the operation does', async () => {
    const fg = await render(
      'get_fear_greed',
      'analysis.fearGreed',
      {
        timeframe: 'd1',
        as_of: AS_OF,
        total: 1,
        limit: 100,
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
      },
      { limit: 100 },
    );
    expect(fg.text).toContain('Bitcoin (BTC): 64 (greed)');
    expect(fg.request.limit).toBe(100);
    expect(fg.data.limit).toBe(100);
  });

  it('list_assets wraps the rows under `assets` and renders price and 24h change', async () => {
    const assets = await render(
      'list_assets',
      'market.assets',
      [
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
      ],
      { asset_class: 'coins', limit: 5 },
    );
    expect(assets.data.assets).toHaveLength(1);
    expect(assets.text).toContain('Bitcoin (BTC, bitcoin): price 110, 24h +1.00%');
    expect(assets.request).toMatchObject({ asset_class: 'coins', limit: 5 });
  });
});
