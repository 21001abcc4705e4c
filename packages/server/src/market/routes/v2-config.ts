import { ConfigSchema, envelopeOf, ok } from '@marketlens/contract';
import { OPTIONAL_SESSION_OR_API_KEY } from '../../auth/authorize.js';
import { actorOf } from '../../platform/actor.js';
import { operation, type Serve } from '../../platform/operation.js';
import type { MarketUseCases } from '../use-cases.js';

const configRoute = operation(OPTIONAL_SESSION_OR_API_KEY, {
  method: 'get',
  path: '/v2/config',
  operationId: 'getConfig',
  tags: ['Config'],
  summary: 'Client configuration: timeframes, depths, signal controls, alert kinds, caller tier',
  description:
    'Readable without a credential (`caller.state` is `anonymous`). When the subscription cannot be read, `caller.state` is `unavailable` and `is_pro` is null: keep previous knowledge. Served as a private cache.',
  responses: {
    200: {
      description: 'The config document',
      content: { 'application/json': { schema: envelopeOf(ConfigSchema, 'ConfigEnvelope') } },
    },
  },
});

export function registerConfigRoutes(serve: Serve, market: MarketUseCases): void {
  serve(configRoute, (c) => {
    c.header('cache-control', 'private, max-age=60');
    c.header('vary', 'x-session-token, x-api-key, x-platform, x-app-version');
    return c.json(ok(market.config(actorOf(c))), 200);
  });
}
