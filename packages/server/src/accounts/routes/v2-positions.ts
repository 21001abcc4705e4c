import { z } from '@hono/zod-openapi';
import {
  EditPositionBody,
  LegacyPositionsSchema,
  PositionAnalysisQuery,
  PositionIdParams,
  PositionsQuery,
  PositionsSchema,
} from '@marketlens/contract';
import { PUBLIC } from '../../auth/authorize.js';
import { AppError } from '../../platform/errors/app-error.js';
import { operation, type RunOperation, type Serve } from '../../platform/operation.js';
import { restTable, serveTable } from '../../platform/rest-table.js';

// Path parameters are named by the object's keys; no `.openapi()` call here, because schemas from
// @marketlens/mcp may have been built before @hono/zod-openapi extended zod (import order).
const PositionParams = PositionIdParams;

/** The open positions: the list (and its legacy shape for old mobile builds), notes, assessment. */
const positionRoutes = restTable('Positions', {
  'accounts.positions': [
    {
      get: '/v2/positions',
      id: 'listPositions',
      query: PositionsQuery,
      ok: ['Positions and totals', 'PositionsEnvelope'],
      data: z.union([PositionsSchema, LegacyPositionsSchema]),
    },
    'Every open position, priced or not, with the portfolio totals',
    "All open positions of the user's connected accounts in one list; an unpriced position has null figures (never 0) and is counted in the totals' counts but not in their money sums. `asset_ids` (comma-separated or repeated) keeps positions of those assets; `coin_ids` is its deprecated alias. Mobile builds below 3.9.26 get the earlier split shape (`LegacyPositions`: tracked positions only, unpriced ones apart).",
  ],
  'accounts.editPosition': [
    {
      patch: '/v2/positions/{position_id}',
      id: 'editPosition',
      params: PositionParams,
      json: EditPositionBody,
      ok: ['The position with its new notes', 'PositionEnvelope'],
      errors: [404, 503],
    },
    "Edit a position's notes",
    '`notes` is the only writable field: `stop_loss`, `take_profit` (set by the venue protective-order sync) and `visible` (always false) answer 400, as does any other key. A missing, closed or foreign position: 404 `PositionNotFound`.',
  ],
  'accounts.positionAnalysis': [
    {
      get: '/v2/positions/{position_id}/analysis',
      id: 'getPositionAnalysis',
      params: PositionParams,
      query: PositionAnalysisQuery,
      ok: ['The assessment', 'PositionAnalysisEnvelope'],
      errors: [402, 404, 422, 503],
    },
    'Assessment of an open position against the analysis zones (descriptive only)',
    "Candles of the position's asset (its perpetual preferred) from the service's market data. Gates as `/v2/analysis`: timeframes other than `d1` need Pro (402, code 1004; `h1` is free for mobile builds below 3.9.30); a `limit` above 500 needs Pro (402, code 1005). 422 with a reason code: `PositionUnpricedWithoutAsset`, `PositionUnpricedWithoutCandles`, `PositionMarkNotPositive`, `PositionEntryNotPositive`. A missing, closed or foreign position: 404 `PositionNotFound`.",
  ],
});

const DEPRECATED_METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/**
 * `/v2/positions/manual` and everything below it: every method answers 410
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

function deprecated(): never {
  throw new AppError(
    'EndpointDeprecated',
    'Manual positions are deprecated and no longer served; positions come from connected exchange accounts',
  );
}

export function registerPositionRoutes(serve: Serve, run: RunOperation): void {
  // First, so `/v2/positions/manual/...` never reaches the `{position_id}` routes.
  for (const route of manualRoutes) serve(route, deprecated);
  serveTable(serve, run, positionRoutes);
}
