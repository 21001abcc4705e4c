/** Wire schemas of promotions and campaigns. */
import { z } from 'zod';

export const PromotionConnectionSchema = z.string().meta({
  id: 'PromotionConnection',
  description: 'Exchange id of the catalog (`GET /v1/exchanges`)',
  example: 'bybit',
});

export const PromotionThemeSchema = z
  .object({
    primary_color: z.string().meta({ example: '#f7a600' }),
    background_color: z.string(),
    text_color: z.string(),
  })
  .meta({ id: 'PromotionTheme', description: 'Card colours, CSS `#rrggbb`' });

export const PromotionStepSchema = z
  .object({
    title: z.string(),
    description: z.string(),
    action_url: z.string().nullable().meta({ description: "The step's button link; null: no button" }),
  })
  .meta({ id: 'PromotionStep' });

export const ValidationConfigSchema = z
  .object({
    field: z.literal('uid').meta({ description: 'The sign-up field checked' }),
    label: z.string(),
    pattern: z.string().meta({ description: 'JavaScript regular expression the whole value must match' }),
    message: z.string().meta({ description: 'Shown when the value does not match' }),
  })
  .meta({ id: 'ValidationConfig' });

/** A promotion; also the `promotion` (AffiliatePromotion) of an exchange list item. */
export const PromotionSchema = z
  .object({
    id: z.string(),
    connection_id: PromotionConnectionSchema,
    partner_name: z.string(),
    title: z.string(),
    description: z.string(),
    promotional_value: z.string(),
    bonus_description: z.string(),
    referral_url: z.string(),
    icon: z.string(),
    theme: PromotionThemeSchema,
    steps: z.array(PromotionStepSchema),
    validations: z.array(ValidationConfigSchema),
  })
  .meta({ id: 'Promotion' });

export const CampaignSchema = z
  .object({
    id: z.string().meta({ description: 'Stable campaign id' }),
    url: z.string(),
    video_url: z.string(),
    web_banner_video_position: z.string().meta({ description: 'CSS object-position', example: 'center' }),
    registration_close: z.iso.datetime().meta({ description: 'UTC; the campaign is live until then' }),
    exchange_icon_url: z.string(),
    exchange_icon_alt: z.string(),
    prize_amount: z.string().nullable().optional(),
    prize_banner_label: z.string().nullable().optional(),
    prize_icon_url: z.string().nullable().optional(),
  })
  .meta({ id: 'Campaign' });

export const PromotionVolumeExchangeSchema = z
  .object({
    connection_id: PromotionConnectionSchema,
    name: z.string(),
    accounts: z.number().int().meta({ description: 'Connected accounts of the user on this exchange' }),
    volume_30d_usd: z.number().meta({ description: 'Notional of the counted fills of the last 30 days, USD' }),
    counted_fills: z.number().int(),
    uncounted_fills: z
      .number()
      .int()
      .meta({ description: 'Fills not quoted in USD or a USD stablecoin; they add nothing to the volume' }),
  })
  .meta({ id: 'PromotionVolumeExchange' });

/** `GET /v1/promotions/volume` data: the 30-day affiliate volume standing. */
export const PromotionVolumeStandingSchema = z
  .object({
    per_exchange: z.array(PromotionVolumeExchangeSchema),
    total_30d_usd: z.number(),
    threshold_usd: z.number(),
    qualifies: z.boolean().meta({ description: 'Has an affiliate connection and total_30d_usd >= threshold_usd' }),
    granted_via_promotion: z.boolean().meta({ description: 'Holds a valid affiliate-earned Elite grant' }),
    promotion_expires_at: z.iso.datetime().nullable(),
  })
  .meta({ id: 'PromotionVolumeStanding' });

export const PromotionSignUpShowSchema = z
  .object({ show: z.boolean().meta({ description: 'Invited to the promotion and not claimed yet' }) })
  .meta({ id: 'PromotionSignUpShow' });

export const PromotionSignUpResultSchema = z
  .object({
    verified: z.literal(true),
    connection_id: PromotionConnectionSchema,
    uid: z.string(),
    tier: z.literal('pro'),
    granted_at: z.iso.datetime(),
    expires_at: z.iso.datetime(),
  })
  .meta({ id: 'PromotionSignUpResult' });
