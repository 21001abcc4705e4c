/** Request schemas of the promotions (`/v1/promotions/{connection_id}...`). */
import { z } from 'zod';

/** Venue UIDs: 1..64 printable characters without spaces (numeric ids, handles, 0x addresses). */
export const UID_FORMAT = /^[\x21-\x7e]{1,64}$/;

/** The exchange a promotion belongs to, in the path. */
export const PromotionConnectionParams = z.object({
  connection_id: z.string().min(1).max(64).meta({ example: 'bybit' }),
});

/** `POST /v1/promotions/{connection_id}/sign_up` body. */
export const PromotionSignUpWithUIDSchema = z
  .object({
    uid: z
      .string()
      .trim()
      .regex(UID_FORMAT, 'must be 1..64 printable characters without spaces')
      .meta({ description: 'Your account UID at the exchange', example: '123456789' }),
  })
  .meta({ id: 'PromotionSignUpWithUID' });
