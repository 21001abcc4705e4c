import { ok, PilotTrackRecordQuery } from '@marketlens/contract';
import { type RunOperation, routesOf, type Serve } from '../../platform/operation.js';
import { PILOT_PAGE_SIZE } from '../views.js';

const ELIGIBILITY =
  'Session only. Eligibility: 30-day affiliate volume at or above the threshold on the supported affiliate exchanges; an ineligible caller gets 403 `PilotNotEligible`.';

const route = routesOf('Pilot');

const spectateRoute = route('pilot.spectate', {
  method: 'get',
  path: '/pilot/spectate',
  operationId: 'getPilotSpectate',
  summary: "The pilot's open positions with live excursions, and its account",
  description: `The pilot is the service's paper-trading bot: it takes the service's own published plans on its universe, 70% out at target 1 and 30% at target 2 or the stop, with the 0.20% cost. ${ELIGIBILITY}`,
  ok: ['The pilot now', 'PilotSpectateEnvelope'],
});

const trackRecordRoute = route('pilot.trackRecord', {
  method: 'get',
  path: '/pilot/spectate/track-record',
  operationId: 'getPilotSpectateTrackRecord',
  summary: "The pilot's closed trades, equity curve, best and worst trade, per-asset figures",
  description: `Pages of ${PILOT_PAGE_SIZE} closed trades, oldest first; \`before_trade=<index>\` returns the page ending before that trade index, and \`trades_truncated\` says older trades exist (ask again with \`next_before_trade\`). Best, worst, by_asset and summary cover every closed trade. ${ELIGIBILITY}`,
  request: { query: PilotTrackRecordQuery },
  ok: ['The track record', 'PilotTrackRecordEnvelope'],
});

export function registerPilotRoutes(serve: Serve, run: RunOperation): void {
  serve(spectateRoute, async (c) => c.json(ok(await run(c, 'pilot.spectate', {})), 200));
  serve(trackRecordRoute, async (c) => c.json(ok(await run(c, 'pilot.trackRecord', c.req.valid('query'))), 200));
}
