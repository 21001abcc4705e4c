import { randomUUID } from 'node:crypto';
import {
  AdminCreateCampaignInput,
  AdminCreatePromotionInput,
  type Campaign,
  campaignWire,
  type ErrorName,
  type Promotion,
  promotionWire,
} from '@marketlens/contract';
import { exchangeCatalogEntry } from '@marketlens/exchanges';
import type { z } from 'zod';
import { AppError } from '../platform/errors/app-error.js';
import type {
  CampaignRecord,
  PromotionRecord,
  PromotionStep,
  PromotionTheme,
  ValidationConfig,
} from '../storage/promotions-types.js';
import type { Storage } from '../storage/types.js';

/** A promotion on the wire (the contract's `Promotion`): the record without its bookkeeping. */
export type PromotionView = Promotion;

/** Card colours used when an admin gives none. */
export const DEFAULT_THEME: PromotionTheme = Object.freeze({
  primary_color: '#2962ff',
  background_color: '#0b1020',
  text_color: '#ffffff',
});

/** The UID check used when an admin gives none: venue account ids are numeric; on-chain venues use an address. */
export function defaultValidations(exchangeId: string): ValidationConfig[] {
  if (exchangeId === 'hyperliquid')
    return [
      {
        field: 'uid',
        label: 'Wallet address',
        pattern: '0x[0-9a-fA-F]{40}',
        message: 'Enter the 0x address of the wallet you trade with',
      },
    ];
  return [
    { field: 'uid', label: 'Account UID', pattern: '[0-9]{5,20}', message: 'Enter the numeric UID of your account' },
  ];
}

function defaultSteps(partner: string, referralUrl: string): PromotionStep[] {
  return [
    {
      title: `Create a ${partner} account`,
      description: 'Sign up through the referral link.',
      action_url: referralUrl,
    },
    {
      title: 'Copy your UID',
      description: `Find your account UID in your ${partner} profile.`,
      action_url: null,
    },
    { title: 'Verify', description: 'Enter the UID here to receive 30 days of Pro.', action_url: null },
  ];
}

/**
 * What an admin gives to create a promotion (the contract's `admin.createPromotion` input). Only
 * `connection_id`, `title`, `description` and `promotional_value` are required: the partner name,
 * icon and referral link default to the exchange catalog's, the theme, steps and UID check to
 * {@link DEFAULT_THEME} and friends.
 */
export const PromotionInput = AdminCreatePromotionInput;
export type PromotionInput = z.input<typeof PromotionInput>;

/** What an admin gives to create a campaign banner (the contract's `admin.createCampaign` input). */
export const CampaignInput = AdminCreateCampaignInput;
export type CampaignInput = z.input<typeof CampaignInput>;

/**
 * Why an admin request was refused: `invalid` (bad fields), `unknown_exchange`, `no_referral_url`,
 * `exists` (the exchange's promotion or the campaign id), `closed` (registration already closed),
 * `unknown_user`, `unknown_promotion`.
 */
export type PromotionAdminErrorCode =
  | 'invalid'
  | 'unknown_exchange'
  | 'no_referral_url'
  | 'exists'
  | 'closed'
  | 'unknown_user'
  | 'unknown_promotion';

/** The contract error each refusal is (what the registry of operations answers): a stable name REST knows. */
const REFUSAL_NAME: Readonly<Record<PromotionAdminErrorCode, ErrorName>> = {
  invalid: 'InvalidRequest',
  unknown_exchange: 'UnknownExchange',
  no_referral_url: 'InvalidRequest',
  exists: 'InvalidRequest',
  closed: 'InvalidRequest',
  unknown_user: 'NotFound',
  unknown_promotion: 'PromotionNotFound',
};

/**
 * An admin input refused: a contract error (an {@link AppError}, so the `admin.*` operations fail
 * only with the contract's codes) that carries its own finer `reason` for the command line.
 */
export class PromotionAdminError extends AppError {
  constructor(
    readonly reason: PromotionAdminErrorCode,
    message: string,
  ) {
    super(REFUSAL_NAME[reason], message);
  }
}

function parsed<T extends z.ZodType>(schema: T, input: unknown, what: string): z.output<T> {
  const r = schema.safeParse(input);
  if (r.success) return r.data;
  const issues = r.error.issues
    .slice(0, 5)
    .map((i) => `${i.path.length > 0 ? i.path.join('.') : what}: ${i.message}`)
    .join('; ');
  throw new PromotionAdminError('invalid', `invalid ${what}: ${issues}`);
}

