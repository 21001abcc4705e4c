/**
 * Who may spectate the pilot: one rule for REST, MCP and the pilot-trade pushes. A user qualifies
 * with an operator's pilot grant in force (`marketlens admin pilot grant`) or with enough affiliate
 * volume: that standing is the promotions feature's rule (`pilotEligible`), which the composition
 * root passes in, so the pilot imports no other feature. A host may inject its own rule
 * (`deps.isPilotEligible`).
 */
import type { AppDeps } from '../platform/deps.js';
import type { Storage } from '../storage/types.js';

/**
 * The standing rule the composition root gives the pilot (promotions' `pilotEligible`): a grant in
 * force, or affiliate volume at or above `thresholdUsd` (absent: the promotions' default) at `now`.
 */
export type PilotStandingRule = (
  storage: Storage,
  userId: string,
  now: number,
  options: { thresholdUsd?: number },
) => Promise<boolean>;

/** The eligibility rule of these deps: the host's own when it gave one, else `standing` at the configured threshold. */
export function pilotEligibility(deps: AppDeps, standing: PilotStandingRule): (userId: string) => Promise<boolean> {
  if (deps.isPilotEligible) return deps.isPilotEligible;
  const threshold = deps.config.affiliateVolumeThresholdUsd;
  return (userId) =>
    standing(deps.storage, userId, deps.now(), threshold === undefined ? {} : { thresholdUsd: threshold });
}
