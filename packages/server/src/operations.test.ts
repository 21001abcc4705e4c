import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ERROR_CODES, OPERATIONS, type OperationId } from '@marketlens/contract';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Harness, harness } from '../test/support/harness.js';
import { OPENAPI_PATH } from './app.js';
import { loadConfig } from './config/load.js';
import { createMarketlens } from './marketlens.js';
import { authOf, checkCaller, invokeOperation, REGISTRY } from './operations.js';
import { type Actor, type AppDeps, type Caller, DEFAULT_CONFIG } from './platform/deps.js';
import { securityOf } from './platform/operation.js';
import { createSqliteStorage } from './storage/sqlite/sqlite-storage.js';
import { createUseCases, type UseCases } from './use-cases.js';

/**
 * The registry of operations: every operation the contract declares is bound, REST publishes the
 * credentials its declaration needs, and `invokeOperation` (the CLI's entry) parses, checks the
 * caller and answers what the REST route answers in `data`.
 */

const config = { rateLimit: { limit: 1_000_000, windowMs: 60_000 } };
const client = { platform: null, version: null, mobile: false, h1Free: false, legacyShapes: false };

let h: Harness;
let useCases: UseCases;
let token: string;
let session: Actor;
let apiKey: Actor;
const anonymous: Actor = { caller: { kind: 'anonymous' }, client };

beforeAll(async () => {
  h = harness(config);
  const signedUp = await h.signup();
  token = signedUp.token;
  const user = await h.storage.users.byId(signedUp.userId);
  if (user === null) throw new Error('no user');
  const deps: AppDeps = {
    storage: h.storage,
    config: { ...DEFAULT_CONFIG, ...config },
    now: () => h.clock.now,
    market: h.market,
  };
  useCases = createUseCases(deps);
  const caller = (kind: 'session' | 'api_key'): Caller => ({
    kind,
    user,
    tier: 'free',
    tier_expires_at: null,
    api_key_id: kind === 'api_key' ? 'key-1' : null,
  });
  session = { caller: caller('session'), client };
  apiKey = { caller: caller('api_key'), client };
});

/** The `data` of a REST GET as the signed-in user. */
async function rest(path: string): Promise<unknown> {
  const res = await h.request(path, { headers: { 'x-session-token': token } });
  expect(res.status, path).toBe(200);
  return ((await res.json()) as { data: unknown }).data;
}

/** The error an invocation fails with, by name (`AppError` names are the contract's error names). */
const refusal = (run: Promise<unknown>) =>
  run.then(
    () => 'succeeded',
    (err: unknown) => (err instanceof Error ? err.name : String(err)),
  );

describe('the registry of operations', () => {
  it('binds every declared operation, and each REST route that runs one publishes the credentials it needs', async () => {
    expect(Object.keys(REGISTRY).sort()).toEqual(Object.keys(OPERATIONS).sort());
    const doc = (await (await h.request(OPENAPI_PATH)).json()) as {
      paths: Record<string, Record<string, { security?: unknown }>>;
    };
    const checked = new Set<OperationId>();
    for (const id of Object.keys(OPERATIONS) as OperationId[]) {
      for (const row of REGISTRY[id].weight) {
        const [method, path] = row.split(' ');
        if (method === 'MCP' || path === undefined) continue;
        const published = doc.paths[path.replace(/:(\w+)/g, '{$1}')]?.[method.toLowerCase()];
        expect(published, row).toBeDefined();
        expect(published?.security, `${id}: ${row}`).toEqual(securityOf(authOf(id)));
        checked.add(id);
      }
    }
    // Every operation but the three webhook ones (MCP only) and the operator's (`admin`: the CLI
    // only, no route) has its REST route checked. Changed when the admin operations were declared.
    const admin = Object.values(OPERATIONS).filter((op) => op.caller === 'admin').length;
    expect(admin).toBeGreaterThan(0);
    expect(checked.size).toBe(Object.keys(OPERATIONS).length - 3 - admin);
  });

  it('answers by id what the REST route answers in data', async () => {
    expect(await invokeOperation(useCases, session, 'market.exchanges', {})).toEqual(await rest('/v1/exchanges'));
    expect(await invokeOperation(useCases, session, 'market.assets', { asset_class: 'coins', limit: 5 })).toEqual(
      await rest('/v2/assets/?asset_class=coins&limit=5'),
    );
    // The input schema's spellings and defaults: `1d` is the REST `d1`, 500 candles by default.
    expect(
      await invokeOperation(useCases, session, 'analysis.signal', { asset_id: 'bitcoin', timeframe: '1d' }),
    ).toEqual(await rest('/v2/analysis/bitcoin/signal?timeframe=d1&limit=500'));
    // An operation that needs no caller answers an anonymous one.
    expect(await invokeOperation(useCases, anonymous, 'analysis.trackRecord', {})).toEqual(
      await rest('/v2/track-record'),
    );
  });

  it('refuses an unknown id, bad input and a caller the operation does not accept, with the REST codes', async () => {
    expect(await refusal(invokeOperation(useCases, session, 'market.nothing', {}))).toBe('NotFound');
    expect(await refusal(invokeOperation(useCases, session, 'analysis.get', { timeframe: 'd1' }))).toBe(
      'InvalidRequest',
    );
    expect(await refusal(invokeOperation(useCases, session, 'market.assets', { limit: 0 }))).toBe('InvalidRequest');
    expect(await refusal(invokeOperation(useCases, anonymous, 'market.exchanges', {}))).toBe('Unauthorized');
    expect(await refusal(invokeOperation(useCases, apiKey, 'alerts.list', {}))).toBe('ApiKeyNotAccepted');
    expect(await refusal(invokeOperation(useCases, apiKey, 'market.exchanges', {}))).toBe('succeeded');
  });

  it('lets only the operator run an admin operation', () => {
    expect(() => checkCaller('admin', session)).toThrow(expect.objectContaining({ name: 'Unauthorized' }));
    expect(() => checkCaller('admin', anonymous, { operator: true })).not.toThrow();
    expect(() => checkCaller('none', anonymous)).not.toThrow();
  });
});

