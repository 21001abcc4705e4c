/**
 * The read side of connected accounts (issue 8): positions with portfolio totals, balances, the
 * portfolio summary, orders and trades, a position's notes, and the position assessment. Stored
 * rows (written by the sync) go through core's portfolio arithmetic; this module only prices them
 * and maps records to core inputs. REST routes and MCP tools both call these functions.
 */

import {
  type Balance as BalanceWire,
  balanceWire,
  type FillFilter as FillQuery,
  iso,
  type Order,
  orderWire,
  type Position,
  type PositionAnalysis,
  positionAnalysisWire,
  positionWire,
  type Trade as TradeWire,
  tradeWire,
} from '@marketlens/contract';
import {
  AssessmentError,
  type AssessmentErrorReason,
  type AssetRef,
  assessPosition,
  type BalanceInput,
  type BalanceSheet,
  type FillInput,
  normalizeBalances,
  normalizePositions,
  ordersFromFills,
  type PortfolioTotals,
  type PositionAssessment,
  type PositionInput,
  portfolioTotals,
  tradesFromFills,
} from '@marketlens/core';
import { type Asset, type CandleSeries, TIMEFRAME_MS, type Ticker, VenueError } from '@marketlens/exchanges';
import { checkAnalysisAccess, tierOf } from '../analysis/analysis.js';
import { publishedPlanAtEntry } from '../analysis/plans/lookup.js';
import type { SessionCaller } from '../auth/session-cache.js';
import { isAtLeast } from '../auth/tiers.js';
import { timeframeNeedsPro } from '../market/config-document.js';
import { marketOf, universeOf, venueSnapshot } from '../market/market.js';
import type { MarketQuote } from '../market/quotes.js';
import type { AppDeps, ClientInfo } from '../platform/deps.js';
import { AppError, type ErrorName } from '../platform/errors/app-error.js';
import { fromVenueError } from '../platform/errors/venue-error.js';
import { CHART_DEPTH, type Timeframe } from '../platform/product-rules.js';
import type {
  BalanceRecord,
  ConnectionRecord,
  FillFilter,
  FillRecord,
  PositionRecord,
} from '../storage/account-types.js';

/** Settlement and balance currencies worth exactly one US dollar here (USD and USD stablecoins). */
export const USD_CURRENCIES: ReadonlySet<string> = new Set([
  'USD',
  'USDT',
  'USDC',
  'BUSD',
  'FDUSD',
  'TUSD',
  'USDE',
  'USDP',
  'PYUSD',
  'DAI',
]);

/**
 * Where prices come from: the app's market data (one venue snapshot, refreshed at most once a
 * minute), by asset. A snapshot that cannot be read leaves everything but USD currencies unpriced.
 */
interface Pricing {
  asset(id: string | null): AssetRef | null;
  /** The asset's quote: its perpetual first when `derivatives`, else its primary (spot first) market. */
  quote(assetId: string | null, derivatives: boolean): Ticker | null;
  /** USD per unit of a currency code; null when unknown. */
  usdRate(code: string | null): number | null;
}

/** The account asset block of an asset id (null when it is no tracked asset); reads no prices. */
function assetsOf(deps: AppDeps): (id: string | null) => AssetRef | null {
  const universe = universeOf(marketOf(deps));
  return (id) => {
    if (id === null) return null;
    const a = universe.get(id);
    return a === undefined ? null : assetRefOf(a);
  };
}

async function pricingOf(deps: AppDeps): Promise<Pricing> {
  const universe = universeOf(marketOf(deps));
  const asset = assetsOf(deps);
  const snapshot = await venueSnapshot(deps).catch(() => null);
  const quotesOf = (id: string): readonly MarketQuote[] => snapshot?.byAsset.get(id) ?? [];
  const quote = (assetId: string | null, derivatives: boolean): Ticker | null => {
    if (assetId === null) return null;
    const quotes = quotesOf(assetId);
    const preferred = derivatives ? 'derivatives' : 'spot';
    const q = quotes.find((x) => x.market.market_type === preferred) ?? quotes[0];
    return q !== undefined && q.ticker.last > 0 ? q.ticker : null;
  };
  return {
    asset,
    quote,
    usdRate(code) {
      if (code === null) return null;
      const upper = code.toUpperCase();
      if (USD_CURRENCIES.has(upper)) return 1;
      return quote(universe.resolveCurrency(upper), false)?.last ?? null;
    },
  };
}

function assetRefOf(a: Asset): AssetRef {
  return { id: a.id, symbol: a.symbol, name: a.name, icon: a.icon, asset_class: a.asset_class };
}

