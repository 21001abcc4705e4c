/** Market tools: analysis with zones, signal, overview, markets, signal list, screener, Fear & Greed, asset lists, exchanges. */

import { TradingSignalsInput } from '@marketlens/contract';
import type { AnalysisData, AssetRef, Level, Served, Signal, TradePlan } from '../backend.js';
import { lines, num, pct, share, usd } from '../render.js';
import { defineTool, type ToolDefinition } from '../tool.js';

const TIERS_NOTE = 'Timeframe 1d and up to 500 candles are free; other timeframes and deeper windows need Pro.';

/** `Bitcoin (BTC)`; any asset block will do (an account row's icon may be null). */
export const assetName = (a: Pick<AssetRef, 'name' | 'symbol'> | null): string =>
  a ? `${a.name} (${a.symbol})` : 'untracked asset';

const servedLine = (s: Served, what: string, asOf: string) =>
  `${assetName(s.asset)} ${what} on ${s.timeframe}: ${s.market_type} ${s.pair} on ${s.venue}, as of ${asOf}`;

function signalLines(s: Signal): string {
  const factors = s.factors
    .filter((f) => f.score !== null)
    .map((f) => `${f.name} ${num(f.score, 2)} (weight ${num(f.weight, 2)})`)
    .join(', ');
  return lines(signalHeadline(s), factors.length > 0 ? `Factors: ${factors}` : null);
}

/** Why a hold has no trade, by its reason (`conflicting`: the score called no side). */
const HOLD_REASONS: Readonly<Record<string, string>> = {
  no_edge: "no edge: the call's chance does not clear its plan's break-even after costs",
  poor_reward: 'the reward at target 1 is too small for the risk after costs',
  insufficient_data: 'not enough history to compute the factors',
  conflicting: 'the factors do not point clearly to one side',
};

/**
 * A call: its probability of reaching target 1 against its break-even and its expected R after
 * costs. A hold: why there is no trade and, for a declined plan, its odds against its break-even;
 * never a confidence in holding.
 */
function signalHeadline(s: Signal): string {
  const e = s.edge;
  if (s.action !== 'hold') {
    const worth =
      e === null
        ? ''
        : `, break-even ${share(e.break_even)}, expected ${num(e.expected_r, 2)}R after costs (${num(e.expected_r_low, 2)} to ${num(e.expected_r_high, 2)}, ${share(e.level)} interval)`;
    return `Signal: ${s.action.toUpperCase()}, ${share(s.confidence)} chance that its plan reaches target 1 before the stop (base rate ${share(s.base_rate)})${worth}, score ${num(s.score, 3)}`;
  }
  const reason = s.reason ?? 'conflicting';
  if (reason === 'insufficient_data') return 'Signal: none (insufficient_data: not enough history to rate)';
  const d = s.declined_plan;
  const declined =
    d !== null && d.direction !== null && e !== null
      ? `; declined ${d.direction === 'long' ? 'buy' : 'sell'} plan (not a recommendation): ${share(e.probability)} chance of target 1 against a ${share(e.break_even)} break-even, expected ${num(e.expected_r, 2)}R`
      : '';
  return `Signal: HOLD, no trade: ${HOLD_REASONS[reason] ?? reason}${declined}; score ${num(s.score, 3)}`;
}

function planLines(z: TradePlan): string {
  if (z.direction === null) {
    return `Trade plan: none (${z.reason ?? 'no direction'})${z.bias ? `; bias ${z.bias}` : ''}`;
  }
  const how =
    z.entry_type === 'limit' ? ` (a limit order: unfilled after ${z.entry_window_bars} candles, the plan expires)` : '';
  const entry = z.entry_zone
    ? `entry zone ${num(z.entry_zone.low)} - ${num(z.entry_zone.high)}${how}`
    : 'no entry zone';
  const targets = z.take_profits
    .map(
      (t, i) =>
        `TP${i + 1} ${num(t.price)} (${num(t.size_pct, 0)}% of size, ${num(t.risk_reward, 2)}R, ${num(t.risk_reward_net, 2)}R after costs)`,
    )
    .join(', ');
  return lines(
    `Trade plan (${z.direction}): ${entry}, entry ${num(z.entry_price)}, stop loss ${num(z.stop_loss)}, invalidation ${num(z.invalidation)}`,
    targets.length > 0 ? `Targets: ${targets}; round-trip cost ${num(z.cost_pct, 3)}%` : null,
  );
}

/** What was withheld for too short a history, with the candles each part needs; null when nothing was. */
function historyLine(h: AnalysisData['history']): string | null {
  if (h.insufficient.length === 0) return null;
  const needs = h.insufficient.map((o) => `${o} (${h.min_candles[o]} candles)`).join(', ');
  return `Not enough history (${h.candles} candles, insufficient_data): ${needs}`;
}

