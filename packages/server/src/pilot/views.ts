import { type PilotOpenPosition, type PilotTrade, pilotOpenPositionWire, pilotTradeWire } from '@marketlens/contract';
import { type MarketData, TIMEFRAME_MS, type Timeframe } from '@marketlens/exchanges';
import { PLAN_COST_PCT } from '../analysis/plans/outcomes.js';
import { iso, marketOf } from '../market/market.js';
import { addExact, EXACT_ZERO, type ExactDecimal, exactOf, exactToNumber } from '../platform/decimal.js';
import type { AppDeps } from '../platform/deps.js';
import type { PilotTradeRecord } from '../storage/plans-types.js';
import { coinAssetOf, legsResult, pilotConfigOf, roundUsd } from './bot.js';

/** Closed trades per page of `/pilot/spectate/track-record`. */
export const PILOT_PAGE_SIZE = 50;

const sumUsd = (values: readonly number[]): number =>
  exactToNumber(values.reduce<ExactDecimal>((s, v) => addExact(s, exactOf(v)), EXACT_ZERO));

function assetField(market: MarketData, assetId: string) {
  const asset = coinAssetOf(market, assetId);
  return asset ? { asset } : {};
}

/**
 * Live excursion of an open trade in R (risk = |entry - stop|), from the candles since its entry and
 * the current price: the entry candle counts only from its close (its range may predate the fill),
 * later candles with their highs and lows. Null when no candle can be read.
 */
async function excursion(market: MarketData, t: PilotTradeRecord, now: number, price: number | null) {
  const tfMs = TIMEFRAME_MS[t.timeframe as Timeframe];
  if (tfMs === undefined) return null;
  let candles: { time: ArrayLike<number>; high: ArrayLike<number>; low: ArrayLike<number>; close: ArrayLike<number> };
  try {
    const limit = Math.min(5000, Math.ceil((now - t.opened_at) / tfMs) + 2);
    candles = (await market.candles({ asset_id: t.asset_id, timeframe: t.timeframe as Timeframe, pair: t.pair, limit }))
      .candles;
  } catch {
    return null;
  }
  const s = t.side === 'long' ? 1 : -1;
  let best = 0;
  let worst = 0;
  const see = (p: number) => {
    const move = s * (p - t.entry_price);
    if (move > best) best = move;
    if (-move > worst) worst = -move;
  };
  let seen = false;
  for (let i = 0; i < candles.time.length; i++) {
    const time = candles.time[i];
    if (time < t.opened_at) continue;
    seen = true;
    if (time === t.opened_at) see(candles.close[i]);
    else {
      see(candles.high[i]);
      see(candles.low[i]);
    }
  }
  if (price !== null) see(price);
  if (!seen && price === null) return null;
  const risk = Math.abs(t.entry_price - t.stop_loss);
  return { mfe_r: best / risk, mae_r: worst / risk };
}

/** An open position of the pilot with its live excursion. */
async function openPositionView(market: MarketData, t: PilotTradeRecord, now: number): Promise<PilotOpenPosition> {
  let price: number | null = null;
  try {
    const ticker = await market.ticker({ asset_id: t.asset_id, pair: t.pair });
    price = Number.isFinite(ticker.last) && ticker.last > 0 ? ticker.last : null;
  } catch {
    price = null;
  }
  const realized = legsResult(t, t.legs);
  const s = t.side === 'long' ? 1 : -1;
  const openQty = (t.quantity * (100 - realized.closed_pct)) / 100;
  const ex = await excursion(market, t, now, price);
  return pilotOpenPositionWire(t, coinAssetOf(market, t.asset_id), {
    closed_pct: realized.closed_pct,
    realized_pnl_usd: realized.pnl_usd,
    current_price: price,
    unrealized_pnl_usd: price === null ? null : roundUsd(openQty * s * (price - t.entry_price)),
    mfe_r: ex?.mfe_r ?? null,
    mae_r: ex?.mae_r ?? null,
  });
}

