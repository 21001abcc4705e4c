import { PilotTrackRecordQuery } from '@marketlens/contract';
import { restTable } from '../../platform/rest-table.js';
import { PILOT_PAGE_SIZE } from '../views.js';

const ELIGIBILITY =
  'Session only. Eligibility: 30-day affiliate volume at or above the threshold on the supported affiliate exchanges; an ineligible caller gets 403 `PilotNotEligible`.';

/** What an eligible caller sees of the pilot. */
export const pilotRoutes = restTable('Pilot', {
  'pilot.spectate': [
    { get: '/pilot/spectate', id: 'getPilotSpectate', ok: ['The pilot now', 'PilotSpectateEnvelope'] },
    "The pilot's open positions with live excursions, and its account",
    `The pilot is the service's paper-trading bot: it takes the service's own published plans on its universe, 70% out at target 1 and 30% at target 2 or the stop, with the 0.20% cost. ${ELIGIBILITY}`,
  ],
  'pilot.trackRecord': [
    {
      get: '/pilot/spectate/track-record',
      id: 'getPilotSpectateTrackRecord',
      query: PilotTrackRecordQuery,
      ok: ['The track record', 'PilotTrackRecordEnvelope'],
    },
    "The pilot's closed trades, equity curve, best and worst trade, per-asset figures",
    `Pages of ${PILOT_PAGE_SIZE} closed trades, oldest first; \`before_trade=<index>\` returns the page ending before that trade index, and \`trades_truncated\` says older trades exist (ask again with \`next_before_trade\`). Best, worst, by_asset and summary cover every closed trade. ${ELIGIBILITY}`,
  ],
});
