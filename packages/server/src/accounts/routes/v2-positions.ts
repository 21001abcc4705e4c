import { type OpenAPIHono, z } from '@hono/zod-openapi';
import {
  assetIdsOf,
  EditPositionBody,
  envelopeOf,
  LegacyPositionsSchema,
  ok,
  PositionAnalysisQuery,
  PositionAnalysisSchema,
  PositionIdParams,
  PositionSchema,
  PositionsQuery,
  PositionsSchema,
} from '@marketlens/contract';
import { PUBLIC, requireUser, SESSION_ONLY } from '../../auth/authorize.js';
import type { AppEnv } from '../../platform/deps.js';
import { AppError } from '../../platform/errors/app-error.js';
import { operation } from '../../platform/operation.js';
import {
  analyzePosition,
  editPositionNotes,
  legacyPositions,
  listPositions,
  type PublishedPlanLookup,
  recordedPublishedPlans,
} from '../portfolio.js';

const json = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});

// Path parameters are named by the object's keys; no `.openapi()` call here, because schemas from
// @marketlens/mcp may have been built before @hono/zod-openapi extended zod (import order).
const PositionParams = PositionIdParams;

const listRoute = operation(SESSION_ONLY, {
  method: 'get',
  path: '/v2/positions',
  operationId: 'listPositions',
  tags: ['Positions'],
  summary: 'Every open position, priced or not, with the portfolio totals',
  description:
    "All open positions of the user's connected accounts in one list; an unpriced position has null figures (never 0) and is counted in the totals' counts but not in their money sums. `asset_ids` (comma-separated or repeated) keeps positions of those assets; `coin_ids` is its deprecated alias. Mobile builds below 3.9.26 get the earlier split shape (`LegacyPositions`: tracked positions only, unpriced ones apart).",
  request: { query: PositionsQuery },
  responses: {
    200: json(
      envelopeOf(z.union([PositionsSchema, LegacyPositionsSchema]), 'PositionsEnvelope'),
      'Positions and totals',
    ),
  },
});

const editRoute = operation(
  SESSION_ONLY,
  {
    method: 'patch',
    path: '/v2/positions/{position_id}',
    operationId: 'editPosition',
    tags: ['Positions'],
    summary: "Edit a position's notes",
    description:
      '`notes` is the only writable field: `stop_loss`, `take_profit` (set by the venue protective-order sync) and `visible` (always false) answer 400, as does any other key. A missing, closed or foreign position: 404 `PositionNotFound`.',
    request: {
      params: PositionParams,
      body: { content: { 'application/json': { schema: EditPositionBody } }, required: true },
    },
    responses: { 200: json(envelopeOf(PositionSchema, 'PositionEnvelope'), 'The position with its new notes') },
  },
  [404, 503],
);

const analysisRoute = operation(
  SESSION_ONLY,
  {
    method: 'get',
    path: '/v2/positions/{position_id}/analysis',
    operationId: 'getPositionAnalysis',
    tags: ['Positions'],
    summary: 'Assessment of an open position against the analysis zones (descriptive only)',
    description:
      "Candles of the position's asset (its perpetual preferred) from the service's market data. Gates as `/v2/analysis`: timeframes other than `d1` need Pro (402, code 1004; `h1` is free for mobile builds below 3.9.30); a `limit` above 500 needs Pro (402, code 1005). 422 with a reason code: `PositionUnpricedWithoutAsset`, `PositionUnpricedWithoutCandles`, `PositionMarkNotPositive`, `PositionEntryNotPositive`. A missing, closed or foreign position: 404 `PositionNotFound`.",
    request: { params: PositionParams, query: PositionAnalysisQuery },
    responses: { 200: json(envelopeOf(PositionAnalysisSchema, 'PositionAnalysisEnvelope'), 'The assessment') },
  },
  [402, 404, 422, 503],
);

const DEPRECATED_METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/**
 * `/v2/positions/manual` and everything below it (section 9.5): every method answers 410
 * `EndpointDeprecated`, to anyone. Left out of the OpenAPI document: a wildcard is no OpenAPI path,
 * and documenting a route that only ever fails would advertise it.
 */
const manualRoutes = ['/v2/positions/manual', '/v2/positions/manual/*'].flatMap((path) =>
  DEPRECATED_METHODS.map((method) =>
    operation(
      PUBLIC,
      {
        method,
        path,
        hide: true,
        operationId: `manualPosition${method[0].toUpperCase()}${method.slice(1)}${path.endsWith('*') ? 'Any' : ''}`,
        summary: 'Deprecated: manual positions are no longer supported',
        responses: {},
      },
      [410],
    ),
  ),
);

/** Options of {@link registerPositionRoutes}. */
export interface PositionRouteOptions {
  /** Published plans for `published_at_entry`; default: the recorded ones (analysis/plans). */
  publishedPlans?: PublishedPlanLookup;
}

function deprecated(): never {
  throw new AppError(
    'EndpointDeprecated',
    'Manual positions are deprecated and no longer served; positions come from connected exchange accounts',
  );
}

export function registerPositionRoutes(app: OpenAPIHono<AppEnv>, options: PositionRouteOptions = {}): void {
  const publishedPlans = options.publishedPlans ?? recordedPublishedPlans;
  // First, so `/v2/positions/manual/...` never reaches the `{position_id}` routes.
  for (const route of manualRoutes) app.openapi(route, deprecated);
  app.openapi(listRoute, async (c) => {
    const { user } = requireUser(c.get('caller'));
    const view = await listPositions(c.get('deps'), user.id, assetIdsOf(c.req.valid('query')));
    return c.json(ok(c.get('client').legacyShapes ? legacyPositions(view) : view), 200);
  });
  app.openapi(editRoute, async (c) => {
    const { user } = requireUser(c.get('caller'));
    const { position_id } = c.req.valid('param');
    return c.json(ok(await editPositionNotes(c.get('deps'), user.id, position_id, c.req.valid('json').notes)), 200);
  });
  app.openapi(analysisRoute, async (c) => {
    const caller = requireUser(c.get('caller'));
    const result = await analyzePosition(
      c.get('deps'),
      caller,
      c.get('client'),
      caller.user.id,
      c.req.valid('param').position_id,
      c.req.valid('query'),
      publishedPlans,
    );
    return c.json(ok(result), 200);
  });
}
