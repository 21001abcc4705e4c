/**
 * TEST FIXTURE: the server's MCP backend for one fresh user, over in-memory SQLite and the
 * simulated venue, served on stdio with `runStdio`. The Inspector CLI test spawns it (through
 * vite-node, so it runs from source). Nothing here may print to stdout: stdout is the protocol.
 */
import { createSimulatedVenue } from '@marketlens/exchanges';
import { SERVICE_VERSION } from '../../src/app.js';
import { signup } from '../../src/auth/users.js';
import { mcpBackend } from '../../src/mcp/backend.js';
import { type AppDeps, DEFAULT_CONFIG } from '../../src/platform/deps.js';
import { createSqliteStorage } from '../../src/storage/sqlite/sqlite-storage.js';

// Loaded after the app: the REST routes decorate @marketlens/mcp's schemas with `.openapi()`,
// which @hono/zod-openapi installs on zod when it is first imported.
const { runStdio } = await import('@marketlens/mcp');

const now = () => Date.UTC(2026, 0, 15, 12, 0, 0);
const storage = createSqliteStorage(':memory:');
const deps: AppDeps = { storage, config: DEFAULT_CONFIG, now, market: createSimulatedVenue({ now }) };
const { user } = await signup(storage, 'stdio-fixture@example.com', 'password-123', now());
await runStdio(mcpBackend(deps, { kind: 'session', user, tier: 'free', tier_expires_at: null, api_key_id: null }), {
  version: SERVICE_VERSION,
});
