/**
 * Who may spectate the pilot: one rule for REST, MCP and the pilot-trade pushes. A user qualifies
 * with an operator's pilot grant in force (`marketlens admin pilot grant`) or with enough affiliate
 * volume (`pilotEligible`); a host may inject its own rule (`deps.isPilotEligible`).
 */
import type { AppDeps } from '../platform/deps.js';
import { AppError } from '../platform/errors/app-error.js';
import { pilotEligible } from '../promotions/eligibility.js';

/** The eligibility rule of these deps. */
export function pilotEligibility(deps: AppDeps): (userId: string) => Promise<boolean> {
  if (deps.isPilotEligible) return deps.isPilotEligible;
  const threshold = deps.config.affiliateVolumeThresholdUsd;
  return (userId) =>
    pilotEligible(deps.storage, userId, deps.now(), threshold === undefined ? {} : { thresholdUsd: threshold });
}

/** Throws 403 `PilotNotEligible` unless the user may spectate the pilot. */
export async function requirePilotEligible(deps: AppDeps, userId: string): Promise<void> {
  if (!(await pilotEligibility(deps)(userId))) {
    throw new AppError(
      'PilotNotEligible',
      'Pilot spectate needs a pilot grant or 30-day affiliate volume at or above the threshold on a supported affiliate exchange',
    );
  }
}