/** A valid input of every operation: the property's first example, so each is reached once. */
const UUID = '00000000-0000-4000-8000-000000000001';
const ALERT = { asset_id: 'bitcoin', kind: 'price', target: 100_000 };
const VALID: Record<OperationId, Record<string, fc.JsonValue>> = {
  'market.assets': {},
  'market.popular': {},
  'market.exchanges': {},
  'market.exchange': { exchange_id: 'binance' },
  'market.favorites': {},
  'market.addFavorite': { asset_id: 'bitcoin' },
  'market.news': { limit: 3 },
  'market.removeFavorite': { asset_id: 'bitcoin' },
  'market.config': {},
  'analysis.get': { asset_id: 'bitcoin' },
  'analysis.signal': { asset_id: 'bitcoin' },
  'analysis.overview': { asset_id: 'bitcoin', locale: 'de' },
  'analysis.candles': { asset_id: 'bitcoin' },
  'analysis.markets': { asset_id: 'bitcoin' },
  'analysis.signals': {},
  'analysis.screener': {},
  'analysis.fearGreed': {},
  'analysis.insights': {},
  'analysis.assetTrackRecord': { asset_id: 'bitcoin' },
  'analysis.trackRecord': {},
  'auth.signup': { email: 'invoked@example.com', password: 'correct horse battery' },
  'auth.login': { email: 'invoked@example.com', password: 'correct horse battery' },
  'auth.logout': { session_token: 'no-such-session' },
  'auth.verifyEmail': { token: 'no-such-token' },
  'auth.resendVerification': { email: 'nobody@example.com' },
  'auth.requestPasswordReset': { email: 'nobody@example.com' },
  'auth.confirmPasswordReset': { token: 'no-such-token', password: 'correct horse battery' },
  'auth.deleteAccount': { password: 'not the password' },
  'auth.me': {},
  'auth.accountInfo': {},
  'accounts.positions': {},
  'accounts.summary': {},
  'accounts.balances': {},
  'accounts.orders': {},
  'accounts.trades': {},
  'accounts.positionAnalysis': { position_id: 'pos-1' },
  'accounts.editPosition': { position_id: 'pos-1', notes: 'n' },
  'accounts.connections': {},
  'accounts.connect': { exchange_id: 'no-such-exchange' },
  'accounts.disconnect': { connection_id: UUID },
  'keys.list': {},
  'keys.create': {},
  'keys.credits': {},
  'keys.revoke': { key_id: UUID },
  'alerts.list': {},
  'alerts.create': ALERT,
  'alerts.update': { alert_id: UUID, payload: ALERT },
  'alerts.delete': { alert_id: UUID },
  'alerts.limits': {},
  'alerts.preferences': {},
  'alerts.updatePreferences': { regime_notification_disabled: true },
  'alerts.registerWebhook': { url: 'https://203.0.113.10/hook' },
  'alerts.webhooks': {},
  'alerts.deleteWebhook': { webhook_id: UUID },
  'alerts.vapidPublicKey': {},
  'alerts.registerDevice': {
    endpoint: 'https://push.example.net/send/d6f2c1',
    keys: {
      p256dh: 'BPy1g3pxMoQQdmpyqRQCYp5Uk62z5qI7DPGCGoEmvgFi5tCmqNhgHAgc4MnMDC1uW2UHFIKB49Y5jI0-3lNmmlA',
      auth: 'ERb36ta3_gyTVUqngJt_wA',
    },
  },
  'alerts.devices': {},
  'alerts.removeDevice': { device_id: UUID },
  'pilot.spectate': {},
  'pilot.trackRecord': {},
  'promotions.available': {},
  'promotions.campaigns': {},
  'promotions.random': {},
  'promotions.volume': {},
  'promotions.get': { connection_id: 'bybit' },
  'promotions.signUpShown': { connection_id: 'bybit' },
  'promotions.signUp': { connection_id: 'bybit', uid: '123456789' },
  // The operator's, on a user no one holds: each reaches its use case and answers NotFound.
  'admin.user': { user: 'nobody@example.com' },
  'admin.users': {},
  'admin.setTier': { user: 'nobody@example.com', tier: 'pro' },
  'admin.grantTier': { user: 'nobody@example.com', tier: 'pro', days: 30 },
  'admin.apiKeys': { user: 'nobody@example.com' },
  'admin.createApiKey': { user: 'nobody@example.com' },
  'admin.revokeApiKey': { user: 'nobody@example.com', key_id: UUID },
  'admin.grantPilot': { user: 'nobody@example.com', days: 7 },
  'admin.revokePilot': { user: 'nobody@example.com' },
  'admin.revokeSessions': { user: 'nobody@example.com' },
  'admin.deleteUser': { user: 'nobody@example.com' },
  'admin.disableUser': { user: 'nobody@example.com' },
  'admin.enableUser': { user: 'nobody@example.com' },
  'admin.oauthClients': {},
  'admin.removeOAuthClient': { client_id: 'no-such-client' },
  // The operator's on promotions: the two publishes succeed, the invitation names no one (NotFound).
  'admin.promotions': {},
  'admin.createPromotion': {
    connection_id: 'bybit',
    title: 'Trade on Bybit',
    description: 'Get Pro',
    promotional_value: '30 days of Pro',
  },
  'admin.campaigns': {},
  'admin.createCampaign': {
    url: 'https://example.com/c',
    video_url: 'https://example.com/v.mp4',
    registration_close: '2099-01-01T00:00:00Z',
    exchange_icon_url: 'https://example.com/i.svg',
    exchange_icon_alt: 'Bybit',
  },
  'admin.invite': { user: 'nobody@example.com', promotion: 'bybit' },
};