/** `GET /pilot/spectate`: the bot's account and its open positions with live excursions. */
export async function spectateOverview(deps: AppDeps) {
  const config = pilotConfigOf(deps);
  const market = marketOf(deps);
  const now = deps.now();
  const [state, open, closed] = await Promise.all([
    deps.storage.pilot.state(),
    deps.storage.pilot.openTrades(),
    deps.storage.pilot.closedAll(),
  ]);
  const realized = sumUsd(closed.map((t) => t.pnl_usd ?? 0));
  return {
    ...(state ? { last_active_at: iso(state.last_active_at) } : {}),
    timeframe: config.timeframe,
    universe: config.universe.map((id) => ({ asset_id: id, ...assetField(market, id) })),
    starting_equity_usd: config.startingEquityUsd,
    equity_usd: sumUsd([config.startingEquityUsd, realized]),
    realized_pnl_usd: realized,
    risk_per_trade_usd: (config.startingEquityUsd * config.riskPerTradePct) / 100,
    leverage: config.leverage,
    cost_pct: PLAN_COST_PCT,
    closed_trades: closed.length,
    open_positions: await Promise.all(open.map((t) => openPositionView(market, t, now))),
  };
}

function tradeView(market: MarketData, t: PilotTradeRecord): PilotTrade {
  return pilotTradeWire(t, coinAssetOf(market, t.asset_id));
}

/**
 * `GET /pilot/spectate/track-record`: closed trades, a page of {@link PILOT_PAGE_SIZE} ending before
 * trade index `before` (the newest page when absent), oldest first; the curve over that page with
 * cumulative figures from the first trade; best, worst and per-asset figures over every closed trade.
 */
export async function spectateTrackRecord(deps: AppDeps, before?: number) {
  const config = pilotConfigOf(deps);
  const market = marketOf(deps);
  const all = await deps.storage.pilot.closedAll();
  const cumulative: { rom: number; equity: number }[] = [];
  let rom = 0;
  let equity: ExactDecimal = exactOf(config.startingEquityUsd);
  for (const t of all) {
    rom += t.return_on_margin_pct ?? 0;
    equity = addExact(equity, exactOf(t.pnl_usd ?? 0));
    cumulative.push({ rom, equity: exactToNumber(equity) });
  }
  const end = before === undefined ? all.length : all.filter((t) => t.trade_index < before).length;
  const start = Math.max(0, end - PILOT_PAGE_SIZE);
  const page = all.slice(start, end);
  const trades = page.map((t) => tradeView(market, t));
  const curve = page.map((t, k) => ({
    trade_index: t.trade_index,
    time: iso(t.closed_at ?? t.opened_at),
    return_on_margin_pct: t.return_on_margin_pct ?? 0,
    cumulative_return_on_margin_pct: cumulative[start + k].rom,
    equity_usd: cumulative[start + k].equity,
  }));
  let best: PilotTradeRecord | null = null;
  let worst: PilotTradeRecord | null = null;
  const byAsset = new Map<string, PilotTradeRecord[]>();
  for (const t of all) {
    const r = t.return_on_margin_pct ?? 0;
    if (best === null || r > (best.return_on_margin_pct ?? 0)) best = t;
    if (worst === null || r < (worst.return_on_margin_pct ?? 0)) worst = t;
    const list = byAsset.get(t.asset_id);
    if (list) list.push(t);
    else byAsset.set(t.asset_id, [t]);
  }
  const figures = (list: readonly PilotTradeRecord[]) => {
    const wins = list.filter((t) => (t.pnl_usd ?? 0) > 0).length;
    return {
      trades: list.length,
      wins,
      losses: list.length - wins,
      win_rate: list.length === 0 ? null : wins / list.length,
      pnl_usd: sumUsd(list.map((t) => t.pnl_usd ?? 0)),
      return_on_margin_pct: list.reduce((s, t) => s + (t.return_on_margin_pct ?? 0), 0),
      mean_realized_r: list.length === 0 ? null : list.reduce((s, t) => s + (t.realized_r ?? 0), 0) / list.length,
    };
  };
  return {
    page_size: PILOT_PAGE_SIZE,
    trades,
    trades_truncated: start > 0,
    next_before_trade: start > 0 ? (page[0]?.trade_index ?? null) : null,
    curve,
    best_trade: best === null ? null : tradeView(market, best),
    worst_trade: worst === null ? null : tradeView(market, worst),
    by_asset: [...byAsset.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([assetId, list]) => ({ asset_id: assetId, ...assetField(market, assetId), ...figures(list) })),
    summary: {
      ...figures(all),
      starting_equity_usd: config.startingEquityUsd,
      equity_usd: cumulative.at(-1)?.equity ?? config.startingEquityUsd,
      cumulative_return_on_margin_pct: rom,
    },
  };
}
