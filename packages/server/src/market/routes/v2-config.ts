import { ok } from '@marketlens/contract';
import type { RunOperation, Serve } from '../../platform/operation.js';
import { restTable, serveTable } from '../../platform/rest-table.js';

/** The client configuration. */
const configRoutes = restTable('Config', {
  'market.config': [
    { get: '/v2/config', id: 'getConfig', ok: ['The config document', 'ConfigEnvelope'] },
    'Client configuration: timeframes, depths, signal controls, alert kinds, caller tier',
    'Readable without a credential (`caller.state` is `anonymous`). When the subscription cannot be read, `caller.state` is `unavailable` and `is_pro` is null: keep previous knowledge. Served as a private cache.',
  ],
});

export function registerConfigRoutes(serve: Serve, run: RunOperation): void {
  serveTable(serve, run, configRoutes, {
    // The document depends on the credentials and the client's platform and version.
    'market.config': async (c) => {
      const config = await run(c, 'market.config', {});
      c.header('cache-control', 'private, max-age=60');
      c.header('vary', 'x-session-token, x-api-key, x-platform, x-app-version');
      return c.json(ok(config), 200);
    },
  });
}
