import { ok, PromotionConnectionParams, PromotionSignUpWithUIDSchema } from '@marketlens/contract';
import { type RunOperation, routesOf, type Serve } from '../../platform/operation.js';

const route = routesOf('Promotions');

const availableRoute = route('promotions.available', {
  method: 'get',
  path: '/v1/promotions/available',
  operationId: 'listAvailablePromotions',
  summary: 'Promotions the caller has not claimed',
  description: 'Active promotions the account is eligible for and has not claimed yet.',
  ok: ['Unclaimed promotions', 'PromotionListEnvelope'],
});

const campaignsRoute = route('promotions.campaigns', {
  method: 'get',
  path: '/v1/promotions/campaigns',
  operationId: 'listCampaigns',
  summary: 'Live campaigns in random order',
  description: 'Only campaigns whose registration has not closed; an empty list when none.',
  ok: ['Live campaigns', 'CampaignListEnvelope'],
});

const randomRoute = route('promotions.random', {
  method: 'get',
  path: '/v1/promotions/random',
  operationId: 'getRandomPromotion',
  summary: 'One promotion the caller has not claimed, at random',
  description: 'None available: 404 `PromotionNotFound`.',
  ok: ['A promotion', 'PromotionEnvelope'],
  errors: [404],
});

const volumeRoute = route('promotions.volume', {
  method: 'get',
  path: '/v1/promotions/volume',
  operationId: 'getPromotionVolume',
  summary: 'The 30-day affiliate volume standing',
  description:
    "Volume of the fills of the last 30 days on the caller's connections to exchanges with an affiliate program. Reading it while `qualifies` grants Elite for 30 days (source `affiliate`) unless such a grant is still valid.",
  ok: 'Volume standing',
});

const promotionRoute = route('promotions.get', {
  method: 'get',
  path: '/v1/promotions/{connection_id}',
  operationId: 'getPromotion',
  summary: 'The promotion of an exchange',
  description:
    'Already claimed by the caller: 403 `PromotionAlreadyClaimed`; none for the exchange: 404 `PromotionNotFound`.',
  request: { params: PromotionConnectionParams },
  ok: 'The promotion',
  errors: [403, 404],
});

const signUpShowRoute = route('promotions.signUpShown', {
  method: 'get',
  path: '/v1/promotions/{connection_id}/sign_up',
  operationId: 'getPromotionSignUp',
  summary: 'Whether to show the promotion sign-up form',
  description:
    'true when the caller is invited to the promotion and has not claimed it (false when the exchange has none).',
  request: { params: PromotionConnectionParams },
  ok: 'Sign-up visibility',
});

const signUpRoute = route('promotions.signUp', {
  method: 'post',
  path: '/v1/promotions/{connection_id}/sign_up',
  operationId: 'signUpPromotion',
  summary: 'Verify the exchange UID and claim the promotion',
  description:
    "Verified: 30 days of Pro. Invalid payload or a UID failing the promotion's check: 400. Refused with 422 and nothing changed: `PromotionNotInvited`, `PromotionClaimed` (already claimed), `PromotionUidUsed` (UID already used on this exchange). No promotion for the exchange: 404.",
  request: {
    params: PromotionConnectionParams,
    body: { content: { 'application/json': { schema: PromotionSignUpWithUIDSchema } }, required: true },
  },
  ok: 'Verified: promotion claimed',
  errors: [404, 422],
});

export function registerPromotionRoutes(serve: Serve, run: RunOperation): void {
  // The fixed paths first so `available`, `campaigns`, `random` and `volume` are never read as a connection id.
  serve(availableRoute, async (c) => c.json(ok(await run(c, 'promotions.available', {})), 200));
  serve(campaignsRoute, async (c) => c.json(ok(await run(c, 'promotions.campaigns', {})), 200));
  serve(randomRoute, async (c) => c.json(ok(await run(c, 'promotions.random', {})), 200));
  serve(volumeRoute, async (c) => {
    const standing = await run(c, 'promotions.volume', {});
    c.header('cache-control', 'no-store');
    return c.json(ok(standing), 200);
  });
  serve(promotionRoute, async (c) => c.json(ok(await run(c, 'promotions.get', c.req.valid('param'))), 200));
  serve(signUpShowRoute, async (c) => c.json(ok(await run(c, 'promotions.signUpShown', c.req.valid('param'))), 200));
  serve(signUpRoute, async (c) => {
    const { connection_id } = c.req.valid('param');
    return c.json(ok(await run(c, 'promotions.signUp', { connection_id, uid: c.req.valid('json').uid })), 200);
  });
}
