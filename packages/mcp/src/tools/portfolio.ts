/**
 * Portfolio tools over the user's connected exchange accounts: positions, totals, balances, orders,
 * trades, a position's assessment against the published zones, and its notes. Unpriced rows are
 * listed like the others with their mark and PnL written `unavailable`.
 */

import { fillFilterOf, OrdersQuery, PortfolioTotalsSchema, TradesQuery } from '@marketlens/contract';
import type { Balance, Order, PortfolioTotals, Position, Trade } from '../backend.js';
import { lines, num, pct, signed, usd } from '../render.js';
import { defineTool, type ToolDefinition } from '../tool.js';
import { assetName } from './market.js';

/** One position, priced or not: an unpriced one shows `unavailable` for its mark, value and PnL. */
export function renderPosition(p: Position): string {
  const what = p.asset ? assetName(p.asset) : 'untracked asset';
  const stop = p.stop_loss === null ? 'none' : num(p.stop_loss);
  const target = p.take_profit === null ? 'none' : num(p.take_profit);
  return lines(
    `- ${p.pair} ${p.side ?? 'side unknown'} ${num(p.size)} (${what}, ${p.connection_id}, id ${p.id}): entry ${num(p.entry_price)}, mark ${num(p.current_price)}, value ${num(p.market_value)}, unrealized PnL ${signed(p.unrealized_pnl)} (${p.unrealized_pnl_usd === null ? 'unavailable' : usd(p.unrealized_pnl_usd)}), daily PnL ${signed(p.daily_pnl)}`,
    `  leverage ${num(p.leverage, 2)}, liquidation ${num(p.liquidation_price)}, stop loss ${stop}, take profit ${target}${p.notes ? `, notes: ${p.notes}` : ''}`,
  );
}

/** The portfolio header: counts include unpriced positions (named as such); money totals exclude them. */
export function renderTotals(t: PortfolioTotals): string {
  const unpriced = t.unpriced_positions_count;
  return lines(
    `Open positions: ${t.open_positions_count} (${t.open_long_positions_count} long, ${t.open_short_positions_count} short; ${t.priced_positions_count} priced, ${unpriced} unpriced position${unpriced === 1 ? '' : 's'})`,
    `Market value ${usd(t.total_market_value_usd)}, unrealized PnL ${usd(t.total_unrealized_pnl_usd)}, daily PnL ${usd(t.total_daily_pnl_usd)}, weekly PnL ${usd(t.total_weekly_pnl_usd)}, margin ${usd(t.total_margin_usd)}${unpriced > 0 ? ' (priced positions only)' : ''}`,
  );
}

const renderBalance = (b: Balance) =>
  `- ${b.symbol} ${num(b.balance)} (${b.asset ? assetName(b.asset) : 'untracked'}, ${b.connection_id}/${b.account}): ${usd(b.balance_usd)}, ${b.percentage_of_total === null ? 'unavailable' : pct(b.percentage_of_total).replace('+', '')} of total`;

const renderOrder = (o: Order) =>
  `- ${o.last_fill_at} ${o.side} ${num(o.size)} ${o.pair} @ ${num(o.price)} (${o.connection_id}, ${o.fills_count} fill${o.fills_count === 1 ? '' : 's'}, order ${o.id}): fee ${num(o.fee)}, PnL ${signed(o.pnl)}`;

const renderTrade = (t: Trade) =>
  `- ${t.executed_at} ${t.side} ${num(t.size)} ${t.pair} @ ${num(t.price)} (${t.connection_id}, ${t.external_id}): fee ${num(t.fee)}, PnL ${signed(t.pnl)}`;

const getPositions = defineTool({
  name: 'get_positions',
  title: 'Positions',
  description:
    'All your open positions across connected exchanges, priced or not, with the portfolio totals. A position without a live mark shows its mark and PnL as unavailable. Filter with asset_ids.',
  operation: 'accounts.positions',
  text: (d) => lines(renderTotals(d.totals), ...d.positions.map(renderPosition)),
});