/** The field names of an operation's input schema (a piped schema: its input side's). */
function fieldsOf(schema: unknown): string[] {
  const s = schema as { shape?: object; in?: { shape?: object } };
  return Object.keys(s.shape ?? s.in?.shape ?? {});
}

describe('invoking an operation with any input', () => {
  it.each(Object.keys(OPERATIONS) as OperationId[])(
    '%s: answers, or fails with a contract error; bad input exactly when its schema refuses it',
    async (id) => {
      const fields = fieldsOf(OPERATIONS[id].input);
      const input = fc.oneof(
        fc.dictionary(fc.constantFrom(...fields, 'extra'), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
        fc.jsonValue({ maxDepth: 1 }),
      );
      const outcomes = new Map<string, number>();
      await fc.assert(
        fc.asyncProperty(input, async (raw) => {
          // The operator's operations are invoked as the operator, so their use cases are reached too.
          const operator = OPERATIONS[id].caller === 'admin';
          const outcome = await invokeOperation(useCases, session, id, raw, { operator }).then(
            () => 'ok',
            (err: unknown) => {
              // Every failure is one of the contract's errors (REST's ErrorResponse), never another throw.
              expect(err, `${id}(${JSON.stringify(raw)})`).toBeInstanceOf(Error);
              const name = (err as Error).name;
              expect(Object.hasOwn(ERROR_CODES, name), `${id}(${JSON.stringify(raw)}): ${name}`).toBe(true);
              expect(name, `${id}(${JSON.stringify(raw)})`).not.toBe('GeneralError');
              return (err as Error).message.startsWith('Invalid input:') ? 'invalid' : name;
            },
          );
          const accepted = OPERATIONS[id].input.safeParse(raw ?? {}).success;
          expect(outcome === 'invalid', `${id}(${JSON.stringify(raw)}) -> ${outcome}`).toBe(!accepted);
          outcomes.set(accepted ? 'accepted' : 'refused', (outcomes.get(accepted ? 'accepted' : 'refused') ?? 0) + 1);
        }),
        // Two examples make both outcomes certain whatever the seed: the valid input, and a number
        // (no operation's input is one). Without the second, a seed whose twelve draws all happen to be
        // objects an empty input schema accepts failed every such operation at once (FC_SEED=252901435).
        { numRuns: 12, examples: [[VALID[id]], [7]] },
      );
      // The valid example reached the use case, and some input was refused.
      expect(outcomes.get('accepted') ?? 0, id).toBeGreaterThan(0);
      expect(outcomes.get('refused') ?? 0, id).toBeGreaterThan(0);
    },
  );
});

// Last: closing the instance releases the market it was given.
describe('Marketlens.invoke', () => {
  it("is the composition root's `invoke` (the CLI's entry), over the instance's storage and market", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'marketlens-invoke-'));
    const ml = await createMarketlens(loadConfig({ env: { MARKETLENS_DATA_DIR: dir } }), {
      storage: createSqliteStorage(':memory:'),
      market: h.market,
      extra: { now: () => h.clock.now },
      demo: false,
    });
    try {
      expect(await ml.invoke(session.caller, 'market.exchange', { exchange_id: 'binance' })).toEqual(
        await rest('/v1/exchanges/binance'),
      );
      expect(await refusal(ml.invoke(session.caller, 'market.exchange', { exchange_id: 'nowhere' }))).toBe(
        'UnknownExchange',
      );
    } finally {
      await ml.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
