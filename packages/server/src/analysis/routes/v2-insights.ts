import { FearGreedQuery, ok } from '@marketlens/contract';
import { type RunOperation, routesOf, type Serve } from '../../platform/operation.js';

// ---- /v2/insights ----

const route = routesOf('Insights');

const insightsRoute = route('analysis.insights', {
  method: 'get',
  path: '/v2/insights',
  operationId: 'getInsights',
  summary: 'Market insights: live prices of the top coins, perpetual funding, market breadth',
  description:
    'Tickers are read at most once a minute; breadth compares each coin’s live daily close with its 50-day simple average and counts advancers and decliners on the 24h change.',
  ok: ['The insights', 'InsightsEnvelope'],
});

// ---- /v2/insights/fear_greed ----

const fearGreedRoute = route('analysis.fearGreed', {
  method: 'get',
  path: '/v2/insights/fear_greed',
  operationId: 'listFearGreed',
  summary: 'Top crypto assets ranked by Fear & Greed score',
  description:
    'The Fear & Greed of each coin on its newest daily candles (the live one included), with the funding of its perpetual when it has one. Sorted by `sort` (`score` by default, or `volume`, `change_24h`) in `sort_dir` (`desc` by default). One computation is served for up to a minute.',
  request: { query: FearGreedQuery },
  ok: ['The ranked assets', 'FearGreedListEnvelope'],
});

export function registerInsightRoutes(serve: Serve, run: RunOperation): void {
  serve(insightsRoute, async (c) => c.json(ok(await run(c, 'analysis.insights', {})), 200));
  serve(fearGreedRoute, async (c) => {
    const query = c.req.valid('query');
    const result = await run(c, 'analysis.fearGreed', {
      ...query,
      exclude_stables: query.exclude_stables === 'true',
    });
    return c.json(ok(result), 200);
  });
}
