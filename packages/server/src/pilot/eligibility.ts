/**
 * Who may spectate the pilot: one rule for REST, MCP and the pilot-trade pushes. A user qualifies
 * with an operator's pilot grant in force (`marketlens admin pilot grant`) or with enough affiliate
 * volume (`pilotEligible`); a host may inject its own rule (`deps.isPilotEligible`).
 */
import type { AppDeps } from '../platform/deps.js';
import { pilotEligible } from '../promotions/eligibility.js';

/** The eligibility rule of these deps. */
export function pilotEligibility(deps: AppDeps): (userId: string) => Promise<boolean> {
  if (deps.isPilotEligible) return deps.isPilotEligible;
  const threshold = deps.config.affiliateVolumeThresholdUsd;
  return (userId) =>
    pilotEligible(deps.storage, userId, deps.now(), threshold === undefined ? {} : { thresholdUsd: threshold });
}