/**
 * The market's price a window before its last read, from its last price and its percent change over
 * that window; null when unknown. A price of the market, never derived from the position's mark.
 */
function priceBefore(ticker: Ticker | null, changePct: number | null): number | null {
  if (ticker === null || changePct === null || !(changePct > -100)) return null;
  return ticker.last / (1 + changePct / 100);
}

/** Where a position's mark came from: the venue's sync, the service's market data, or nowhere (unpriced). */
type MarkSource = 'venue' | 'market' | null;

/** Where the mark of a stored position comes from (see {@link positionInput}). */
function markSourceOf(record: PositionRecord, pricing: Pricing): MarkSource {
  if (record.mark_price !== null && record.mark_price > 0) return 'venue';
  return pricing.quote(record.asset_id, true) === null ? null : 'market';
}

/**
 * The core input of a stored position. The mark is the venue's (as of the sync that last saw the
 * position open); when the venue reported none and the instrument maps to a tracked asset, the
 * app's market data prices it (the asset's perpetual, else its primary market). Daily and weekly
 * PnL run from the market's own price 24 h / 7 d before its last read (its last price less its
 * change) to the mark, so a venue mark the market has moved away from is not rescaled by a change
 * measured elsewhere. Without a mark, the position is unpriced and its figures null (never 0).
 */
function positionInput(record: PositionRecord, pricing: Pricing): PositionInput {
  const ticker = pricing.quote(record.asset_id, true);
  const venueMark = record.mark_price !== null && record.mark_price > 0 ? record.mark_price : null;
  const mark = venueMark ?? ticker?.last ?? null;
  const markTime = venueMark !== null ? record.last_seen_at : (ticker?.time ?? null);
  // The settlement currency of an inverse contract is the base coin: its USD rate is the mark itself.
  const usdRate =
    record.contract_type === 'inverse' && record.settle !== null && !USD_CURRENCIES.has(record.settle.toUpperCase())
      ? (pricing.usdRate(record.settle) ?? mark)
      : pricing.usdRate(record.settle ?? 'USD');
  return {
    id: record.id,
    user_connection_id: record.user_connection_id,
    connection_id: record.venue,
    pair: record.pair,
    asset: pricing.asset(record.asset_id),
    side: record.side,
    size: record.size,
    contract_type: record.contract_type,
    settlement_currency: record.settle,
    entry_price: record.entry_price,
    leverage: record.leverage,
    margin: record.margin,
    maintenance_margin: record.maintenance_margin,
    liquidation_price: record.liquidation_price,
    opened_at: record.opened_at,
    updated_at: record.updated_at,
    mark_price: mark,
    mark_time: markTime,
    price_24h_ago: priceBefore(ticker, ticker?.change_24h_pct ?? null),
    price_7d_ago: priceBefore(ticker, ticker?.change_7d_pct ?? null),
    usd_rate: usdRate,
    stop_loss: record.stop_loss,
    take_profit: record.take_profit,
    protective_levels_synced_at: record.protective_levels_synced_at,
    funding_since_open: record.funding_since_open,
    notes: record.notes,
  };
}

/** `GET /v2/positions` data: every open position, priced or not, in one list, and the totals. */
export interface PositionsView {
  positions: Position[];
  totals: PortfolioTotals;
}

/**
 * The earlier split shape served to mobile builds below 3.9.26: tracked positions
 * only (no null asset), priced ones in `positions` and unpriced ones apart in `unpriced_positions`;
 * the totals cover what the client sees.
 */
export interface LegacyPositionsView extends PositionsView {
  unpriced_positions: Position[];
}

/** The user's open positions (optionally only on `assetIds`) with the portfolio totals. */
export async function listPositions(
  deps: AppDeps,
  userId: string,
  assetIds: readonly string[] | null,
): Promise<PositionsView> {
  const records = await deps.storage.positions.openByUser(userId, assetIds ?? undefined);
  const pricing = await pricingOf(deps);
  const positions = normalizePositions(records.map((r) => positionInput(r, pricing)));
  return { positions: positions.map(positionWire), totals: portfolioTotals(positions) };
}

/** {@link PositionsView} in the earlier split shape (see {@link LegacyPositionsView}). */
export function legacyPositions(view: PositionsView): LegacyPositionsView {
  const tracked = view.positions.filter((p) => p.asset !== null);
  return {
    positions: tracked.filter((p) => p.current_price !== null),
    unpriced_positions: tracked.filter((p) => p.current_price === null),
    totals: portfolioTotals(tracked),
  };
}

