/**
 * A percent-change alert: fires when the change of a close over one column (1h, 24h, 7d) reaches
 * the target; a positive target watches a rise, a negative one a fall.
 */
import { ALERT_KIND_WINDOWS, TARGET_RANGES } from '@marketlens/contract';
import type { Ticker, Timeframe } from '@marketlens/exchanges';
import { formatPct } from '../push/notices.js';
import type { AlertKindSpec } from './kind.js';

/** The change columns of percent-change alerts: the candle they are evaluated at, and how many make the column. */
export const CHANGE_COLUMN_CANDLES: Readonly<Record<string, { timeframe: Timeframe; candles: number }>> = {
  '1h': { timeframe: 'm5', candles: 12 },
  '24h': { timeframe: 'h1', candles: 24 },
  '7d': { timeframe: 'h4', candles: 42 },
};

/** A ticker's % change over a percent-change alert's column (`1h`, `24h`, `7d`; 24h by default). */
function changeColumnOf(ticker: Ticker, column: string | null): number | null {
  if (column === '1h') return ticker.change_1h_pct;
  if (column === '7d') return ticker.change_7d_pct;
  return ticker.change_24h_pct;
}

export const percentChangeKind: AlertKindSpec = {
  payload: { target: TARGET_RANGES.percent_change, timeframes: ALERT_KIND_WINDOWS.percent_change },
  // A close compared with the close one column earlier.
  window(alert) {
    const column = CHANGE_COLUMN_CANDLES[alert.evaluates_as ?? ''] ?? CHANGE_COLUMN_CANDLES['24h'];
    return { timeframe: column.timeframe, warmup: column.candles };
  },
  // Armed with the column's change now, as the listing's live value reads it.
  arm: async (arming) => ({
    reference: changeColumnOf(await arming.ticker(), arming.evaluates_as),
    direction: arming.target > 0 ? 'above' : 'below',
  }),
  evaluate({ alert, candles, first, hit }) {
    const { close } = candles;
    const back = percentChangeKind.window(alert).warmup;
    for (let i = Math.max(first, back); i < close.length; i++) {
      const pct = (close[i] / close[i - back] - 1) * 100;
      if (alert.target > 0 ? pct >= alert.target : pct <= alert.target) return hit(i, pct);
    }
    return null;
  },
  live: async (_deps, alert, ticker) => changeColumnOf(ticker, alert.evaluates_as),
  // A percent-change push is captioned with the window it is evaluated over.
  text: (alert, name, hit) => ({
    title: `${name} ${formatPct(hit.value)} (${alert.evaluates_as})`,
    body: `${name} moved ${formatPct(hit.value)} over ${alert.evaluates_as}; your alert was ${formatPct(alert.target)}`,
    caption: alert.evaluates_as,
  }),
};
