/**
 * Admin tasks of the promotions feature (the `marketlens admin promotion|campaign|invite` commands):
 * publish a promotion or a campaign, list them, invite an account to a promotion. Input is checked
 * here too (the registry parses it first with the same contract schema); refusals are
 * {@link PromotionAdminError}s: contract errors with a finer `reason`.
 */
import { type Campaign, campaignWire, type Promotion, promotionWire } from '@marketlens/contract';
import { normalizeEmail } from '../auth/users.js';
import type { AppDeps } from '../platform/deps.js';
import type { CampaignRecord, PromotionRecord } from '../storage/promotions-types.js';
import type { Storage, UserRecord } from '../storage/types.js';
import {
  type CampaignInput,
  createCampaign,
  createPromotion,
  PromotionAdminError,
  type PromotionInput,
} from './promotions.js';

/**
 * A promotion as the admin commands print it: the promotion as REST publishes it (the contract's
 * serializer), then what only an admin sees: when it was published and how many accounts were
 * invited and claimed.
 */
export interface AdminPromotion extends Promotion {
  created_at: number;
  invited: number;
  claimed: number;
}

/**
 * A campaign as the admin commands print it: the campaign as REST publishes it (the contract's
 * serializer), when it was published, and whether it is live now.
 */
export interface AdminCampaign extends Campaign {
  created_at: number;
  live: boolean;
}

function adminCampaign(c: CampaignRecord, now: number): AdminCampaign {
  return { ...campaignWire(c), created_at: c.created_at, live: c.registration_close > now };
}

async function adminPromotion(storage: Storage, p: PromotionRecord): Promise<AdminPromotion> {
  const [invitations, claims] = await Promise.all([
    storage.promotions.invitations(p.id),
    storage.promotions.claims(p.id),
  ]);
  return { ...promotionWire(p), created_at: p.created_at, invited: invitations.length, claimed: claims.length };
}

/** Admin: publishes the promotion of an exchange of the catalog (at most one per exchange). */
export async function createPromotionAdmin(
  storage: Storage,
  input: PromotionInput,
  now: number = Date.now(),
): Promise<AdminPromotion> {
  return adminPromotion(storage, await createPromotion(storage, input, now));
}

/** Admin: every promotion, oldest first, with its invitation and claim counts. */
export async function listPromotionsAdmin(storage: Storage): Promise<AdminPromotion[]> {
  return Promise.all((await storage.promotions.list()).map((p) => adminPromotion(storage, p)));
}

/** Admin: publishes a campaign banner (live until its registration closes). */
export async function createCampaignAdmin(
  storage: Storage,
  input: CampaignInput,
  now: number = Date.now(),
): Promise<AdminCampaign> {
  return adminCampaign(await createCampaign(storage, input, now), now);
}

/** Admin: every campaign, expired included, by registration close. */
export async function listCampaignsAdmin(storage: Storage, now: number = Date.now()): Promise<AdminCampaign[]> {
  return (await storage.campaigns.list()).map((c) => adminCampaign(c, now));
}

/** The outcome of an invitation. */
export interface AdminInvitation {
  user: Pick<UserRecord, 'id' | 'email'>;
  promotion: Pick<PromotionRecord, 'id' | 'connection_id' | 'title'>;
  /** False when the account was already invited (nothing changed). */
  created: boolean;
  invited_at: number;
  /** The account already claimed the promotion. */
  claimed: boolean;
}

/**
 * Admin: invites an existing account (by email or id) to a promotion (named by its exchange id or
 * its own id), so it may claim it. Inviting twice changes nothing and reports `created: false`.
 */
export async function invitePromotionAdmin(
  storage: Storage,
  emailOrId: string,
  exchangeOrPromotionId: string,
  now: number = Date.now(),
): Promise<AdminInvitation> {
  const user = (await storage.users.byEmail(normalizeEmail(emailOrId))) ?? (await storage.users.byId(emailOrId));
  if (user === null) throw new PromotionAdminError('unknown_user', `no user ${emailOrId}`);
  const promotion =
    (await storage.promotions.byExchange(exchangeOrPromotionId)) ??
    (await storage.promotions.byId(exchangeOrPromotionId));
  if (promotion === null)
    throw new PromotionAdminError('unknown_promotion', `no promotion for '${exchangeOrPromotionId}'`);
  const created = await storage.promotions.invite({ promotion_id: promotion.id, user_id: user.id, invited_at: now });
  const invitation = await storage.promotions.invitation(promotion.id, user.id);
  const claim = await storage.promotions.claimOf(promotion.id, user.id);
  return {
    user: { id: user.id, email: user.email },
    promotion: { id: promotion.id, connection_id: promotion.connection_id, title: promotion.title },
    created,
    invited_at: invitation?.invited_at ?? now,
    claimed: claim !== null,
  };
}

/**
 * The operator's operations on promotions (`admin.promotions`, `admin.createPromotion`,
 * `admin.campaigns`, `admin.createCampaign`, `admin.invite`), run only for the operator
 * (`marketlens admin promotion|campaign|invite`), at the app's clock. Refusals are
 * {@link PromotionAdminError}s.
 */
export function promotionAdminUseCases(deps: AppDeps) {
  return {
    promotions: () => listPromotionsAdmin(deps.storage),
    createPromotion: (input: PromotionInput) => createPromotionAdmin(deps.storage, input, deps.now()),
    campaigns: () => listCampaignsAdmin(deps.storage, deps.now()),
    createCampaign: (input: CampaignInput) => createCampaignAdmin(deps.storage, input, deps.now()),
    invite: (input: { user: string; promotion: string }) =>
      invitePromotionAdmin(deps.storage, input.user, input.promotion, deps.now()),
  };
}