const getPortfolioSummary = defineTool({
  name: 'get_portfolio_summary',
  title: 'Portfolio summary',
  description:
    'Portfolio totals: open positions (long, short, unpriced) and the USD market value, unrealized, daily and weekly PnL and margin of the priced ones.',
  operation: 'accounts.positions',
  output: PortfolioTotalsSchema,
  data: (d) => ({ ...d.totals }),
  text: (d) => renderTotals(d.totals),
});

const getBalances = defineTool({
  name: 'get_balances',
  title: 'Balances',
  description:
    'Your balances per exchange account and currency with USD value and share of the total; a currency without a USD price shows unavailable.',
  operation: 'accounts.balances',
  text: (d) =>
    lines(
      `Balances: ${d.balances.length} (${d.priced_count} priced, ${d.unpriced_count} unpriced); total ${usd(d.total_usd)}${d.unpriced_count > 0 ? ' (priced balances only)' : ''}`,
      ...d.balances.map(renderBalance),
    ),
});

const getOrders = defineTool({
  name: 'get_orders',
  title: 'Orders',
  description:
    'Your orders aggregated from their fills (average price, summed size, fee and PnL), newest first; filter by account, exchange, pair, asset, side and time; paged with limit (default 50, at most 200) and offset.',
  input: OrdersQuery,
  request: fillFilterOf,
  operation: 'accounts.orders',
  text: (d, input) => lines(pageLine('Orders', d.orders.length, d.total, input), ...d.orders.map(renderOrder)),
});

/** `Orders: 50 of 120 (offset 0); next page: offset 50`: the cursor in the text too, for a model that reads only text. */
function pageLine(what: string, shown: number, total: number, page: { offset: number }): string {
  const next = page.offset + shown;
  const more = shown > 0 && next < total ? `; next page: offset ${next}` : '';
  return `${what}: ${shown} of ${total} (offset ${page.offset})${more}`;
}

const getTrades = defineTool({
  name: 'get_trades',
  title: 'Trades',
  description:
    'Your individual fills, newest first, with the same filters as get_orders; paged with limit (default 50, at most 200) and offset.',
  input: TradesQuery,
  request: fillFilterOf,
  operation: 'accounts.trades',
  text: (d, input) => lines(pageLine('Trades', d.trades.length, d.total, input), ...d.trades.map(renderTrade)),
});

const positionAnalysis = defineTool({
  name: 'position_analysis',
  title: 'Position analysis',
  description:
    'Assesses an open position against the published analysis zones: thesis status, R multiples, stop placement, liquidation risk, excursions and warnings. Descriptive only: no advice. Timeframes other than d1 need Pro.',
  operation: 'accounts.positionAnalysis',
  text: (a, input) =>
    lines(
      `Position ${input.position_id} (${input.timeframe}): thesis ${a.thesis_status}`,
      `Mark ${num(a.mark)}, entry ${num(a.entry_price)}, stop loss ${a.stop_loss === null ? 'none' : num(a.stop_loss)}, take profit ${a.take_profit === null ? 'none' : num(a.take_profit)}`,
      `Unrealized R ${num(a.unrealized_r, 2)}, remaining reward/risk ${num(a.remaining_rr, 2)}`,
      `Warnings: ${a.warnings.length > 0 ? a.warnings.join(', ') : 'none'}`,
    ),
});

const editPosition = defineTool({
  name: 'edit_position',
  title: 'Edit position notes',
  description:
    "Sets the notes of one of your positions (null or '' clears them). Only notes can be edited: stop loss and take profit come from the exchange's protective orders.",
  operation: 'accounts.editPosition',
  text: (p) => lines('Notes saved.', renderPosition(p)),
});

/** The portfolio tools, in catalog order. */
export const PORTFOLIO_TOOLS: readonly ToolDefinition[] = [
  getPositions,
  getPortfolioSummary,
  getBalances,
  getOrders,
  getTrades,
  positionAnalysis,
  editPosition,
];
