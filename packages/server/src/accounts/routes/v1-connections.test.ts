import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createCcxtAccountData,
  createSimulatedAccount,
  SIMULATED_VENUE_ID,
  verifyCcxtCredentials,
} from '@marketlens/exchanges';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type SyncTestApp, syncTestApp } from '../../../test/support/sync-app.js';
import { type LocalVenueServer, loadBybitFixture } from '../../../test/support/venues.js';

const { bybitFailures, bybitMarkets, bybitRoutes, NOW, startVenueServer } = await loadBybitFixture();

let server: LocalVenueServer;
const dirs: string[] = [];
beforeAll(async () => {
  server = await startVenueServer();
  server.routes(bybitRoutes());
});
afterAll(async () => {
  await server.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
beforeEach(() => server.reset());

const KEY = 'route-test-api-key-5150';
const SECRET = 'route-test-secret-8675309';
const PASSPHRASE = 'route-test-passphrase-1234';

let verifications = 0;
const ccxt = () => ({
  proxyUrl: server.proxyUrl,
  markets: bybitMarkets,
  rateLimit: false,
  timeoutMs: 2000,
  now: () => NOW,
});
function app(filename?: string): SyncTestApp {
  const t: SyncTestApp = syncTestApp({
    now: NOW,
    filename,
    autoSync: false,
    deps: {
      // The simulated venue as by default; ccxt venues through the local venue server.
      accountFor: (c, credentials) =>
        c.venue === SIMULATED_VENUE_ID
          ? createSimulatedAccount(t.market, { connection: c.id })
          : createCcxtAccountData({ ...ccxt(), venue: c.venue, connection: c.id, credentials }),
      verifyCredentials: (venue, credentials) => {
        verifications++;
        return verifyCcxtCredentials({ ...ccxt(), venue, credentials });
      },
    },
  });
  return t;
}

async function body(res: Response): Promise<{ code: unknown; message?: string; data?: unknown; success: boolean }> {
  return (await res.json()) as { code: unknown; message?: string; data?: unknown; success: boolean };
}

describe('POST /v1/connections/user', () => {
  it('needs a session', async () => {
    const t = app();
    const res = await t.request('/v1/connections/user', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ exchange_id: SIMULATED_VENUE_ID }),
    });
    expect(res.status).toBe(401);
  });

  it("answers 'Invalid credentials: ...' for missing fields, before any venue call", async () => {
    const t = app();
    const { token } = await t.signup();
    verifications = 0;
    let res = await t.post('/v1/connections/user', { exchange_id: 'bybit', apiKey: KEY }, token);
    expect(res.status).toBe(400);
    expect(await body(res)).toMatchObject({
      code: 'InvalidConnectionCredentials',
      message: 'Invalid credentials: secret',
    });
    res = await t.post('/v1/connections/user', { exchange_id: 'okx', apiKey: KEY, secret: '  ' }, token);
    expect(await body(res)).toMatchObject({ message: 'Invalid credentials: secret, password' });
    // Not header-safe (reliability finding F1: this was a 500 from inside the HTTP client).
    res = await t.post('/v1/connections/user', { exchange_id: 'bybit', apiKey: '\u{1F642}', secret: 'x' }, token);
    expect(res.status).toBe(400);
    expect(await body(res)).toMatchObject({
      code: 'InvalidConnectionCredentials',
      message: 'Invalid credentials: apiKey (only printable ASCII characters)',
    });
    expect(verifications).toBe(0);
    expect(server.requests).toEqual([]);
  });

  it('refuses control characters and absurd lengths in every credential field, before any venue call', async () => {
    const t = app();
    const { token } = await t.signup();
    verifications = 0;
    // A CR/LF in a secret once reached the venue client (issue 21); a NUL, a tab, DEL, a 1,025-character key.
    const bad = ['abc\r\nHost: evil.example', 'abc\ndef', 'abc\u0000def', 'abc\tdef', 'abc\u007fdef'];
    for (const field of ['apiKey', 'secret', 'password'] as const) {
      for (const value of bad) {
        const given = { exchange_id: 'okx', apiKey: KEY, secret: SECRET, password: PASSPHRASE, [field]: value };
        const res = await t.post('/v1/connections/user', given, token);
        expect(res.status).toBe(400);
        const b = await body(res);
        expect(b).toMatchObject({ code: 'InvalidConnectionCredentials' });
        expect(b.message).toBe(
          `Invalid credentials: ${field} (control characters, line breaks included, are not allowed)`,
        );
      }
      const long = { exchange_id: 'okx', apiKey: KEY, secret: SECRET, password: PASSPHRASE, [field]: 'k'.repeat(1025) };
      const res = await t.post('/v1/connections/user', long, token);
      expect(res.status).toBe(400);
      expect((await body(res)).message).toBe(`Invalid credentials: ${field} (at most 1024 characters)`);
    }
    // Whatever the venue: the simulated one too, and a wallet address.
    const sim = await t.post('/v1/connections/user', { exchange_id: SIMULATED_VENUE_ID, secret: 'a\r\nb' }, token);
    expect(sim.status).toBe(400);
    const wallet = await t.post('/v1/connections/user', { exchange_id: 'hyperliquid', walletAddress: '0x\n' }, token);
    expect((await body(wallet)).code).toBe('InvalidConnectionCredentials');
    expect(verifications).toBe(0);
    expect(server.requests).toEqual([]);
  });

  it('takes a PEM private key as a secret, line breaks and all, but nothing else inside it', async () => {
    const t = app();
    const { token } = await t.signup();
    const pem = (body: string) => `-----BEGIN EC PRIVATE KEY-----\n${body}\n-----END EC PRIVATE KEY-----\n`;
    const key = pem('MHcCAQEEIBYx0bC1uVd2tqR8mVq0kNq2Pm5dUgtx+f9Xw1cOQ3q1oAoGCCqGSM49\nAwEHoUQDQgAE5n0Y8x0dH1Lw==');
    const res = await t.post('/v1/connections/user', { exchange_id: 'coinbase', apiKey: KEY, secret: key }, token);
    expect((await body(res)).message ?? '').not.toMatch(/control characters/);
    verifications = 0;
    server.reset();
    const injected = pem('MHcCAQEEIBYx0bC1\r\nHost: evil.example');
    const bad = await t.post('/v1/connections/user', { exchange_id: 'coinbase', apiKey: KEY, secret: injected }, token);
    expect(bad.status).toBe(400);
    expect((await body(bad)).code).toBe('InvalidConnectionCredentials');
    expect(verifications).toBe(0);
    expect(server.requests).toEqual([]);
  });

  it('format-checks a wallet address before any venue call', async () => {
    const t = app();
    const { token } = await t.signup();
    verifications = 0;
    for (const walletAddress of ['0x123', 'not-an-address', `0x${'g'.repeat(40)}`]) {
      const res = await t.post('/v1/connections/user', { exchange_id: 'hyperliquid', walletAddress }, token);
      expect(res.status).toBe(400);
      expect((await body(res)).message).toMatch(/^Invalid credentials: walletAddress \(expected 0x/);
    }
    expect(verifications).toBe(0);
    expect(server.requests).toEqual([]);
  });

  it('404s an unknown exchange and 400s a malformed body', async () => {
    const t = app();
    const { token } = await t.signup();
    const res = await t.post('/v1/connections/user', { exchange_id: 'mtgox', apiKey: KEY, secret: SECRET }, token);
    expect(res.status).toBe(404);
    expect(await body(res)).toMatchObject({ code: 'UnknownExchange' });
    expect((await t.post('/v1/connections/user', { apiKey: KEY }, token)).status).toBe(400);
    expect((await t.post('/v1/connections/user', { exchange_id: 'bybit', apiKey: 42 }, token)).status).toBe(400);
  });

  it("passes the venue's rejection on (422) and an outage as 503; nothing is stored", async () => {
    const t = app();
    const { token, userId } = await t.signup();
    server.override({
      method: 'GET',
      host: 'api.bybit.com',
      path: '/v5/account/wallet-balance',
      reply: () => bybitFailures.badKey,
    });
    let res = await t.post('/v1/connections/user', { exchange_id: 'bybit', apiKey: KEY, secret: SECRET }, token);
    expect(res.status).toBe(422);
    expect(await body(res)).toMatchObject({
      code: 'VenueCredentialsRejected',
      message: 'Bybit rejected the API key: API key is invalid.',
    });
    server.reset();
    server.override({
      method: 'GET',
      host: 'api.bybit.com',
      path: '/v5/account/wallet-balance',
      reply: () => bybitFailures.maintenance,
    });
    res = await t.post('/v1/connections/user', { exchange_id: 'bybit', apiKey: KEY, secret: SECRET }, token);
    expect(res.status).toBe(503);
    expect(await body(res)).toMatchObject({ code: 'ServiceUnavailable' });
    expect(await t.storage.connections.byUser(userId)).toEqual([]);
  });

  it('connects the simulated venue without credentials; GET lists it with its positions after a sync', async () => {
    const t = app();
    const { token } = await t.signup();
    const res = await t.post('/v1/connections/user', { exchange_id: SIMULATED_VENUE_ID, label: 'Demo' }, token);
    expect(res.status).toBe(200);
    const created = (await body(res)).data as { id: string; sync: { status: string }; positions: unknown[] };
    expect(created).toMatchObject({ exchange_id: SIMULATED_VENUE_ID, label: 'Demo', positions: [] });
    expect(created.sync.status).toBe('pending');
    await t.scheduler.syncOnce(created.id);
    const list = await t.request('/v1/connections/user', { headers: { 'x-session-token': token } });
    expect(list.status).toBe(200);
    const [c] = (await body(list)).data as Array<{
      id: string;
      sync: { status: string; last_success_at: string };
      positions: Array<{ pair: string; stop_loss: number | null }>;
    }>;
    expect(c.id).toBe(created.id);
    expect(c.sync.status).toBe('ok');
    expect(c.positions).toHaveLength(6);
    // Another user sees none of it.
    const other = await t.signup();
    const theirs = await t.request('/v1/connections/user', { headers: { 'x-session-token': other.token } });
    expect((await body(theirs)).data).toEqual([]);
  });

  it('disconnects: the connection goes with its positions, balances and fills; others 404', async () => {
    const t = app();
    const { token, userId } = await t.signup();
    const res = await t.post('/v1/connections/user', { exchange_id: SIMULATED_VENUE_ID }, token);
    const { id } = (await body(res)).data as { id: string };
    await t.scheduler.syncOnce(id);
    expect((await t.storage.positions.openByUser(userId)).length).toBeGreaterThan(0);
    expect(await t.storage.fills.countByConnection(id)).toBeGreaterThan(0);
    const other = await t.signup();
    const del = (tok: string, cid = id) =>
      t.request(`/v1/connections/user/${cid}`, { method: 'DELETE', headers: { 'x-session-token': tok } });
    const theirs = await del(other.token);
    expect([theirs.status, (await body(theirs)).code]).toEqual([404, 'ConnectionNotFound']);
    expect((await del(token)).status).toBe(200);
    expect(await t.storage.connections.byUser(userId)).toEqual([]);
    expect(await t.storage.positions.openByUser(userId)).toEqual([]);
    expect(await t.storage.balances.byUser(userId)).toEqual([]);
    expect(await t.storage.fills.countByConnection(id)).toBe(0);
    expect((await del(token)).status).toBe(404);
    expect((await del(token, 'not-a-uuid')).status).toBe(400);
  });

  it('never returns, logs or stores the credentials in clear', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ml-conn-'));
    dirs.push(dir);
    const t = app(join(dir, 'marketlens.sqlite'));
    const { token } = await t.signup();
    const texts: string[] = [];
    const res = await t.post('/v1/connections/user', { exchange_id: 'bybit', apiKey: KEY, secret: SECRET }, token);
    expect(res.status).toBe(200);
    texts.push(await res.text());
    const id = (JSON.parse(texts[0]) as { data: { id: string } }).data.id;
    await t.scheduler.syncOnce(id);
    // A failed sync's stored message does not echo the key either.
    server.override({
      method: 'GET',
      host: 'api.bybit.com',
      path: '/v5/position/list',
      reply: () => bybitFailures.badKey,
    });
    await t.scheduler.syncOnce(id);
    texts.push(await (await t.request('/v1/connections/user', { headers: { 'x-session-token': token } })).text());
    // OKX with a passphrase: rejected, and the rejection does not carry it.
    texts.push(
      await (
        await t.post(
          '/v1/connections/user',
          { exchange_id: 'okx', apiKey: KEY, secret: SECRET, password: PASSPHRASE },
          token,
        )
      ).text(),
    );
    for (const text of texts) for (const s of [KEY, SECRET, PASSPHRASE]) expect(text).not.toContain(s);
    expect(texts[1]).toContain('Bybit rejected the API key');
    const record = await t.storage.connections.byId(id);
    expect(record?.credentials).not.toContain(SECRET);
    // Scan the database files (main and WAL) for the plaintext.
    t.storage.db.pragma('wal_checkpoint(PASSIVE)');
    for (const f of readdirSync(dir)) {
      const bytes = readFileSync(join(dir, f));
      for (const s of [KEY, SECRET]) {
        expect(bytes.includes(Buffer.from(s, 'utf8'))).toBe(false);
        expect(bytes.includes(Buffer.from(s, 'utf16le'))).toBe(false);
      }
    }
    await t.storage.close();
  });
});
