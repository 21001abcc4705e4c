import { z } from '@hono/zod-openapi';
import {
  CampaignSchema,
  envelopeOf,
  ok,
  PromotionConnectionParams,
  PromotionSchema,
  PromotionSignUpResultSchema,
  PromotionSignUpShowSchema,
  PromotionSignUpWithUIDSchema,
  PromotionVolumeStandingSchema,
} from '@marketlens/contract';
import { SESSION_ONLY } from '../../auth/authorize.js';
import { actorOf } from '../../platform/actor.js';
import { json, operation, type Serve } from '../../platform/operation.js';
import type { PromotionUseCases } from '../use-cases.js';

const TAGS = ['Promotions'];

const availableRoute = operation(SESSION_ONLY, {
  method: 'get',
  path: '/v1/promotions/available',
  operationId: 'listAvailablePromotions',
  tags: TAGS,
  summary: 'Promotions the caller has not claimed',
  description: 'Active promotions the account is eligible for and has not claimed yet.',
  responses: { 200: json(envelopeOf(z.array(PromotionSchema), 'PromotionListEnvelope'), 'Unclaimed promotions') },
});

const campaignsRoute = operation(SESSION_ONLY, {
  method: 'get',
  path: '/v1/promotions/campaigns',
  operationId: 'listCampaigns',
  tags: TAGS,
  summary: 'Live campaigns in random order',
  description: 'Only campaigns whose registration has not closed; an empty list when none.',
  responses: { 200: json(envelopeOf(z.array(CampaignSchema), 'CampaignListEnvelope'), 'Live campaigns') },
});

const randomRoute = operation(
  SESSION_ONLY,
  {
    method: 'get',
    path: '/v1/promotions/random',
    operationId: 'getRandomPromotion',
    tags: TAGS,
    summary: 'One promotion the caller has not claimed, at random',
    description: 'None available: 404 `PromotionNotFound`.',
    responses: { 200: json(envelopeOf(PromotionSchema, 'PromotionEnvelope'), 'A promotion') },
  },
  [404],
);

const volumeRoute = operation(SESSION_ONLY, {
  method: 'get',
  path: '/v1/promotions/volume',
  operationId: 'getPromotionVolume',
  tags: TAGS,
  summary: 'The 30-day affiliate volume standing',
  description:
    "Volume of the fills of the last 30 days on the caller's connections to exchanges with an affiliate program. Reading it while `qualifies` grants Elite for 30 days (source `affiliate`) unless such a grant is still valid.",
  responses: { 200: json(envelopeOf(PromotionVolumeStandingSchema), 'Volume standing') },
});

const promotionRoute = operation(
  SESSION_ONLY,
  {
    method: 'get',
    path: '/v1/promotions/{connection_id}',
    operationId: 'getPromotion',
    tags: TAGS,
    summary: 'The promotion of an exchange',
    description:
      'Already claimed by the caller: 403 `PromotionAlreadyClaimed`; none for the exchange: 404 `PromotionNotFound`.',
    request: { params: PromotionConnectionParams },
    responses: { 200: json(envelopeOf(PromotionSchema), 'The promotion') },
  },
  [403, 404],
);

const signUpShowRoute = operation(SESSION_ONLY, {
  method: 'get',
  path: '/v1/promotions/{connection_id}/sign_up',
  operationId: 'getPromotionSignUp',
  tags: TAGS,
  summary: 'Whether to show the promotion sign-up form',
  description:
    'true when the caller is invited to the promotion and has not claimed it (false when the exchange has none).',
  request: { params: PromotionConnectionParams },
  responses: { 200: json(envelopeOf(PromotionSignUpShowSchema), 'Sign-up visibility') },
});

const signUpRoute = operation(
  SESSION_ONLY,
  {
    method: 'post',
    path: '/v1/promotions/{connection_id}/sign_up',
    operationId: 'signUpPromotion',
    tags: TAGS,
    summary: 'Verify the exchange UID and claim the promotion',
    description:
      "Verified: 30 days of Pro. Invalid payload or a UID failing the promotion's check: 400. Refused with 422 and nothing changed: `PromotionNotInvited`, `PromotionClaimed` (already claimed), `PromotionUidUsed` (UID already used on this exchange). No promotion for the exchange: 404.",
    request: {
      params: PromotionConnectionParams,
      body: { content: { 'application/json': { schema: PromotionSignUpWithUIDSchema } }, required: true },
    },
    responses: { 200: json(envelopeOf(PromotionSignUpResultSchema), 'Verified: promotion claimed') },
  },
  [404, 422],
);

export function registerPromotionRoutes(serve: Serve, promotions: PromotionUseCases): void {
  // The fixed paths first so `available`, `campaigns`, `random` and `volume` are never read as a connection id.
  serve(availableRoute, async (c) => c.json(ok(await promotions.available(actorOf(c))), 200));
  serve(campaignsRoute, async (c) => c.json(ok(await promotions.campaigns(actorOf(c))), 200));
  serve(randomRoute, async (c) => c.json(ok(await promotions.random(actorOf(c))), 200));
  serve(volumeRoute, async (c) => {
    const standing = await promotions.volume(actorOf(c));
    c.header('cache-control', 'no-store');
    return c.json(ok(standing), 200);
  });
  serve(promotionRoute, async (c) =>
    c.json(ok(await promotions.get(actorOf(c), c.req.valid('param').connection_id)), 200),
  );
  serve(signUpShowRoute, async (c) =>
    c.json(ok(await promotions.signUpShown(actorOf(c), c.req.valid('param').connection_id)), 200),
  );
  serve(signUpRoute, async (c) => {
    const { connection_id } = c.req.valid('param');
    return c.json(ok(await promotions.signUp(actorOf(c), connection_id, c.req.valid('json').uid)), 200);
  });
}