/** The user's open position, or 404 (absent, closed, or another user's: indistinguishable on purpose). */
async function openPosition(deps: AppDeps, userId: string, positionId: string): Promise<PositionRecord> {
  const record = await deps.storage.positions.byId(userId, positionId);
  if (record === null || record.closed_at !== null) {
    throw new AppError('PositionNotFound', `No open position '${positionId}'`);
  }
  return record;
}

/** Sets the notes of the user's open position (the only writable field) and returns the position. */
export async function editPositionNotes(
  deps: AppDeps,
  userId: string,
  positionId: string,
  notes: string,
): Promise<Position> {
  await openPosition(deps, userId, positionId);
  const updated = await deps.storage.positions.setNotes(userId, positionId, notes);
  if (updated === null) throw new AppError('PositionNotFound', `No open position '${positionId}'`);
  const [position] = normalizePositions([positionInput(updated, await pricingOf(deps))]);
  return positionWire(position);
}

/** Which balances to read: one account, every account on one exchange, some assets; all by default. */
export interface BalanceQuery {
  user_connection_id?: string | undefined;
  connection_id?: string | undefined;
  asset_ids: readonly string[] | null;
}

/** `GET` balances data: every balance of the query and the totals. */
export interface BalancesView extends Omit<BalanceSheet, 'balances'> {
  balances: BalanceWire[];
}

/** The earlier split shape of balances, for mobile builds below 3.9.26: tracked only, unpriced apart. */
export interface LegacyBalancesView extends BalancesView {
  unpriced_balances: BalanceWire[];
}

function balanceInput(record: BalanceRecord, pricing: Pricing): BalanceInput {
  return {
    user_connection_id: record.user_connection_id,
    connection_id: record.venue,
    account: record.account,
    symbol: record.symbol,
    asset: pricing.asset(record.asset_id),
    total: record.total,
    available: record.free,
    frozen: record.used,
    usd_price: USD_CURRENCIES.has(record.symbol.toUpperCase())
      ? 1
      : (pricing.quote(record.asset_id, false)?.last ?? null),
  };
}

/** The user's balances, priced from the app's market data (USD and USD stablecoins at 1). */
export async function listBalances(deps: AppDeps, userId: string, query: BalanceQuery): Promise<BalancesView> {
  const records = await deps.storage.balances.byUser(userId);
  const wanted = query.asset_ids === null ? null : new Set(query.asset_ids);
  const kept = records.filter(
    (r) =>
      (query.user_connection_id === undefined || r.user_connection_id === query.user_connection_id) &&
      (query.connection_id === undefined || r.venue === query.connection_id) &&
      (wanted === null || (r.asset_id !== null && wanted.has(r.asset_id))),
  );
  const pricing = await pricingOf(deps);
  const sheet = normalizeBalances(kept.map((r) => balanceInput(r, pricing)));
  return { ...sheet, balances: sheet.balances.map(balanceWire) };
}

/** {@link BalancesView} in the earlier split shape (see {@link LegacyBalancesView}). */
export function legacyBalances(sheet: BalancesView): LegacyBalancesView {
  const tracked = sheet.balances.filter((b) => b.asset !== null);
  // Shares and the total are recomputed over what the client sees, so they still add up to 100.
  const again = normalizeBalances(
    tracked.map((b) => ({
      user_connection_id: b.user_connection_id,
      connection_id: b.connection_id,
      account: b.account,
      symbol: b.symbol,
      asset: b.asset,
      total: b.balance,
      available: b.available,
      frozen: b.frozen,
      usd_price: b.usd_price,
    })),
  );
  return {
    ...again,
    balances: again.balances.filter((b) => b.balance_usd !== null).map(balanceWire),
    unpriced_balances: again.balances.filter((b) => b.balance_usd === null).map(balanceWire),
  };
}

/** Sync standing of the user's connected accounts, for the summary. */
export interface ConnectionsStanding {
  count: number;
  /** Accounts whose last sync failed. */
  failing_count: number;
  /** Accounts no sync has read yet. */
  never_synced_count: number;
  /** The oldest last successful sync among the synced accounts: the data is at least this fresh. */
  oldest_synced_at: string | null;
}

/** `GET /v2/portfolio/summary`, MCP `get_portfolio_summary`. */
export interface PortfolioSummary {
  positions: PortfolioTotals;
  balances: {
    total_usd: number | null;
    count: number;
    priced_count: number;
    unpriced_count: number;
  };
  connections: ConnectionsStanding;
}

