import { z } from 'zod';
import { AdminUserRef } from '../auth/admin.js';
import { CampaignSchema, PromotionSchema } from './responses.js';

/**
 * The operator's operations on promotions and campaigns (`marketlens admin promotion|campaign|invite`):
 * what an operator gives to publish them, and what the commands print. Like the other admin schemas
 * (`auth/admin.ts`) they are served neither over REST nor over MCP: no `.meta` ids, nothing in the
 * OpenAPI document. Times an operator sees are epoch milliseconds (`created_at`, `invited_at`).
 */

const ms = z.number().int();
const text = (max: number) => z.string().trim().min(1).max(max);
const httpUrl = z
  .string()
  .trim()
  .max(2048)
  .refine((s) => /^https?:\/\/[^\s]+$/i.test(s) && URL.canParse(s), 'must be an http(s) URL');
const color = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'must be a #rrggbb colour');

/** The latest instant a JavaScript date holds (epoch ms): a registration closing later has no ISO time. */
const LAST_DATE_MS = 8.64e15;

/** A regular expression an admin may give for a UID: it must compile, and is matched against the whole value. */
const uidPattern = z
  .string()
  .min(1)
  .max(200)
  .refine((p) => {
    try {
      new RegExp(`^(?:${p})$`);
      return true;
    } catch {
      return false;
    }
  }, 'must be a valid regular expression');

/** A promotion card's colours as an admin gives them. */
export const PromotionThemeInput = z.strictObject({
  primary_color: color,
  background_color: color,
  text_color: color,
});

/** One step of a promotion card as an admin gives it. */
export const PromotionStepInput = z.strictObject({
  title: text(120),
  description: text(1000),
  action_url: httpUrl.nullable(),
});

/** The UID check of a promotion's sign-up as an admin gives it. */
export const ValidationConfigInput = z.strictObject({
  field: z.literal('uid'),
  label: text(60),
  pattern: uidPattern,
  message: text(200),
});

/**
 * `admin.createPromotion`: what an admin gives to publish an exchange's promotion. Only
 * `connection_id`, `title`, `description` and `promotional_value` are required: the partner name,
 * icon and referral link default to the exchange catalog's, the theme, steps and UID check to the
 * server's defaults.
 */
export const AdminCreatePromotionInput = z.strictObject({
  connection_id: text(64),
  partner_name: text(80).optional(),
  title: text(120),
  description: text(2000),
  promotional_value: text(120),
  bonus_description: z.string().trim().max(1000).optional(),
  referral_url: httpUrl.optional(),
  icon: z.string().trim().min(1).max(100_000).optional(),
  theme: PromotionThemeInput.optional(),
  steps: z.array(PromotionStepInput).max(10).optional(),
  validations: z.array(ValidationConfigInput).min(1).max(5).optional(),
});

/** `admin.createCampaign`: what an admin gives to publish a campaign banner. */
export const AdminCreateCampaignInput = z.strictObject({
  id: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'must be a slug: lowercase letters, digits and dashes')
    .optional(),
  url: httpUrl,
  video_url: httpUrl,
  web_banner_video_position: z
    .string()
    .trim()
    .max(40)
    .regex(/^[a-z0-9.%\s-]+$/i, 'must be a CSS object-position such as "center" or "50% 20%"')
    .default('center'),
  /** Epoch ms or an ISO date-time. */
  registration_close: z.union([z.number().int().positive().max(LAST_DATE_MS), z.iso.datetime({ offset: true })]),
  exchange_icon_url: httpUrl,
  exchange_icon_alt: text(120),
  prize_amount: text(60).nullable().default(null),
  prize_banner_label: text(120).nullable().default(null),
  prize_icon_url: httpUrl.nullable().default(null),
});

/**
 * A promotion as the operator sees it: the promotion as REST publishes it, then when it was
 * published and how many accounts were invited and claimed it.
 */
export const AdminPromotionSchema = z.object({
  ...PromotionSchema.shape,
  created_at: ms,
  invited: z.number().int(),
  claimed: z.number().int(),
});

/** A campaign as the operator sees it: the campaign as REST publishes it, when it was published, whether it is live. */
export const AdminCampaignSchema = z.object({ ...CampaignSchema.shape, created_at: ms, live: z.boolean() });

/** `admin.invite`: an account (by email or id) and a promotion (by its exchange id or its own id). */
export const AdminInviteInput = AdminUserRef.extend({ promotion: z.string().min(1).max(256) });

/** What an invitation did: `created` is false when the account was already invited (nothing changed). */
export const AdminInvitationSchema = z.object({
  user: z.object({ id: z.string(), email: z.string() }),
  promotion: z.object({ id: z.string(), connection_id: z.string(), title: z.string() }),
  created: z.boolean(),
  invited_at: ms,
  /** The account already claimed the promotion. */
  claimed: z.boolean(),
});
