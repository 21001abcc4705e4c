import {
  envelopeOf,
  ok,
  PilotSpectateSchema,
  PilotTrackRecordQuery,
  PilotTrackRecordSchema,
} from '@marketlens/contract';
import { operation, type RunOperation, type Serve } from '../../platform/operation.js';
import { PILOT_PAGE_SIZE } from '../views.js';

const ELIGIBILITY =
  'Session only. Eligibility: 30-day affiliate volume at or above the threshold on the supported affiliate exchanges; an ineligible caller gets 403 `PilotNotEligible`.';

const spectateRoute = operation('pilot.spectate', {
  method: 'get',
  path: '/pilot/spectate',
  operationId: 'getPilotSpectate',
  tags: ['Pilot'],
  summary: "The pilot's open positions with live excursions, and its account",
  description: `The pilot is the service's paper-trading bot: it takes the service's own published plans on its universe, 70% out at target 1 and 30% at target 2 or the stop, with the 0.20% cost. ${ELIGIBILITY}`,
  responses: {
    200: {
      description: 'The pilot now',
      content: { 'application/json': { schema: envelopeOf(PilotSpectateSchema, 'PilotSpectateEnvelope') } },
    },
  },
});

const trackRecordRoute = operation('pilot.trackRecord', {
  method: 'get',
  path: '/pilot/spectate/track-record',
  operationId: 'getPilotSpectateTrackRecord',
  tags: ['Pilot'],
  summary: "The pilot's closed trades, equity curve, best and worst trade, per-asset figures",
  description: `Pages of ${PILOT_PAGE_SIZE} closed trades, oldest first; \`before_trade=<index>\` returns the page ending before that trade index, and \`trades_truncated\` says older trades exist (ask again with \`next_before_trade\`). Best, worst, by_asset and summary cover every closed trade. ${ELIGIBILITY}`,
  request: { query: PilotTrackRecordQuery },
  responses: {
    200: {
      description: 'The track record',
      content: {
        'application/json': { schema: envelopeOf(PilotTrackRecordSchema, 'PilotTrackRecordEnvelope') },
      },
    },
  },
});

export function registerPilotRoutes(serve: Serve, run: RunOperation): void {
  serve(spectateRoute, async (c) => c.json(ok(await run(c, 'pilot.spectate', {})), 200));
  serve(trackRecordRoute, async (c) => c.json(ok(await run(c, 'pilot.trackRecord', c.req.valid('query'))), 200));
}
