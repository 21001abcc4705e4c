import type { z } from '@hono/zod-openapi';
import {
  AnalysisByQuery,
  AnalysisQuery,
  AnalysisSchema,
  AssetIdParams,
  AssetMarketsQuery,
  envelopeOf,
  LocaleHeader,
  ok,
  SignalResponseSchema,
} from '@marketlens/contract';
import type { Context, TypedResponse } from 'hono';
import type { AppEnv } from '../../platform/deps.js';
import { cachedResponder } from '../../platform/http-cache/cached-body.js';
import { json, operation, type RunOperation, type Serve } from '../../platform/operation.js';
import { restTable, serveTable } from '../../platform/rest-table.js';
import { type AnalysisRequest, type AnalysisWire, analysisEnvelope } from '../analysis.js';

const GATES =
  'Gates: `d1` is free; other timeframes need Pro (402, code 1004), except `h1` for mobile builds below 3.9.30; on-chain (`external`) assets are free on every timeframe; a `limit` deeper than the free candle ceiling needs Pro (402, code 1005). Unknown asset: 400 `UnknownAsset`; a pair the venue does not list for it: 404 `UnknownMarket`; a stablecoin: 400 `StablecoinNotAnalyzed`; an unknown `connection`: 404 `UnknownExchange`.';

const AnalysisEnvelope = envelopeOf(AnalysisSchema, 'AnalysisEnvelope');

const VARY = 'x-session-token, x-api-key, x-platform, x-app-version';

const text = (description: string) => ({ description, schema: { type: 'string' as const } });

/** The validators of a cached analysis, sent on its 200 and its 304 alike. */
const VALIDATOR_HEADERS = {
  etag: text(
    'Strong entity tag of the bytes sent (a hash; a compressed body has its own). Send it back in `If-None-Match` to get a 304 while the analysis is unchanged',
  ),
  'cache-control': text('private, no-cache: keep the analysis, and revalidate it with its entity tag before each use'),
  vary: text(`${VARY}, accept-encoding`),
};

const analysisDoc = {
  tags: ['Analysis'],
  summary: 'Full technical analysis of an asset: indicators, zones, trade plan, signal, Fear & Greed, regime',
  description: `The analysis of the newest \`limit\` closed candles ("on bar close": it stays fixed until the next candle closes), with the candle still forming reported as \`live\`. \`market_type\` in the response is the market actually served. The bytes change at most once a minute (the \`live\` block and \`fetched_at\` are refreshed each minute): \`If-None-Match\` with the \`etag\` received (a list, weak tags and \`*\` are understood) is answered 304 while they are the same; \`Accept-Encoding\` \`br\` or \`gzip\` (q-values honoured) gets a compressed body. ${GATES}`,
  responses: {
    200: {
      ...json(AnalysisEnvelope, 'The analysis'),
      headers: {
        ...VALIDATOR_HEADERS,
        'content-encoding': text('br or gzip when the client accepts one (absent: the identity)'),
      },
    },
    304: {
      description: 'Not modified: `If-None-Match` matches the entity tag of the analysis that would be sent',
      headers: VALIDATOR_HEADERS,
    },
  },
};

const analysisByQueryRoute = operation(
  'analysis.get',
  {
    method: 'get',
    path: '/v2/analysis',
    operationId: 'getAnalysis',
    request: { query: AnalysisByQuery },
    ...analysisDoc,
  },
  [402, 404, 503],
  { speculative: true },
);

const analysisRoute = operation(
  'analysis.get',
  {
    method: 'get',
    path: '/v2/analysis/{asset_id}',
    operationId: 'getAssetAnalysis',
    request: { params: AssetIdParams, query: AnalysisQuery },
    ...analysisDoc,
  },
  [402, 404, 503],
  { speculative: true },
);

const signalRoute = operation(
  'analysis.signal',
  {
    method: 'get',
    path: '/v2/analysis/{asset_id}/signal',
    operationId: 'getAssetSignal',
    tags: ['Analysis'],
    summary: 'Buy/Hold/Sell signal with confidence and factor breakdown (cached up to 1 hour, never past its candle)',
    description: `One computation is served for at most an hour per asset, timeframe, market and depth, and never longer than one candle of the timeframe (m5: 5 minutes); it turns at the close of the candle now forming. \`cached_at\` says when it was computed, \`age\` how long ago, and \`cache-control: max-age\` how long it stays: the rest of that limit, ending at the candle's close at the latest. ${GATES}`,
    request: { params: AssetIdParams, query: AnalysisQuery },
    responses: {
      200: {
        ...json(envelopeOf(SignalResponseSchema, 'AnalysisSignalEnvelope'), 'The signal'),
        headers: {
          'cache-control': {
            description: 'private, max-age=<seconds left of the hour or of the candle, whichever ends first>',
            schema: { type: 'string' },
          },
          age: { description: 'Seconds since the signal was computed', schema: { type: 'integer' } },
        },
      },
    },
  },
  [402, 404, 503],
);

