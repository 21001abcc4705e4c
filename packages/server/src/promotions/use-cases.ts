import { requireUser } from '../auth/authorize.js';
import type { Actor, AppDeps } from '../platform/deps.js';
import { affiliateThresholdUsd } from './config.js';
import { availablePromotions, liveCampaigns, promotionFor, randomPromotion } from './promotions.js';
import { signUp, signUpShown } from './signup.js';
import { readVolumeStanding } from './volume.js';

/**
 * The promotions a signed-in user sees and claims, as REST (`/v1/promotions/*`) asks for them:
 * exchange promotions (claimed once per account and per exchange UID, for 30 days of Pro),
 * campaign banners and the affiliate volume standing (which grants Elite while it qualifies). The
 * operator's side (publishing, inviting) is `admin.ts`.
 */
export function promotionUseCases(deps: AppDeps) {
  const random = deps.random ?? Math.random;

  return {
    /** The active promotions the caller may claim and has not claimed. */
    available: async (actor: Actor) => availablePromotions(deps.storage, requireUser(actor.caller).user.id),

    /** The campaigns whose registration is open, in random order. */
    campaigns: async (_actor: Actor) => liveCampaigns(deps.storage, deps.now(), random),

    /** One promotion the caller has not claimed, at random; 404 `PromotionNotFound` when none. */
    random: async (actor: Actor) => randomPromotion(deps.storage, requireUser(actor.caller).user.id, random),

    /**
     * The caller's 30-day affiliate volume against the configured threshold; while it qualifies,
     * reading it grants Elite for 30 days unless such a grant is still valid.
     */
    async volume(actor: Actor) {
      const userId = requireUser(actor.caller).user.id;
      return readVolumeStanding(deps.storage, userId, deps.now(), affiliateThresholdUsd(deps.config));
    },

    /** The promotion of an exchange; 403 `PromotionAlreadyClaimed` once claimed, 404 `PromotionNotFound` when none. */
    async get(actor: Actor, exchangeId: string) {
      return promotionFor(deps.storage, requireUser(actor.caller).user.id, exchangeId);
    },

    /** Whether to show the sign-up form: the caller is invited and has not claimed (false when the exchange has none). */
    async signUpShown(actor: Actor, exchangeId: string) {
      return { show: await signUpShown(deps.storage, requireUser(actor.caller).user.id, exchangeId) };
    },

    /**
     * Claims the promotion with the caller's exchange UID for 30 days of Pro: 400 for a UID failing
     * its checks, 422 (`PromotionNotInvited`, `PromotionClaimed`, `PromotionUidUsed`) with nothing changed.
     */
    async signUp(actor: Actor, exchangeId: string, uid: string) {
      return signUp(deps.storage, requireUser(actor.caller).user.id, exchangeId, uid, deps.now());
    },
  };
}

/** The use cases of the promotions feature, as the composition root builds them. */
export type PromotionUseCases = ReturnType<typeof promotionUseCases>;
