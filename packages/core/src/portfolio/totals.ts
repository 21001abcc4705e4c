import { checkArray, decSum, toNum } from './internal.js';
import type { PositionExtended } from './positions.js';

/** Portfolio totals over a list of positions (`GET /v2/positions`, MCP `get_portfolio_summary`). */
export interface PortfolioTotals {
  /** Every open position, priced or not. */
  open_positions_count: number;
  /** Open long positions, priced or not. */
  open_long_positions_count: number;
  /** Open short positions, priced or not. */
  open_short_positions_count: number;
  /** Positions with a mark (`current_price` not null). */
  priced_positions_count: number;
  /** Positions without a mark; they are counted above but excluded from every money total. */
  unpriced_positions_count: number;
  /** Sum of `market_value_usd` over priced positions. */
  total_market_value_usd: number | null;
  /** Sum of `unrealized_pnl_usd` over priced positions. */
  total_unrealized_pnl_usd: number | null;
  /** Sum of `daily_pnl_usd` over priced positions. */
  total_daily_pnl_usd: number | null;
  /** Sum of `weekly_pnl_usd` over priced positions. */
  total_weekly_pnl_usd: number | null;
  /** Sum of `margin_usd` over priced positions. */
  total_margin_usd: number | null;
}

type UsdField = 'market_value_usd' | 'unrealized_pnl_usd' | 'daily_pnl_usd' | 'weekly_pnl_usd' | 'margin_usd';

/**
 * Portfolio totals: `open_positions_count` and its long / short siblings count
 * every position, unpriced ones included (a position of unknown side counts in neither sibling);
 * money totals exclude unpriced positions.
 *
 * Each money total is the exact decimal sum (decimal.js) of that USD figure over the priced positions
 * that report it, rounded once to a double with `toNumber()`: it adds up exactly to the per-position
 * figures a client shows. A total is null when positions exist but none reports the figure (all
 * unpriced, or no USD rate), and 0 for an empty portfolio.
 */
export function portfolioTotals(positions: readonly PositionExtended[]): PortfolioTotals {
  checkArray(positions, 'positions');
  let long = 0;
  let short = 0;
  let priced = 0;
  const values: Record<UsdField, number[]> = {
    market_value_usd: [],
    unrealized_pnl_usd: [],
    daily_pnl_usd: [],
    weekly_pnl_usd: [],
    margin_usd: [],
  };
  for (const p of positions) {
    if (p.side === 'long') long++;
    else if (p.side === 'short') short++;
    if (p.current_price === null) continue;
    priced++;
    for (const key of Object.keys(values) as UsdField[]) {
      const v = p[key];
      if (v !== null) values[key].push(v);
    }
  }
  const total = (key: UsdField): number | null =>
    positions.length > 0 && values[key].length === 0 ? null : toNum(decSum(values[key]));
  return {
    open_positions_count: positions.length,
    open_long_positions_count: long,
    open_short_positions_count: short,
    priced_positions_count: priced,
    unpriced_positions_count: positions.length - priced,
    total_market_value_usd: total('market_value_usd'),
    total_unrealized_pnl_usd: total('unrealized_pnl_usd'),
    total_daily_pnl_usd: total('daily_pnl_usd'),
    total_weekly_pnl_usd: total('weekly_pnl_usd'),
    total_margin_usd: total('margin_usd'),
  };
}
