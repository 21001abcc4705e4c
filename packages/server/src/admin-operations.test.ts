import { OPERATIONS, type OperationId } from '@marketlens/contract';
import { beforeEach, describe, expect, it } from 'vitest';
import { type Harness, harness } from '../test/support/harness.js';
import { invokeOperation } from './operations.js';
import { type Actor, type AppDeps, DEFAULT_CONFIG } from './platform/deps.js';
import { PromotionAdminError } from './promotions/promotions.js';
import { createUseCases, type UseCases } from './use-cases.js';

/**
 * The operator's operations (`admin.*`, what `marketlens admin ...` invokes): each runs its use case
 * for the operator and refuses anyone else with `Unauthorized`, whatever credential they hold.
 */

const client = { platform: null, version: null, mobile: false, h1Free: false, legacyShapes: false };
const anonymous: Actor = { caller: { kind: 'anonymous' }, client };
const EMAIL = 'ops@example.com';
const DAY = 86_400_000;

let h: Harness;
let useCases: UseCases;
let userId: string;
let session: Actor;

beforeEach(async () => {
  h = harness();
  userId = (await h.signup(EMAIL)).userId;
  const user = await h.storage.users.byId(userId);
  if (user === null) throw new Error('no user');
  const deps: AppDeps = { storage: h.storage, config: DEFAULT_CONFIG, now: () => h.clock.now, market: h.market };
  useCases = createUseCases(deps);
  session = { caller: { kind: 'session', user, tier: 'elite', tier_expires_at: null, api_key_id: null }, client };
});

/** Invokes `id` as the operator. */
const asOperator = (id: OperationId, input: Record<string, unknown>) =>
  invokeOperation(useCases, anonymous, id, input, { operator: true });

/** The error name an invocation fails with, or `succeeded`. */
const refusal = (run: Promise<unknown>) =>
  run.then(
    () => 'succeeded',
    (err: unknown) => (err instanceof Error ? err.name : String(err)),
  );

/** A valid input of each admin operation, on the user of the test. */
const INPUT: Record<string, Record<string, unknown>> = {
  'admin.user': { user: EMAIL },
  'admin.users': {},
  'admin.setTier': { user: EMAIL, tier: 'pro' },
  'admin.grantTier': { user: EMAIL, tier: 'elite', days: 30 },
  'admin.apiKeys': { user: EMAIL },
  'admin.createApiKey': { user: EMAIL },
  'admin.revokeApiKey': { user: EMAIL, key_id: '00000000-0000-4000-8000-000000000001' },
  'admin.grantPilot': { user: EMAIL, days: 7 },
  'admin.revokePilot': { user: EMAIL },
  'admin.revokeSessions': { user: EMAIL },
  'admin.deleteUser': { user: EMAIL },
  'admin.disableUser': { user: EMAIL },
  'admin.enableUser': { user: EMAIL },
  'admin.oauthClients': {},
  'admin.removeOAuthClient': { client_id: 'client-1' },
  'admin.promotions': {},
  'admin.createPromotion': {
    connection_id: 'bybit',
    title: 'T',
    description: 'D',
    promotional_value: '30 days of Pro',
  },
  'admin.campaigns': {},
  'admin.createCampaign': {
    id: 'spring-cup',
    url: 'https://example.com/c',
    video_url: 'https://example.com/v.mp4',
    registration_close: '2099-01-01T00:00:00Z',
    exchange_icon_url: 'https://example.com/i.svg',
    exchange_icon_alt: 'Bybit',
  },
  'admin.invite': { user: EMAIL, promotion: 'bybit' },
};

/** The admin operations that name no user. */
const NO_USER = new Set([
  'admin.users',
  'admin.oauthClients',
  'admin.removeOAuthClient',
  'admin.promotions',
  'admin.createPromotion',
  'admin.campaigns',
  'admin.createCampaign',
]);

const ADMIN_IDS = (Object.keys(OPERATIONS) as OperationId[]).filter((id) => OPERATIONS[id].caller === 'admin');

