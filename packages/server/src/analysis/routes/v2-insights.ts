import { FearGreedQuery, ok } from '@marketlens/contract';
import type { RunOperation, Serve } from '../../platform/operation.js';
import { restTable, serveTable } from '../../platform/rest-table.js';

const insightRoutes = restTable('Insights', {
  'analysis.insights': [
    { get: '/v2/insights', id: 'getInsights', ok: ['The insights', 'InsightsEnvelope'] },
    'Market insights: live prices of the top coins, perpetual funding, market breadth',
    'Tickers are read at most once a minute; breadth compares each coin’s live daily close with its 50-day simple average and counts advancers and decliners on the 24h change.',
  ],
  'analysis.fearGreed': [
    {
      get: '/v2/insights/fear_greed',
      id: 'listFearGreed',
      query: FearGreedQuery,
      ok: ['The ranked assets', 'FearGreedListEnvelope'],
    },
    'Top crypto assets ranked by Fear & Greed score',
    'The Fear & Greed of each coin on its newest daily candles (the live one included), with the funding of its perpetual when it has one. Sorted by `sort` (`score` by default, or `volume`, `change_24h`) in `sort_dir` (`desc` by default). One computation is served for up to a minute.',
  ],
});

export function registerInsightRoutes(serve: Serve, run: RunOperation): void {
  serveTable(serve, run, insightRoutes, {
    // The query's `exclude_stables` is the text `true` or `false`; the operation takes a boolean.
    'analysis.fearGreed': async (c) => {
      const query = c.req.valid('query');
      const input = { ...query, exclude_stables: query.exclude_stables === 'true' };
      return c.json(ok(await run(c, 'analysis.fearGreed', input)), 200);
    },
  });
}