const levelText = (l: Level | null) => (l ? `${num(l.low)} - ${num(l.high)} (${pct(l.distance_pct)})` : 'none');

/** The readable summary of an analysis: price, signal, Fear & Greed, zones and the trade plan. */
export function renderAnalysis(a: AnalysisData): string {
  return lines(
    servedLine(a, 'analysis', a.as_of),
    `Price ${num(a.indicators.close)} (${pct(a.indicators.change_pct)} on the candle); RSI(14) ${num(a.indicators.rsi_14, 2)}; ATR(14) ${num(a.indicators.atr_14)}; regime ${a.regime.phase ?? 'unavailable'}`,
    signalLines(a.signal),
    `Fear & Greed: ${a.fear_greed.score ?? 'unavailable'}${a.fear_greed.zone ? ` (${a.fear_greed.zone})` : ''}`,
    `Nearest support: ${levelText(a.levels.nearest_support)}; nearest resistance: ${levelText(a.levels.nearest_resistance)}`,
    planLines(a.zone),
    a.patterns && a.patterns.length > 0 ? `Candle patterns: ${a.patterns.join(', ')}` : null,
    historyLine(a.history),
    a.live
      ? `Live: ${num(a.live.price)} (${pct(a.live.change_pct)} since the close analysed)${a.live.entry_distance_pct === null ? '' : `, ${pct(a.live.entry_distance_pct)} from the entry zone`}`
      : null,
  );
}

const getAssetAnalysis = defineTool({
  name: 'get_asset_analysis',
  title: 'Asset analysis with zones',
  description: `Full technical analysis of an asset: indicators, support/resistance zones, the trade plan (entry zone, stop loss, at most two take-profit targets), Buy/Hold/Sell signal, Fear & Greed and market regime. ${TIERS_NOTE}`,
  operation: 'analysis.get',
  text: renderAnalysis,
});

const getAssetSignal = defineTool({
  name: 'get_asset_signal',
  title: 'Buy/Hold/Sell signal',
  description: `Buy/Hold/Sell signal of an asset: a Buy or Sell is published only with an edge (its plan's expected R after costs above 0 at the lower end of its interval) and carries the probability that its plan reaches target 1, its break-even and its expected R; a Hold says why there is no trade and shows any declined plan. With its weighted factors (trend, momentum, sentiment, breakout, risk, cycle phase); one computation is served for at most an hour and never past its candle. ${TIERS_NOTE}`,
  operation: 'analysis.signal',
  text: (s) => lines(servedLine(s, 'signal', s.as_of), signalLines(s.signal), `Computed at ${s.cached_at}`),
});

const getAssetOverview = defineTool({
  name: 'get_asset_overview',
  title: 'Market overview narrative',
  description: `A short market overview of an asset written from its analysis facts, in the requested language (en, es, de, fr, pt, ja, zh). ${TIERS_NOTE}`,
  operation: 'analysis.overview',
  text: (o) => lines(servedLine(o, 'overview', o.as_of), '', o.text),
});

const getAssetMarkets = defineTool({
  name: 'get_asset_markets',
  title: 'Markets of an asset',
  description:
    'Spot and derivatives markets of an asset on a venue with their tickers (last price, 24h change, volume, funding for perpetuals).',
  operation: 'analysis.markets',
  text: (m) =>
    lines(
      `${assetName(m.asset)} on ${m.venue}: ${m.markets.length} market(s)`,
      ...m.markets.map(
        (t) =>
          `- ${t.pair} (${t.market_type}): last ${num(t.last)}, 24h ${pct(t.change_24h_pct)}, volume ${usd(t.quote_volume_usd)}${
            t.market_type === 'derivatives'
              ? `, funding ${t.funding_rate == null ? 'unavailable' : pct(t.funding_rate * 100)}`
              : ''
          }`,
      ),
    ),
});

const getTradingSignals = defineTool({
  name: 'get_trading_signals',
  title: 'Trading signal list',
  description:
    'Signal list over an asset class: one row per asset with action, the probability and expected R after costs of its call (buy or sell; a hold has no trade), trend, RSI and Fear & Greed, calls first, most probable first. Timeframes 1h, 15m and 1d (default). Free accounts get the top 10 rows.',
  operation: 'analysis.signals',
  // Without the paid signal controls the operation also takes (REST's query names them).
  input: TradingSignalsInput,
  text: (l) =>
    lines(
      `Signals (${l.asset_class}, ${l.timeframe}, as of ${l.as_of}): ${l.rows.length} of ${l.total}${l.restricted ? ' (free list: top rows only)' : ''}`,
      ...l.rows.map(
        (r) =>
          `- ${assetName(r.asset)}: ${r.action === 'hold' ? 'HOLD' : `${r.action.toUpperCase()} ${share(r.confidence)}${r.expected_r === null ? '' : `, expected ${num(r.expected_r, 2)}R`}`}, trend ${r.trend}, RSI ${num(r.rsi, 1)}, F&G ${r.fear_greed ?? 'unavailable'}, change ${pct(r.change_pct)}`,
      ),
    ),
});