describe('admin operations', () => {
  it('are the twenty of the admin commands, each with an input here', () => {
    expect(ADMIN_IDS.sort()).toEqual(Object.keys(INPUT).sort());
  });

  it.each(ADMIN_IDS)('%s: a non-operator is Unauthorized, even signed in at elite, and nothing changes', async (id) => {
    const before = await h.storage.users.byId(userId);
    expect(await refusal(invokeOperation(useCases, session, id, INPUT[id]))).toBe('Unauthorized');
    expect(await refusal(invokeOperation(useCases, anonymous, id, INPUT[id]))).toBe('Unauthorized');
    expect(await h.storage.users.byId(userId)).toEqual(before);
    expect(await h.storage.apiKeys.listByUser(userId)).toEqual([]);
    expect([await h.storage.promotions.list(), await h.storage.campaigns.list()]).toEqual([[], []]);
  });

  it.each(ADMIN_IDS.filter((id) => !NO_USER.has(id)))('%s: an unknown user is NotFound', async (id) => {
    expect(await refusal(asOperator(id, { ...INPUT[id], user: 'nobody@example.com' }))).toBe('NotFound');
  });

  it('admin.user and admin.users show a user without its password hash, by email (any case) or id', async () => {
    const shown = await asOperator('admin.user', { user: 'OPS@example.com' });
    expect(shown).toEqual({
      id: userId,
      email: EMAIL,
      tier: 'free',
      effective_tier: 'free',
      grant: null,
      created_at: h.clock.now,
      disabled_at: null,
    });
    expect(await asOperator('admin.user', { user: userId })).toEqual(shown);
    h.clock.now += 1_000;
    await h.signup('second@example.com');
    const all = (await asOperator('admin.users', {})) as { email: string }[];
    expect(all.map((u) => u.email)).toEqual([EMAIL, 'second@example.com']);
    expect(JSON.stringify(all)).not.toContain('password');
  });

  it('admin.setTier sets the base tier; admin.grantTier raises the effective one for its days', async () => {
    expect(await asOperator('admin.setTier', { user: EMAIL, tier: 'pro' })).toMatchObject({
      tier: 'pro',
      effective_tier: 'pro',
    });
    expect((await h.storage.users.byId(userId))?.tier).toBe('pro');
    const granted = await asOperator('admin.grantTier', { user: EMAIL, tier: 'elite', days: 30 });
    expect(granted).toMatchObject({
      tier: 'pro',
      effective_tier: 'elite',
      grant: { tier: 'elite', source: 'admin', expires_at: h.clock.now + 30 * DAY },
    });
    expect(await refusal(asOperator('admin.grantTier', { user: EMAIL, tier: 'elite', days: 0 }))).toBe(
      'InvalidRequest',
    );
  });

  it('admin.createApiKey shows the key once, admin.apiKeys lists it, admin.revokeApiKey revokes it once', async () => {
    const created = (await asOperator('admin.createApiKey', { user: EMAIL, expires_in_days: 10 })) as {
      key: string;
      api_key: { id: string; prefix: string; expires_at: number; revoked_at: number | null };
    };
    expect(created.key.startsWith(created.api_key.prefix)).toBe(true);
    expect(created.api_key).toMatchObject({ expires_at: h.clock.now + 10 * DAY, revoked_at: null });
    expect(created.api_key).not.toHaveProperty('key_hash');
    const listed = (await asOperator('admin.apiKeys', { user: EMAIL })) as { keys: { id: string }[] };
    expect(listed.keys.map((k) => k.id)).toEqual([created.api_key.id]);
    const revoked = await asOperator('admin.revokeApiKey', { user: EMAIL, key_id: created.api_key.id });
    expect(revoked).toMatchObject({ user_id: userId, api_key: { id: created.api_key.id, revoked_at: h.clock.now } });
    expect(await refusal(asOperator('admin.revokeApiKey', { user: EMAIL, key_id: created.api_key.id }))).toBe(
      'NotFound',
    );
  });

  it('admin.createApiKey stops at the limit of active keys', async () => {
    for (let i = 0; i < 10; i++) await asOperator('admin.createApiKey', { user: EMAIL });
    expect(await refusal(asOperator('admin.createApiKey', { user: EMAIL }))).toBe('ApiKeyLimitExceeded');
  });

  it('admin.grantPilot grants for its days; admin.revokePilot ends it, and says when none was in force', async () => {
    expect(await asOperator('admin.grantPilot', { user: EMAIL, days: 7 })).toEqual({
      user_id: userId,
      email: EMAIL,
      granted_at: h.clock.now,
      expires_at: h.clock.now + 7 * DAY,
    });
    expect(await asOperator('admin.revokePilot', { user: EMAIL })).toEqual({
      user_id: userId,
      email: EMAIL,
      revoked: true,
    });
    expect(await asOperator('admin.revokePilot', { user: EMAIL })).toMatchObject({ revoked: false });
  });

  it("admin.revokeSessions ends the user's sessions", async () => {
    expect(await asOperator('admin.revokeSessions', { user: EMAIL })).toEqual({
      user_id: userId,
      email: EMAIL,
      sessions: 1,
    });
    expect(await asOperator('admin.revokeSessions', { user: EMAIL })).toMatchObject({ sessions: 0 });
  });

  it('admin.disableUser and admin.enableUser change the account once each', async () => {
    expect(await asOperator('admin.disableUser', { user: EMAIL })).toEqual({
      user_id: userId,
      email: EMAIL,
      disabled_at: h.clock.now,
      changed: true,
      sessions: 1,
      oauth_tokens: 0,
    });
    expect(await asOperator('admin.disableUser', { user: EMAIL })).toMatchObject({ changed: false });
    expect(await asOperator('admin.enableUser', { user: EMAIL })).toMatchObject({
      disabled_at: null,
      changed: true,
    });
    expect(await asOperator('admin.enableUser', { user: EMAIL })).toMatchObject({ changed: false });
  });

  it('admin.deleteUser deletes the user; it is then unknown', async () => {
    expect(await asOperator('admin.deleteUser', { user: EMAIL })).toEqual({ user_id: userId, email: EMAIL });
    expect(await refusal(asOperator('admin.user', { user: EMAIL }))).toBe('NotFound');
  });

  it('admin.oauthClients lists the clients without their secret; admin.removeOAuthClient removes one once', async () => {
    await h.storage.oauth.createClient({
      id: 'client-1',
      secret_hash: 'hash',
      name: 'An MCP app',
      redirect_uris: ['https://app.example.com/callback'],
      token_endpoint_auth_method: 'client_secret_post',
      metadata: { client_name: 'An MCP app' },
      created_at: h.clock.now,
      registered_from: '203.0.113.7',
    });
    expect(await asOperator('admin.oauthClients', {})).toEqual([
      {
        id: 'client-1',
        name: 'An MCP app',
        redirect_uris: ['https://app.example.com/callback'],
        token_endpoint_auth_method: 'client_secret_post',
        created_at: h.clock.now,
        registered_from: '203.0.113.7',
        authorized_at: null,
        approved_by: null,
        live_tokens: 0,
        confidential: true,
      },
    ]);
    expect(await asOperator('admin.removeOAuthClient', { client_id: 'client-1' })).toEqual({
      client_id: 'client-1',
      removed: true,
    });
    expect(await asOperator('admin.oauthClients', {})).toEqual([]);
    expect(await refusal(asOperator('admin.removeOAuthClient', { client_id: 'client-1' }))).toBe('NotFound');
  });

  it('admin.createPromotion, admin.invite and admin.promotions: what the declaration says; refusals carry their reason', async () => {
    const created = await asOperator('admin.createPromotion', INPUT['admin.createPromotion']);
    expect(OPERATIONS['admin.createPromotion'].output.parse(created)).toEqual(created);
    expect(created).toMatchObject({ connection_id: 'bybit', partner_name: 'Bybit', invited: 0, claimed: 0 });
    const reasonOf = (run: Promise<unknown>) =>
      run.then(
        () => 'succeeded',
        (err: unknown) => (err instanceof PromotionAdminError ? `${err.name} ${err.reason}` : String(err)),
      );
    expect(await reasonOf(asOperator('admin.createPromotion', INPUT['admin.createPromotion']))).toBe(
      'InvalidRequest exists',
    );
    expect(
      await reasonOf(
        asOperator('admin.createPromotion', { ...INPUT['admin.createPromotion'], connection_id: 'nowhere' }),
      ),
    ).toBe('UnknownExchange unknown_exchange');
    expect(await refusal(asOperator('admin.createPromotion', { ...INPUT['admin.createPromotion'], title: '' }))).toBe(
      'InvalidRequest',
    );
    const invited = await asOperator('admin.invite', { user: 'OPS@example.com', promotion: 'bybit' });
    expect(OPERATIONS['admin.invite'].output.parse(invited)).toEqual(invited);
    expect(invited).toEqual({
      user: { id: userId, email: EMAIL },
      promotion: { id: (created as { id: string }).id, connection_id: 'bybit', title: 'T' },
      created: true,
      invited_at: h.clock.now,
      claimed: false,
    });
    expect(await asOperator('admin.invite', { user: userId, promotion: 'bybit' })).toMatchObject({ created: false });
    expect(await reasonOf(asOperator('admin.invite', { user: EMAIL, promotion: 'okx' }))).toBe(
      'PromotionNotFound unknown_promotion',
    );
    const listed = await asOperator('admin.promotions', {});
    expect(OPERATIONS['admin.promotions'].output.parse(listed)).toEqual(listed);
    expect(listed).toEqual([{ ...(created as object), invited: 1 }]);
  });

  it('admin.createCampaign and admin.campaigns: live until registration closes; a taken id or a past close is refused', async () => {
    const created = await asOperator('admin.createCampaign', INPUT['admin.createCampaign']);
    expect(OPERATIONS['admin.createCampaign'].output.parse(created)).toEqual(created);
    expect(created).toMatchObject({
      id: 'spring-cup',
      registration_close: '2099-01-01T00:00:00.000Z',
      web_banner_video_position: 'center',
      created_at: h.clock.now,
      live: true,
    });
    const reasonOf = (input: Record<string, unknown>) =>
      asOperator('admin.createCampaign', { ...INPUT['admin.createCampaign'], ...input }).then(
        () => 'succeeded',
        (err: unknown) => (err instanceof PromotionAdminError ? `${err.name} ${err.reason}` : String(err)),
      );
    expect(await reasonOf({})).toBe('InvalidRequest exists');
    expect(await reasonOf({ id: 'old', registration_close: h.clock.now })).toBe('InvalidRequest closed');
    // Past the last date a JavaScript date holds: refused by the schema, not a crash of its ISO time.
    expect(
      await refusal(
        asOperator('admin.createCampaign', { ...INPUT['admin.createCampaign'], id: 'far', registration_close: 9e15 }),
      ),
    ).toBe('InvalidRequest');
    const listed = await asOperator('admin.campaigns', {});
    expect(OPERATIONS['admin.campaigns'].output.parse(listed)).toEqual(listed);
    expect(listed).toEqual([created]);
  });
});
