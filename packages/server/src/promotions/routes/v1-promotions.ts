import { PromotionConnectionParams, PromotionSignUpWithUIDSchema } from '@marketlens/contract';
import { restTable } from '../../platform/rest-table.js';

/** The promotions; the fixed paths first, so `available`, `campaigns`, `random` and `volume` are never read as a connection id. */
export const promotionRoutes = restTable('Promotions', {
  'promotions.available': [
    {
      get: '/v1/promotions/available',
      id: 'listAvailablePromotions',
      ok: ['Unclaimed promotions', 'PromotionListEnvelope'],
    },
    'Promotions the caller has not claimed',
    'Active promotions the account is eligible for and has not claimed yet.',
  ],
  'promotions.campaigns': [
    { get: '/v1/promotions/campaigns', id: 'listCampaigns', ok: ['Live campaigns', 'CampaignListEnvelope'] },
    'Live campaigns in random order',
    'Only campaigns whose registration has not closed; an empty list when none.',
  ],
  'promotions.random': [
    { get: '/v1/promotions/random', id: 'getRandomPromotion', ok: ['A promotion', 'PromotionEnvelope'], errors: [404] },
    'One promotion the caller has not claimed, at random',
    'None available: 404 `PromotionNotFound`.',
  ],
  'promotions.volume': [
    { get: '/v1/promotions/volume', id: 'getPromotionVolume', ok: 'Volume standing', cacheControl: 'no-store' },
    'The 30-day affiliate volume standing',
    "Volume of the fills of the last 30 days on the caller's connections to exchanges with an affiliate program. Reading it while `qualifies` grants Elite for 30 days (source `affiliate`) unless such a grant is still valid.",
  ],
  'promotions.get': [
    {
      get: '/v1/promotions/{connection_id}',
      id: 'getPromotion',
      params: PromotionConnectionParams,
      ok: 'The promotion',
      errors: [403, 404],
    },
    'The promotion of an exchange',
    'Already claimed by the caller: 403 `PromotionAlreadyClaimed`; none for the exchange: 404 `PromotionNotFound`.',
  ],
  'promotions.signUpShown': [
    {
      get: '/v1/promotions/{connection_id}/sign_up',
      id: 'getPromotionSignUp',
      params: PromotionConnectionParams,
      ok: 'Sign-up visibility',
    },
    'Whether to show the promotion sign-up form',
    'true when the caller is invited to the promotion and has not claimed it (false when the exchange has none).',
  ],
  'promotions.signUp': [
    {
      post: '/v1/promotions/{connection_id}/sign_up',
      id: 'signUpPromotion',
      params: PromotionConnectionParams,
      json: PromotionSignUpWithUIDSchema,
      ok: 'Verified: promotion claimed',
      errors: [404, 422],
    },
    'Verify the exchange UID and claim the promotion',
    "Verified: 30 days of Pro. Invalid payload or a UID failing the promotion's check: 400. Refused with 422 and nothing changed: `PromotionNotInvited`, `PromotionClaimed` (already claimed), `PromotionUidUsed` (UID already used on this exchange). No promotion for the exchange: 404.",
  ],
});