const getScreener = defineTool({
  name: 'get_screener',
  title: 'Screener',
  description:
    'Screens an asset class on the live daily candle: volume-confirmed breakouts, oversold readings near a support, and volume surges.',
  operation: 'analysis.screener',
  text: (s) =>
    lines(
      `Screener (${s.asset_class}, ${s.timeframe}, as of ${s.as_of}): ${s.assets_screened} assets screened`,
      `Breakouts: ${s.breakouts.length}`,
      ...s.breakouts.map(
        (r) => `- ${assetName(r.asset)} ${r.direction} through ${r.kind} ${num(r.level)} (${pct(r.distance_pct)})`,
      ),
      `Oversold: ${s.oversold.length}`,
      ...s.oversold.map(
        (r) => `- ${assetName(r.asset)} RSI ${num(r.rsi_14, 1)}, support ${num(r.support)} (${pct(r.distance_pct)})`,
      ),
      `Volume surges: ${s.volume_surges.length}`,
      ...s.volume_surges.map(
        (r) => `- ${assetName(r.asset)} volume x${num(r.volume_ratio, 2)}, change ${pct(r.change_pct)}`,
      ),
    ),
});

const getFearGreed = defineTool({
  name: 'get_fear_greed',
  title: 'Fear & Greed ranking',
  description:
    "Coins ranked by their Fear & Greed score (0 extreme fear .. 100 extreme greed) on daily candles, with the perpetual's funding; filter by zone or volume, sort by score, volume or 24h change.",
  operation: 'analysis.fearGreed',
  text: (l) =>
    lines(
      `Fear & Greed (${l.timeframe}, as of ${l.as_of}): ${l.assets.length} of ${l.total}`,
      ...l.assets.map(
        (r) =>
          `- ${assetName(r.asset)}: ${r.score ?? 'unavailable'}${r.zone ? ` (${r.zone})` : ''}, price ${num(r.price)}, 24h ${pct(r.change_24h_pct)}`,
      ),
    ),
});

const listAssets = defineTool({
  name: 'list_assets',
  title: 'Assets',
  description:
    'Assets of a class (coins, stocks, fx, or all) with price and 1h/24h/7d change, sorted by volume, price, change or name.',
  operation: 'market.assets',
  list: 'assets',
  text: (rows, input) => renderAssetRows(`Assets (${input.asset_class})`, rows),
});

/** Rows of an asset list, one line each. */
export function renderAssetRows(
  title: string,
  rows: readonly {
    id: string;
    name: string;
    symbol: string;
    price: number | null;
    change_24h_pct: number | null;
    volume_24h_usd: number | null;
  }[],
): string {
  return lines(
    `${title}: ${rows.length}`,
    ...rows.map(
      (r) =>
        `- ${r.name} (${r.symbol}, ${r.id}): price ${num(r.price)}, 24h ${pct(r.change_24h_pct)}, volume ${usd(r.volume_24h_usd)}`,
    ),
  );
}

const listExchanges = defineTool({
  name: 'list_exchanges',
  title: 'Exchanges',
  description: 'The exchange catalog: id, name, whether you are connected, and 24h volume where it is read.',
  operation: 'market.exchanges',
  list: 'exchanges',
  text: (list) =>
    lines(
      `Exchanges: ${list.length}`,
      ...list.map(
        (e) => `- ${e.name} (${e.id})${e.connected ? ', connected' : ''}, 24h volume ${usd(e.volume.total_24h_usd)}`,
      ),
    ),
});

const getExchangeDetail = defineTool({
  name: 'get_exchange_detail',
  title: 'Exchange detail',
  description: 'One exchange: pair counts, open interest and its spot and futures tickers.',
  operation: 'market.exchange',
  text: (e) =>
    lines(
      `${e.name} (${e.id})${e.connected ? ', connected' : ''}`,
      `Spot pairs ${e.spot_pairs}, futures pairs ${e.futures_pairs}, 24h volume ${usd(e.volume.total_24h_usd)}, futures open interest ${usd(e.futures_open_interest_usd)}`,
    ),
});

/** The market tools, in catalog order. */
export const MARKET_TOOLS: readonly ToolDefinition[] = [
  getAssetAnalysis,
  getAssetSignal,
  getAssetOverview,
  getAssetMarkets,
  getTradingSignals,
  getScreener,
  getFearGreed,
  listAssets,
  listExchanges,
  getExchangeDetail,
];
