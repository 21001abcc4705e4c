import { ok } from '@marketlens/contract';
import { type RunOperation, routesOf, type Serve } from '../../platform/operation.js';

const route = routesOf('Config');

const configRoute = route('market.config', {
  method: 'get',
  path: '/v2/config',
  operationId: 'getConfig',
  summary: 'Client configuration: timeframes, depths, signal controls, alert kinds, caller tier',
  description:
    'Readable without a credential (`caller.state` is `anonymous`). When the subscription cannot be read, `caller.state` is `unavailable` and `is_pro` is null: keep previous knowledge. Served as a private cache.',
  ok: ['The config document', 'ConfigEnvelope'],
});

export function registerConfigRoutes(serve: Serve, run: RunOperation): void {
  serve(configRoute, async (c) => {
    const config = await run(c, 'market.config', {});
    c.header('cache-control', 'private, max-age=60');
    c.header('vary', 'x-session-token, x-api-key, x-platform, x-app-version');
    return c.json(ok(config), 200);
  });
}