/** The candles, the overview and the markets of an asset (the analysis and the signal are declared above). */
const assetRoutes = restTable('Analysis', {
  'analysis.candles': [
    {
      get: '/v2/analysis/{asset_id}/candles',
      id: 'getAssetCandles',
      params: AssetIdParams,
      query: AnalysisQuery,
      ok: ['The candles', 'AnalysisCandlesEnvelope'],
      errors: [402, 404, 503],
    },
    'The candles an analysis reads, with the live candle apart (for charts)',
    `The newest \`limit\` closed candles of the asset on the timeframe, exactly those \`GET /v2/analysis/{asset_id}\` with the same query analyses, oldest first, and the candle still forming as \`live\`. ${GATES}`,
  ],
  'analysis.overview': [
    {
      get: '/v2/analysis/{asset_id}/overview',
      id: 'getAssetOverview',
      params: AssetIdParams,
      query: AnalysisQuery,
      request: { headers: LocaleHeader },
      ok: ['The overview', 'AnalysisOverviewEnvelope'],
      errors: [402, 404, 503],
    },
    'Market overview narrative, localized by x-locale',
    `A short narrative built from the analysis facts; every number in it is one of \`facts\`. ${GATES}`,
  ],
  'analysis.markets': [
    {
      get: '/v2/analysis/{asset_id}/markets',
      id: 'getAssetMarkets',
      params: AssetIdParams,
      query: AssetMarketsQuery,
      ok: ['Markets, spot first', 'AssetMarketsEnvelope'],
      errors: [404, 503],
    },
    'Markets of an asset with their tickers (spot and derivatives combined unless market_type is given)',
    'Unknown asset: 400 `UnknownAsset`; an unknown `connection`: 404 `UnknownExchange`.',
  ],
});

const cachedAnalysis = cachedResponder({
  'content-type': 'application/json',
  // The bytes change within the minute at a moment the client cannot know (the live mark, a
  // candle closing); a revalidation costs a 304 of no body.
  'cache-control': 'private, no-cache',
  vary: VARY,
});

/**
 * The analysis's envelope as cached: its bytes as they are (or compressed once), or a 304. Typed
 * as the documented 200 JSON body, which the bytes are: `analysisEnvelope` stringifies
 * `ok(wire)`, and the contract test validates them against the schema.
 */
function served(c: Context<AppEnv>, wire: AnalysisWire) {
  const res = cachedAnalysis(c, analysisEnvelope(wire));
  return res as unknown as Response & TypedResponse<z.infer<typeof AnalysisEnvelope>, 200, 'json'>;
}

/**
 * The analysis answered through the operation `analysis.get`: at once when the answer is at hand
 * (a cache hit: the response leaves synchronously), else when it is computed. Either way the
 * answer is the wire of one computation, sent as its cached bytes or a 304 (see `served`).
 */
function answer(c: Context<AppEnv>, run: RunOperation, request: AnalysisRequest) {
  const hit = run.cached(c, 'analysis.get', request);
  return hit !== undefined ? served(c, hit) : run(c, 'analysis.get', request).then((wire) => served(c, wire));
}

const requests = new WeakMap<object, AnalysisRequest>();

/**
 * The request of `/v2/analysis/{asset_id}`: the query with the path's asset. Made once per
 * validated query object, which the operation keeps per URL, so a polled URL is one request
 * object and the analysis cache's key for it is made once per candle (`cachedAnalysisOf`).
 */
function assetRequest(query: Omit<AnalysisRequest, 'asset_id'>, assetId: string): AnalysisRequest {
  let request = requests.get(query);
  if (request === undefined || request.asset_id !== assetId) {
    request = { ...query, asset_id: assetId };
    requests.set(query, request);
  }
  return request;
}

export function registerAnalysisRoutes(serve: Serve, run: RunOperation): void {
  serve(analysisByQueryRoute, (c) => answer(c, run, c.req.valid('query')));
  serve(analysisRoute, (c) => answer(c, run, assetRequest(c.req.valid('query'), c.req.valid('param').asset_id)));
  serve(signalRoute, async (c) => {
    const request = { ...c.req.valid('query'), asset_id: c.req.valid('param').asset_id };
    const result = await run(c, 'analysis.signal', request);
    c.header('cache-control', `private, max-age=${result.max_age}`);
    c.header('age', String(result.age));
    c.header('vary', VARY);
    return c.json(ok(result), 200);
  });
  serveTable(serve, run, assetRoutes, {
    'analysis.candles': async (c) => {
      const request = { ...c.req.valid('query'), asset_id: c.req.valid('param').asset_id };
      const result = await run(c, 'analysis.candles', request);
      // The live candle moves with every read: never reused without asking.
      c.header('cache-control', 'private, no-cache');
      c.header('vary', VARY);
      return c.json(ok(result), 200);
    },
    'analysis.overview': async (c) => {
      const locale = c.req.valid('header')['x-locale'];
      const request = { ...c.req.valid('query'), asset_id: c.req.valid('param').asset_id, locale };
      const result = await run(c, 'analysis.overview', request);
      c.header('content-language', result.locale);
      c.header('vary', `x-locale, ${VARY}`);
      return c.json(ok(result), 200);
    },
  });
}