function standingOf(connections: readonly ConnectionRecord[]): ConnectionsStanding {
  const synced = connections.map((c) => c.last_success_at).filter((t): t is number => t !== null);
  return {
    count: connections.length,
    failing_count: connections.filter((c) => c.last_error !== null).length,
    never_synced_count: connections.length - synced.length,
    oldest_synced_at: synced.length === 0 ? null : iso(Math.min(...synced)),
  };
}

/** Portfolio totals, the balance total and the accounts' sync standing in one read. */
export async function portfolioSummary(deps: AppDeps, userId: string): Promise<PortfolioSummary> {
  const [positions, sheet, connections] = await Promise.all([
    listPositions(deps, userId, null),
    listBalances(deps, userId, { asset_ids: null }),
    deps.storage.connections.byUser(userId),
  ]);
  return {
    positions: positions.totals,
    balances: {
      total_usd: sheet.total_usd,
      count: sheet.balances.length,
      priced_count: sheet.priced_count,
      unpriced_count: sheet.unpriced_count,
    },
    connections: standingOf(connections),
  };
}

function storageFilter(userId: string, q: FillQuery): FillFilter {
  return {
    user_id: userId,
    ...(q.user_connection_id !== undefined ? { user_connection_id: q.user_connection_id } : {}),
    ...(q.connection_id !== undefined ? { venue: q.connection_id } : {}),
    ...(q.pair !== undefined ? { pair: q.pair } : {}),
    ...(q.asset_id !== undefined ? { asset_id: q.asset_id } : {}),
    ...(q.side !== undefined ? { side: q.side } : {}),
    ...(q.start !== undefined ? { start: q.start } : {}),
    ...(q.end !== undefined ? { end: q.end } : {}),
  };
}

function fillInput(r: FillRecord): FillInput {
  return {
    external_id: r.external_id,
    user_connection_id: r.user_connection_id,
    connection_id: r.venue,
    order_id: r.order_id,
    pair: r.pair,
    asset_id: r.asset_id,
    side: r.side,
    price: r.price,
    size: r.amount,
    fee: r.fee,
    fee_currency: r.fee_currency,
    pnl: r.realized_pnl,
    executed_at: r.time,
  };
}

/** How fills are read for a client: `trackedOnly` (builds below 3.9.26) drops fills of no tracked asset. */
export interface FillReadOptions {
  trackedOnly: boolean;
}

/** `GET /v1/trades`: fills newest first, a page of them, and how many match. */
export async function listTrades(
  deps: AppDeps,
  userId: string,
  q: FillQuery,
  options: FillReadOptions,
): Promise<{ trades: TradeWire[]; total: number }> {
  const filter = storageFilter(userId, q);
  const asset = assetsOf(deps);
  if (!options.trackedOnly) {
    const { fills, total } = await deps.storage.fills.page(filter, { limit: q.limit, offset: q.offset });
    return { trades: tradesFromFills(fills.map(fillInput)).map((t) => tradeWire(t, asset(t.asset_id))), total };
  }
  const tracked = tradesFromFills((await deps.storage.fills.all(filter)).map(fillInput)).filter(
    (t) => t.asset_id !== null,
  );
  return {
    trades: tracked.slice(q.offset, q.offset + q.limit).map((t) => tradeWire(t, asset(t.asset_id))),
    total: tracked.length,
  };
}

/** The order a stored fill belongs to, as core groups them: a fill with no order id is an order of its own. */
function orderKeyOf(f: FillRecord): string {
  return f.order_id === null
    ? `fill\u0000${f.user_connection_id}\u0000${f.external_id}`
    : `order\u0000${f.user_connection_id}\u0000${f.order_id}\u0000${f.side}`;
}

/**
 * `GET /v1/orders`: orders aggregated from their fills, newest first, a page of them, and how many
 * match. `start` / `end` select the orders with a fill executed inside the window; each order is then
 * built from all its fills, so an order whose fills straddle the window keeps its true size and price.
 */
export async function listOrders(
  deps: AppDeps,
  userId: string,
  q: FillQuery,
  options: FillReadOptions,
): Promise<{ orders: Order[]; total: number }> {
  const kept = (f: FillRecord) => !options.trackedOnly || f.asset_id !== null;
  const filter = storageFilter(userId, q);
  let fills = (await deps.storage.fills.all(filter)).filter(kept);
  if (fills.length > 0 && (filter.start !== undefined || filter.end !== undefined)) {
    const inWindow = new Set(fills.map(orderKeyOf));
    const { start: _start, end: _end, ...unbounded } = filter;
    fills = (await deps.storage.fills.all(unbounded)).filter((f) => kept(f) && inWindow.has(orderKeyOf(f)));
  }
  const orders = ordersFromFills(fills.map(fillInput));
  const asset = assetsOf(deps);
  return { orders: orders.slice(q.offset, q.offset + q.limit).map((o) => orderWire(o, asset)), total: orders.length };
}

