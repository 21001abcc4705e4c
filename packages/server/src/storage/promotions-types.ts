/**
 * Records and repositories of affiliate promotions: the promotions an admin publishes
 * per exchange, the campaigns shown as banners, the accounts invited to a promotion, the claims
 * (a verified venue UID that earned the promotion's Pro grant) and the affiliate-earned Elite grant.
 * Times are epoch milliseconds.
 */
import type { CampaignSource } from '@marketlens/contract';
import type { TierGrantRecord } from './records.js';

/** Colours of a promotion card (`PromotionTheme`), CSS hex colours `#rrggbb`. */
export interface PromotionTheme {
  primary_color: string;
  background_color: string;
  text_color: string;
}

/** One step a user follows to earn the promotion (`PromotionStep`), in display order. */
export interface PromotionStep {
  title: string;
  description: string;
  /** Where the step's button leads (the referral link, a help page), or null for no button. */
  action_url: string | null;
}

/**
 * A check of a sign-up field (`ValidationConfig`). Today the only field is `uid`, the user's account
 * id at the venue; `pattern` is a JavaScript regular expression the whole value must match.
 */
export interface ValidationConfig {
  field: 'uid';
  label: string;
  pattern: string;
  /** Shown when the value does not match. */
  message: string;
}

/** A promotion of one exchange (`Promotion`); at most one per exchange (`connection_id`). */
export interface PromotionRecord {
  id: string;
  /** The exchange id of the catalog (`PromotionConnection`), e.g. `bybit`. */
  connection_id: string;
  partner_name: string;
  title: string;
  description: string;
  promotional_value: string;
  bonus_description: string;
  referral_url: string;
  icon: string;
  theme: PromotionTheme;
  steps: PromotionStep[];
  validations: ValidationConfig[];
  created_at: number;
}

/** A campaign banner (`Campaign`); live while `registration_close` is in the future. */
export interface CampaignRecord extends CampaignSource {
  created_at: number;
}

/** An account invited to a promotion: only invited accounts can claim it. */
export interface PromotionInvitationRecord {
  promotion_id: string;
  user_id: string;
  invited_at: number;
}

/** A claimed promotion: the user's venue UID was accepted and `grant_id` holds the Pro grant. */
export interface PromotionClaimRecord {
  id: string;
  promotion_id: string;
  connection_id: string;
  user_id: string;
  /** The venue account UID; unique per exchange across all users. */
  uid: string;
  claimed_at: number;
  grant_id: string;
}

/** Why a claim was refused; the promotion stays unclaimed. */
export type ClaimRejection = 'not_invited' | 'already_claimed' | 'uid_used';

export type ClaimOutcome =
  | { ok: true; claim: PromotionClaimRecord; grant: TierGrantRecord }
  | { ok: false; reason: ClaimRejection };

export interface PromotionRepository {
  /** Inserts a promotion; false when the exchange already has one. */
  create(promotion: PromotionRecord): Promise<boolean>;
  byId(id: string): Promise<PromotionRecord | null>;
  byExchange(exchangeId: string): Promise<PromotionRecord | null>;
  /** Every promotion, oldest first (ties by id). */
  list(): Promise<PromotionRecord[]>;
  /** Promotions the user has not claimed, oldest first (ties by id). */
  unclaimedBy(userId: string): Promise<PromotionRecord[]>;
  /** Invites the user; false when already invited. */
  invite(invitation: PromotionInvitationRecord): Promise<boolean>;
  invitation(promotionId: string, userId: string): Promise<PromotionInvitationRecord | null>;
  /** Invitations of a promotion, oldest first. */
  invitations(promotionId: string): Promise<PromotionInvitationRecord[]>;
  claimOf(promotionId: string, userId: string): Promise<PromotionClaimRecord | null>;
  /** Claims of a promotion, oldest first. */
  claims(promotionId: string): Promise<PromotionClaimRecord[]>;
  /**
   * Claims atomically: refused when the user is not invited, has already claimed, or the UID was
   * claimed on this exchange by anyone; else stores the claim and its grant together.
   * Checked in that order, so a repeated request of the claimant reads `already_claimed`.
   */
  claim(claim: PromotionClaimRecord, grant: TierGrantRecord): Promise<ClaimOutcome>;
}

export interface CampaignRepository {
  /** Inserts a campaign; false when the id is taken. */
  create(campaign: CampaignRecord): Promise<boolean>;
  /** Campaigns whose registration closes after `now`, by registration_close then id. */
  live(now: number): Promise<CampaignRecord[]>;
  /** Every campaign, expired included, by registration_close then id. */
  list(): Promise<CampaignRecord[]>;
}

export interface AffiliateGrantRepository {
  /**
   * Stores `grant` (an affiliate-earned Elite grant) unless the user holds one valid at `now`;
   * returns the grant in force afterwards. Atomic, so concurrent reads of the standing grant once.
   */
  grantIfAbsent(grant: TierGrantRecord, now: number): Promise<TierGrantRecord>;
}
