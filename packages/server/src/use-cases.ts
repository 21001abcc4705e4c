import { accountUseCases } from './accounts/use-cases.js';
import { alertUseCases } from './alerts/use-cases.js';
import { analysisUseCases } from './analysis/use-cases.js';
import { authAdminUseCases } from './auth/admin.js';
import { oauthAdminUseCases } from './auth/oauth/admin.js';
import { authUseCases } from './auth/use-cases.js';
import { keyAdminUseCases } from './keys/admin.js';
import { keyUseCases } from './keys/use-cases.js';
import { liveUseCases } from './live/use-cases.js';
import { marketUseCases } from './market/use-cases.js';
import { pilotAdminUseCases } from './pilot/admin.js';
import { pilotUseCases } from './pilot/use-cases.js';
import type { AppDeps } from './platform/deps.js';
import { promotionAdminUseCases } from './promotions/admin.js';
import { pilotEligible } from './promotions/eligibility.js';
import { availablePromotions } from './promotions/promotions.js';
import { promotionUseCases } from './promotions/use-cases.js';

/**
 * The application: one object per feature, one method per use case, each holding every rule of
 * its use case (tier gates, eligibility, limits, what is recorded). Built once per app by
 * `createApp`; REST routes and MCP tools are adapters over it (parse, call one method, serialize).
 */
export function createUseCases(deps: AppDeps) {
  return {
    // The exchange list shows the user's open promotions: the market feature is given them.
    market: marketUseCases(deps, (userId) => availablePromotions(deps.storage, userId)),
    analysis: analysisUseCases(deps),
    accounts: accountUseCases(deps),
    alerts: alertUseCases(deps),
    auth: authUseCases(deps),
    keys: keyUseCases(deps),
    promotions: promotionUseCases(deps),
    // Who may spectate the pilot is the promotions' standing (a grant or affiliate volume): given to it.
    pilot: pilotUseCases(deps, pilotEligible),
    live: liveUseCases(deps),
    /** The operator's (`marketlens admin ...`): registered as `admin` operations, never served over REST or MCP. */
    admin: {
      ...authAdminUseCases(deps),
      ...oauthAdminUseCases(deps),
      ...keyAdminUseCases(deps),
      ...pilotAdminUseCases(deps),
      ...promotionAdminUseCases(deps),
    },
  };
}

/** The use cases of one app, by feature. */
export type UseCases = ReturnType<typeof createUseCases>;
