import { FREE_SIGNAL_ROWS, ok, ScreenerQuery, signalListQuery } from '@marketlens/contract';
import { SIGNAL_CONTROLS } from '@marketlens/core';
import type { RunOperation, Serve } from '../../platform/operation.js';
import { restTable, serveTable } from '../../platform/rest-table.js';

const SignalListQuery = signalListQuery(SIGNAL_CONTROLS);

/** The screener and the signal list of an asset class. */
const screenerRoutes = restTable('Assets', {
  'analysis.screener': [
    {
      get: '/v2/assets/screener',
      id: 'getAssetScreener',
      query: ScreenerQuery,
      ok: ['The three screens', 'ScreenerEnvelope'],
    },
    'Breakouts, oversold zones and volume surges over an asset class (d1)',
    'Screens every asset of `asset_class` (stablecoins left out) at its live d1 candle: volume-confirmed breakouts of a zone or the 20-day channel, RSI-led oversold readings near a support, and volume surges (z-score >= 2). Takes `asset_class` only; signal-list controls are ignored. One computation is served per class for up to a minute.',
  ],
  'analysis.signals': [
    {
      get: '/v2/assets/signals',
      id: 'listAssetSignals',
      query: SignalListQuery,
      ok: ['The signal list', 'SignalListEnvelope'],
      errors: [402],
    },
    'Signal list over an asset class, filtered and sorted by the ten signal controls',
    `One row per asset (stablecoins left out): signal action, confidence and score, trend, RSI, breakout, volume, Fear & Greed, distances to support and resistance, candlestick patterns, computed on the newest 500 candles of \`timeframe\` like \`GET /v2/analysis/{asset_id}\`. The ten controls (published in \`/v2/config\` under \`signals\`) are Pro: a caller without Pro naming any of them, whatever its value, gets 402 \`SignalControlsRestricted\`; without controls it gets the top ${FREE_SIGNAL_ROWS} rows by confidence (\`restricted: true\`). A malformed control value is 400. Rows are served from a per-minute computation.`,
  ],
});

export function registerScreenerRoutes(serve: Serve, run: RunOperation): void {
  serveTable(serve, run, screenerRoutes, {
    // The controls are read from the raw query (each as sent, a list when repeated): the use case
    // checks the tier for them and parses their values.
    'analysis.signals': async (c) => {
      const { timeframe, asset_class, limit } = c.req.valid('query');
      const result = await run(c, 'analysis.signals', { timeframe, asset_class, limit, controls: c.req.queries() });
      c.header('vary', 'x-session-token, x-api-key');
      return c.json(ok(result), 200);
    },
  });
}
