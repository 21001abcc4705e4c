/**
 * The serializers of promotions and campaigns, as REST answers them and the CLI's admin commands
 * print them. Each takes a structural source (only the fields it reads); times given as ms since the
 * epoch are published as ISO 8601 UTC date-times.
 */
import type { z } from 'zod';
import { fieldsOf, pickFields } from '../fields.js';
import { iso } from '../time.js';
import { type CampaignSchema, PromotionSchema } from './responses.js';

export type Promotion = z.output<typeof PromotionSchema>;
export type Campaign = z.output<typeof CampaignSchema>;

/** A stored promotion: the card, its steps and its sign-up checks. */
export type PromotionSource = Promotion;

const PROMOTION_FIELDS = fieldsOf(PromotionSchema);

/** A promotion on the wire (`/v1/promotions`, the `promotion` of an exchange list item): its schema's fields, bookkeeping left out. */
export function promotionWire(p: PromotionSource): Promotion {
  return pickFields(PROMOTION_FIELDS, p);
}

/** A stored campaign banner; `registration_close` in ms since the epoch. */
export interface CampaignSource {
  /** Stable campaign id, chosen by the admin (a slug) or a UUID. */
  id: string;
  url: string;
  video_url: string;
  /** CSS `object-position` of the banner video. */
  web_banner_video_position: string;
  /** Live until then. */
  registration_close: number;
  exchange_icon_url: string;
  exchange_icon_alt: string;
  prize_amount: string | null;
  prize_banner_label: string | null;
  prize_icon_url: string | null;
}

/** A campaign on the wire (`/v1/promotions/campaigns`): live until `registration_close`. */
export function campaignWire(c: CampaignSource): Campaign {
  return {
    id: c.id,
    url: c.url,
    video_url: c.video_url,
    web_banner_video_position: c.web_banner_video_position,
    registration_close: iso(c.registration_close),
    exchange_icon_url: c.exchange_icon_url,
    exchange_icon_alt: c.exchange_icon_alt,
    prize_amount: c.prize_amount,
    prize_banner_label: c.prize_banner_label,
    prize_icon_url: c.prize_icon_url,
  };
}