/** What a position analysis is asked for. */
export interface PositionAnalysisRequest {
  timeframe: Timeframe;
  /** Candles read; absent: enough to reach the entry, capped at the caller's chart depth. */
  limit?: number | undefined;
}

/** The 422 codes of an assessment that cannot be made, one per {@link AssessmentErrorReason}. */
const NOT_ASSESSABLE: Record<AssessmentErrorReason, ErrorName> = {
  unpriced_without_asset: 'PositionUnpricedWithoutAsset',
  unpriced_without_candles: 'PositionUnpricedWithoutCandles',
  mark_not_positive: 'PositionMarkNotPositive',
  entry_not_positive: 'PositionEntryNotPositive',
};

/** Candles from the entry's candle to now, plus a margin for the ATR and level warm-up. */
function windowFor(record: PositionRecord, timeframe: Timeframe, now: number, depth: number): number {
  const bars = record.opened_at === null ? 0 : Math.ceil((now - record.opened_at) / TIMEFRAME_MS[timeframe]) + 1;
  return Math.min(depth, Math.max(CHART_DEPTH.free, bars + 100));
}

async function candlesFor(deps: AppDeps, assetId: string, timeframe: Timeframe, limit: number) {
  try {
    const series: CandleSeries = await marketOf(deps).candles({
      asset_id: assetId,
      timeframe,
      limit,
      market_type: 'derivatives',
    });
    return series;
  } catch (err) {
    // An asset the app's market data does not serve is assessed without candles (core decides).
    if (err instanceof VenueError && (err.code === 'unknown_asset' || err.code === 'unknown_market')) return null;
    throw fromVenueError(err);
  }
}

/**
 * `GET /v2/positions/{position_id}/analysis`: the core assessment of the user's open position on
 * candles of its asset from the app's market data (the perpetual preferred), under the analysis
 * gates by tier and client (402 1004 / 1005, as `/v2/analysis`); 422 with a reason code when it
 * cannot be made.
 */
export async function analyzePosition(
  deps: AppDeps,
  caller: SessionCaller,
  client: ClientInfo,
  positionId: string,
  request: PositionAnalysisRequest,
): Promise<PositionAnalysis> {
  const record = await openPosition(deps, caller.user.id, positionId);
  const universe = universeOf(marketOf(deps));
  const asset = record.asset_id === null ? null : (universe.get(record.asset_id) ?? null);
  const pro = isAtLeast(tierOf(caller), 'pro');
  const depth = pro ? CHART_DEPTH.pro : CHART_DEPTH.free;
  const limit = request.limit ?? windowFor(record, request.timeframe, deps.now(), depth);
  if (asset !== null) checkAnalysisAccess(asset, { timeframe: request.timeframe, limit }, caller, client);
  else if (!pro && timeframeNeedsPro(request.timeframe, client)) {
    throw new AppError('AnalysisTimeframeRestricted', `Timeframe ${request.timeframe} requires Pro`);
  } else if (!pro && limit > CHART_DEPTH.free) {
    throw new AppError('AnalysisHistoryDepthRestricted', `Windows deeper than ${CHART_DEPTH.free} candles require Pro`);
  }
  const pricing = await pricingOf(deps);
  const [position] = normalizePositions([positionInput(record, pricing)]);
  const markSource = markSourceOf(record, pricing);
  const series = asset === null ? null : await candlesFor(deps, asset.id, request.timeframe, limit);
  const plan =
    asset === null || record.opened_at === null
      ? null
      : await publishedPlanAtEntry(deps.storage, {
          asset_id: asset.id,
          timeframe: request.timeframe,
          side: record.side,
          entry_time: record.opened_at,
        });
  let assessment: PositionAssessment;
  try {
    assessment = assessPosition({
      position,
      candles: series?.candles ?? null,
      timeframe: request.timeframe,
      published_plans: plan === null ? [] : [plan],
    });
  } catch (err) {
    if (err instanceof AssessmentError) throw new AppError(NOT_ASSESSABLE[err.reason], err.message);
    throw err;
  }
  // Core knows only whether the position carried a mark; a mark the service's market data supplied is `market`.
  const source = assessment.mark_source === 'venue' && markSource === 'market' ? 'market' : assessment.mark_source;
  return positionAnalysisWire({
    position,
    candles: series,
    timeframe: request.timeframe,
    assessment: { ...assessment, mark_source: source },
  });
}