/** Creates the promotion of an exchange of the catalog (at most one per exchange). */
export async function createPromotion(storage: Storage, input: PromotionInput, now: number): Promise<PromotionRecord> {
  const p = parsed(PromotionInput, input, 'promotion');
  const entry = exchangeCatalogEntry(p.connection_id);
  if (entry === undefined || entry.simulated)
    throw new PromotionAdminError('unknown_exchange', `no exchange '${p.connection_id}' in the catalog`);
  const referral_url = p.referral_url ?? entry.affiliate_url;
  if (referral_url === null)
    throw new PromotionAdminError('no_referral_url', `${entry.name} has no referral link in the catalog: give one`);
  const partner_name = p.partner_name ?? entry.name;
  const record: PromotionRecord = {
    id: randomUUID(),
    connection_id: entry.id,
    partner_name,
    title: p.title,
    description: p.description,
    promotional_value: p.promotional_value,
    bonus_description: p.bonus_description ?? '',
    referral_url,
    icon: p.icon ?? entry.icon,
    theme: p.theme ?? { ...DEFAULT_THEME },
    steps: p.steps ?? defaultSteps(partner_name, referral_url),
    validations: p.validations ?? defaultValidations(entry.id),
    created_at: now,
  };
  if (!(await storage.promotions.create(record)))
    throw new PromotionAdminError('exists', `${entry.name} already has a promotion`);
  return record;
}

/** Creates a campaign banner; its registration must close in the future. */
export async function createCampaign(storage: Storage, input: CampaignInput, now: number): Promise<CampaignRecord> {
  const c = parsed(CampaignInput, input, 'campaign');
  const close = typeof c.registration_close === 'number' ? c.registration_close : Date.parse(c.registration_close);
  if (close <= now) throw new PromotionAdminError('closed', 'registration_close must be in the future');
  const record: CampaignRecord = {
    id: c.id ?? randomUUID(),
    url: c.url,
    video_url: c.video_url,
    web_banner_video_position: c.web_banner_video_position,
    registration_close: close,
    exchange_icon_url: c.exchange_icon_url,
    exchange_icon_alt: c.exchange_icon_alt,
    prize_amount: c.prize_amount,
    prize_banner_label: c.prize_banner_label,
    prize_icon_url: c.prize_icon_url,
    created_at: now,
  };
  if (!(await storage.campaigns.create(record)))
    throw new PromotionAdminError('exists', `a campaign '${record.id}' already exists`);
  return record;
}

/** Fisher-Yates shuffle of a copy, driven by `random` (uniform in [0, 1)). */
export function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    // Clamp so a generator returning exactly 1 (out of contract) cannot index past the end.
    const j = Math.min(i, Math.floor(random() * (i + 1)));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** `GET /v1/promotions/available`: the promotions the user has not claimed. */
export async function availablePromotions(storage: Storage, userId: string): Promise<Promotion[]> {
  return (await storage.promotions.unclaimedBy(userId)).map(promotionWire);
}

/** `GET /v1/promotions/random`: one promotion the user has not claimed, at random; 404 when none. */
export async function randomPromotion(storage: Storage, userId: string, random: () => number): Promise<Promotion> {
  const available = await storage.promotions.unclaimedBy(userId);
  if (available.length === 0) throw new AppError('PromotionNotFound', 'No promotion available');
  const pick = available[Math.min(available.length - 1, Math.floor(random() * available.length))];
  return promotionWire(pick);
}

/** `GET /v1/promotions/campaigns`: live campaigns (registration still open), in random order. */
export async function liveCampaigns(storage: Storage, now: number, random: () => number): Promise<Campaign[]> {
  return shuffled(await storage.campaigns.live(now), random).map(campaignWire);
}

/** `GET /v1/promotions/{connection_id}`: 404 when the exchange has no promotion, 403 once the user claimed it. */
export async function promotionFor(storage: Storage, userId: string, exchangeId: string): Promise<Promotion> {
  const promotion = await storage.promotions.byExchange(exchangeId);
  if (promotion === null) throw new AppError('PromotionNotFound', `No promotion for '${exchangeId}'`);
  if ((await storage.promotions.claimOf(promotion.id, userId)) !== null)
    throw new AppError('PromotionAlreadyClaimed', `The promotion for '${exchangeId}' is already claimed`);
  return promotionWire(promotion);
}
