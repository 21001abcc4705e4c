import { FREE_SIGNAL_ROWS, ok, ScreenerQuery, signalListQuery } from '@marketlens/contract';
import { SIGNAL_CONTROLS } from '@marketlens/core';
import { actorOf } from '../../platform/actor.js';
import { type RunOperation, routesOf, type Serve } from '../../platform/operation.js';
import type { AnalysisUseCases } from '../use-cases.js';

// ---- screener ----

const route = routesOf('Assets');

const screenerRoute = route('analysis.screener', {
  method: 'get',
  path: '/v2/assets/screener',
  operationId: 'getAssetScreener',
  summary: 'Breakouts, oversold zones and volume surges over an asset class (d1)',
  description:
    'Screens every asset of `asset_class` (stablecoins left out) at its live d1 candle: volume-confirmed breakouts of a zone or the 20-day channel, RSI-led oversold readings near a support, and volume surges (z-score >= 2). Takes `asset_class` only; signal-list controls are ignored. One computation is served per class for up to a minute.',
  request: { query: ScreenerQuery },
  ok: ['The three screens', 'ScreenerEnvelope'],
});

// ---- signal list ----

const SignalListQuery = signalListQuery(SIGNAL_CONTROLS);

const signalsRoute = route('analysis.signals', {
  method: 'get',
  path: '/v2/assets/signals',
  operationId: 'listAssetSignals',
  summary: 'Signal list over an asset class, filtered and sorted by the ten signal controls',
  description: `One row per asset (stablecoins left out): signal action, confidence and score, trend, RSI, breakout, volume, Fear & Greed, distances to support and resistance, candlestick patterns, computed on the newest 500 candles of \`timeframe\` like \`GET /v2/analysis/{asset_id}\`. The ten controls (published in \`/v2/config\` under \`signals\`) are Pro: a caller without Pro naming any of them, whatever its value, gets 402 \`SignalControlsRestricted\`; without controls it gets the top ${FREE_SIGNAL_ROWS} rows by confidence (\`restricted: true\`). A malformed control value is 400. Rows are served from a per-minute computation.`,
  request: { query: SignalListQuery },
  ok: ['The signal list', 'SignalListEnvelope'],
  errors: [402],
});

export function registerScreenerRoutes(serve: Serve, run: RunOperation, analysis: AnalysisUseCases): void {
  serve(screenerRoute, async (c) => c.json(ok(await run(c, 'analysis.screener', c.req.valid('query'))), 200));
  // Not through `run`: the REST list also takes the ten paid controls (the raw query), which the
  // declared operation (MCP's `get_trading_signals`) does not name (docs/decisions.md).
  serve(signalsRoute, async (c) => {
    const result = await analysis.signals(actorOf(c), c.req.valid('query'), c.req.queries());
    c.header('vary', 'x-session-token, x-api-key');
    return c.json(ok(result), 200);
  });
}
