import { describe, expect, it } from 'vitest';
import { harness } from '../../../test/support/harness.js';
import { connectedClient, toolResult } from '../../../test/support/mcp-agreement.js';
import { mcpBackend } from '../../mcp/backend.js';
import { DEFAULT_CONFIG } from '../../platform/deps.js';
import { grantTier, tierStanding } from '../tiers.js';
import { DEFAULT_FAVORITES } from '../users.js';

/**
 * The account answers the same over REST and MCP: `get_account_info` holds the `data` of
 * `GET /v1/auth/me` (user, effective tier and when its grant ends) and the user's favorites.
 */
describe('the account over REST and MCP', () => {
  it('get_account_info holds the /v1/auth/me data and the favorites', async () => {
    const h = harness();
    const { token, userId } = await h.signup('ada@example.com');
    await grantTier(h.storage, userId, 'pro', 'promotion', 30, h.clock.now);
    const res = await h.request('/v1/auth/me', { headers: { 'x-session-token': token } });
    expect(res.status).toBe(200);
    const data = ((await res.json()) as { data: { tier: unknown; tier_expires_at: unknown } }).data;
    expect(data).toMatchObject({ tier: 'pro', tier_expires_at: new Date(h.clock.now + 30 * 86_400_000).toISOString() });

    // The MCP caller as `/mcp` resolves it: the token's user at the tier in force.
    const user = await h.storage.users.byId(userId);
    if (user === null) throw new Error('no user');
    const standing = await tierStanding(h.storage, userId, user.tier, h.clock.now);
    const deps = { storage: h.storage, config: DEFAULT_CONFIG, now: () => h.clock.now, market: h.market };
    const backend = mcpBackend(deps, {
      kind: 'session',
      user,
      tier: standing.tier,
      tier_expires_at: standing.grant?.expires_at ?? null,
      api_key_id: null,
    });
    const client = await connectedClient(backend);
    expect(await toolResult(client, 'get_account_info')).toEqual({ ...data, favorites: [...DEFAULT_FAVORITES] });
  });
});
