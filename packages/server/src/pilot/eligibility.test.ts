import { CATALOG, callTool } from '@marketlens/mcp';
import { describe, expect, it } from 'vitest';
import { harness } from '../../test/support/harness.js';
import { mcpBackend } from '../mcp/backend.js';
import { DEFAULT_CONFIG } from '../platform/deps.js';
import { grantPilotAccess, revokePilotAccess } from './admin.js';

const DAY = 86_400_000;

/** The same use case, spectating the pilot, through REST and through the MCP tool: one answer. */
describe('pilot access granted by an operator', () => {
  it('lets a user without affiliate volume spectate through REST and MCP alike, until it ends', async () => {
    const h = harness();
    const { token, userId } = await h.signup('pilot-guest@example.com');
    const user = await h.storage.users.byId(userId);
    if (!user) throw new Error('no user');
    const deps = { storage: h.storage, config: DEFAULT_CONFIG, now: () => h.clock.now, market: h.market };
    const backend = mcpBackend(deps, { kind: 'session', user, tier: 'free', tier_expires_at: null, api_key_id: null });
    const tool = CATALOG.find((t) => t.name === 'get_pilot_spectate');
    if (!tool) throw new Error('no get_pilot_spectate tool');
    const both = async () => {
      const rest = await h.request('/pilot/spectate', { headers: { 'x-session-token': token } });
      const mcp = await callTool(backend, tool, {});
      const restBody = (await rest.json()) as { code: unknown; data?: unknown };
      return {
        status: rest.status,
        restCode: restBody.code,
        mcpCode: mcp.isError ? (mcp.structuredContent as { code: unknown }).code : 0,
        same: mcp.isError ? null : JSON.stringify(restBody.data) === JSON.stringify(mcp.structuredContent),
      };
    };

    expect(await both()).toEqual({
      status: 403,
      restCode: 'PilotNotEligible',
      mcpCode: 'PilotNotEligible',
      same: null,
    });

    await grantPilotAccess(h.storage, 'pilot-guest@example.com', 7, h.clock.now);
    expect(await both()).toEqual({ status: 200, restCode: 0, mcpCode: 0, same: true });

    h.clock.now += 7 * DAY;
    expect((await both()).status).toBe(403);

    await grantPilotAccess(h.storage, userId, 30, h.clock.now);
    expect((await both()).status).toBe(200);
    expect(await revokePilotAccess(h.storage, userId)).toBe(true);
    expect(await both()).toMatchObject({ status: 403, mcpCode: 'PilotNotEligible' });
    expect(await revokePilotAccess(h.storage, userId)).toBe(false);
  });

  it('refuses a grant of no days, too many, or to nobody', async () => {
    const h = harness();
    await h.signup('someone@example.com');
    for (const days of [0, -1, 1.5, 3651]) {
      await expect(grantPilotAccess(h.storage, 'someone@example.com', days)).rejects.toThrow(/days/);
    }
    await expect(grantPilotAccess(h.storage, 'nobody@example.com', 7)).rejects.toThrow(/No user/);
  });
});
