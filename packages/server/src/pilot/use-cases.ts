import { requireUser } from '../auth/authorize.js';
import type { Actor, AppDeps } from '../platform/deps.js';
import { AppError } from '../platform/errors/app-error.js';
import { type PilotStandingRule, pilotEligibility } from './eligibility.js';
import { spectateOverview, spectateTrackRecord } from './views.js';

/**
 * Spectating the pilot, as REST (`/pilot/spectate*`) and MCP (`get_pilot_spectate`,
 * `get_pilot_spectate_history`) ask for it. Both views need a signed-in user who qualifies (an
 * operator's pilot grant in force or enough affiliate volume): anyone else is refused with 403
 * `PilotNotEligible`. `standing` is the promotions' rule (grant or volume), given by the composition root.
 */
export function pilotUseCases(deps: AppDeps, standing: PilotStandingRule) {
  async function requireEligible(actor: Actor): Promise<void> {
    if (!(await pilotEligibility(deps, standing)(requireUser(actor.caller).user.id))) {
      throw new AppError(
        'PilotNotEligible',
        'Pilot spectate needs a pilot grant or 30-day affiliate volume at or above the threshold on a supported affiliate exchange',
      );
    }
  }

  return {
    /** The pilot's account and open positions with their live excursions; eligible users only. */
    async spectate(actor: Actor) {
      await requireEligible(actor);
      return spectateOverview(deps);
    },

    /** A page of the pilot's closed trades ending before `before_trade`, with its figures; eligible users only. */
    async trackRecord(actor: Actor, request: { before_trade?: number }) {
      await requireEligible(actor);
      return spectateTrackRecord(deps, request.before_trade);
    },
  };
}
