/**
 * Property-based robustness of the MCP tools: every tool of the catalog is called through a real
 * SDK `Client` over the `/mcp` route (Streamable HTTP with an OAuth bearer token, served in process by
 * `app.fetch`), so the route, the server backend and the real services run against the harness's
 * in-memory SQLite and simulated venue. Arguments are drawn by fast-check: valid-looking ones from
 * the tool's own published input schema (reliability/schema-arbitrary.ts, with real ids as examples),
 * schema-invalid ones, random objects of the tool's field names with values of any type, boundary
 * numbers, huge and unicode strings, extra and missing fields, and non-object arguments.
 *
 * What a client can rely on, whatever it sends:
 * - a success: `structuredContent` is a JSON object (validated by the SDK client against the
 *   tool's output schema where one is declared) and the text is there;
 * - or a JSON-RPC invalid-params error (a malformed `tools/call`, an unknown tool);
 * - or, for arguments over the body limit of `/mcp` (`MCP_BODY_LIMIT`), a 413 `PayloadTooLarge`
 *   before anything is parsed;
 * - or a tool result with `isError: true` whose `structuredContent.code` is a code of ERROR_CODES
 *   other than 1 (`GeneralError`, an unexplained failure), and `InvalidRequest` exactly when the
 *   tool's own input schema refuses the arguments;
 * - and never stack text or a source path in any message.
 *
 * MCP_FUZZ_RUNS (calls per tool, default 150) and MCP_FUZZ_SEED (default 2828) make it longer or
 * different: `MCP_FUZZ_RUNS=400 npx vitest run packages/server/src/mcp/mcp-fuzz.test.ts`.
 */

import { createSimulatedVenue } from '@marketlens/exchanges';
import type { ToolDefinition } from '@marketlens/mcp';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type CallToolResult, ErrorCode, McpError, type Tool } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deref, invalidArb, type JsonSchema, resolverOf, validArb } from '../../test/reliability/schema-arbitrary.js';
import { seedAccount } from '../../test/support/account-seed.js';
import { type Harness, harness } from '../../test/support/harness.js';
import { grantTier } from '../auth/tiers.js';
import { MCP_BODY_LIMIT } from '../platform/body-limit.js';
import { ERROR_CODES } from '../platform/errors/app-error.js';

const RUNS = Number(process.env.MCP_FUZZ_RUNS ?? 150);
const SEED = Number(process.env.MCP_FUZZ_SEED ?? 2828);

const ORIGIN = 'http://mcp-fuzz.test';
const REDIRECT = 'http://127.0.0.1:7/cb';
/** A syntactically valid push subscription (a P-256 point and a 16-byte secret); nothing is sent to it. */
const SUBSCRIPTION = {
  endpoint: 'https://push.example.com/sub/mcp-fuzz',
  keys: {
    p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
    auth: 'tBHItJI5svbpez7KI4CCXg',
  },
};

/** Every tool the catalog lists; a tool added to the catalog fails `covers every tool` until it is here. */
const TOOLS = [
  'get_positions',
  'get_portfolio_summary',
  'get_balances',
  'get_orders',
  'get_trades',
  'position_analysis',
  'edit_position',
  'get_asset_analysis',
  'get_asset_signal',
  'get_asset_overview',
  'get_asset_markets',
  'get_trading_signals',
  'get_screener',
  'get_fear_greed',
  'list_assets',
  'list_exchanges',
  'get_exchange_detail',
  'get_account_info',
  'get_favorite_assets',
  'add_favorite_asset',
  'remove_favorite_asset',
  'get_alerts',
  'create_price_alert',
  'delete_alert',
  'get_notification_preferences',
  'update_notification_preferences',
  'register_alert_webhook',
  'list_alert_webhooks',
  'delete_alert_webhook',
  'get_pilot_spectate',
  'get_pilot_spectate_history',
  'get_track_record',
] as const;

const STABLE_CODES = new Set<unknown>(Object.values(ERROR_CODES).map((e) => e.code));
/** Text that betrays an internal failure: a stack frame, a source or dependency path. */
const LEAK = /\n\s+at |\bat .+:\d+:\d+\)?|node_modules|\.[cm]?[jt]s:\d+|\/work\/|file:\/\//;

let h: Harness;
let catalog: readonly ToolDefinition[];
let listed: Map<string, Tool>;
const clients: Client[] = [];
const eligible = new Set<string>();
/** Real ids (seeded positions, a created alert, ...) the valid-looking arguments draw from, per field. */
const hints: Record<string, unknown[]> = {};
/** One argument set per tool that succeeds for the data-holding caller (fast-check runs it first). */
let knownGood: Record<string, Record<string, unknown>>;

type Outcome = 'ok' | 'invalid_params' | 'payload_too_large' | `code:${string}`;
const tally = new Map<string, Map<Outcome, number>>();

/** The OAuth code flow done headlessly through the app: register, approve with the session, exchange. */
async function accessToken(session: string): Promise<string> {
  const reg = await h.json(`${ORIGIN}/oauth/register`, {
    redirect_uris: [REDIRECT],
    token_endpoint_auth_method: 'none',
  });
  const { client_id } = (await reg.json()) as { client_id: string };
  const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
  const approved = await h.request(`${ORIGIN}/oauth/authorize`, {
    method: 'POST',
    headers: { 'x-session-token': session },
    body: new URLSearchParams({
      response_type: 'code',
      client_id,
      redirect_uri: REDIRECT,
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
      resource: `${ORIGIN}/mcp`,
      action: 'approve',
    }),
    redirect: 'manual',
  });
  const code = new URL(approved.headers.get('location') ?? '').searchParams.get('code') ?? '';
  const res = await h.request(`${ORIGIN}/oauth/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      client_id,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
    }),
  });
  const token = ((await res.json()) as { access_token?: string }).access_token;
  if (!token) throw new Error('no access token');
  return token;
}

/** An SDK client on `/mcp` with `token`, its requests answered by the app in process. */
async function connect(token: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${ORIGIN}/mcp`), {
    // Without the transport's one long-lived abort signal: each in-process Request would add a listener to it.
    fetch: (url, init) => h.request(String(url), { ...init, signal: null }),
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: 'mcp-fuzz', version: '0' });
  await client.connect(transport);
  return client;
}

/** The outcome of one call, or the reason it breaks what a client may rely on. */
async function call(
  client: Client,
  name: string,
  args: unknown,
): Promise<{ outcome: Outcome; message: string } | { broken: string }> {
  let result: CallToolResult;
  try {
    result = (await client.callTool({ name, arguments: args as Record<string, unknown> })) as CallToolResult;
  } catch (err) {
    // A body over the /mcp limit is refused with 413 PayloadTooLarge before it is parsed: only for
    // arguments that large (the rest of the message is well under 256 bytes).
    if (!(err instanceof McpError) && /"code":"PayloadTooLarge"/.test(String(err))) {
      const size = Buffer.byteLength(JSON.stringify({ name, arguments: args }) ?? '');
      if (size > MCP_BODY_LIMIT - 256) return { outcome: 'payload_too_large', message: String(err) };
      return { broken: `413 for a ${size}-byte call, under the limit of ${MCP_BODY_LIMIT}` };
    }
    if (!(err instanceof McpError)) return { broken: `not a JSON-RPC error: ${String(err)}` };
    if (err.code !== ErrorCode.InvalidParams) return { broken: `JSON-RPC error ${err.code}: ${err.message}` };
    // The SDK client raises InvalidParams itself when structured content breaks a declared output schema.
    if (/output schema|structured content/i.test(err.message)) return { broken: err.message };
    if (LEAK.test(err.message)) return { broken: `internals in the error: ${err.message}` };
    return { outcome: 'invalid_params', message: err.message };
  }
  const text = result.content?.map((c) => (c.type === 'text' ? c.text : '')).join('\n') ?? '';
  if (text.length === 0) return { broken: 'no text content' };
  const data = result.structuredContent;
  if (data === undefined || data === null || typeof data !== 'object' || Array.isArray(data)) {
    return { broken: `structuredContent is not an object: ${JSON.stringify(result)}` };
  }
  if (result.isError !== true) return { outcome: 'ok', message: '' };
  const { code, message } = data as { code?: unknown; message?: unknown };
  if (!STABLE_CODES.has(code)) return { broken: `code ${JSON.stringify(code)} is not in ERROR_CODES` };
  if (code === ERROR_CODES.GeneralError.code) return { broken: `GeneralError: ${String(message)}` };
  if (typeof message !== 'string' || message.length === 0) return { broken: 'an error without a message' };
  if (LEAK.test(message) || LEAK.test(text)) return { broken: `internals in the error: ${message}` };
  return { outcome: `code:${String(code)}`, message };
}

function count(name: string, outcome: Outcome): void {
  const t = tally.get(name) ?? new Map<Outcome, number>();
  t.set(outcome, (t.get(outcome) ?? 0) + 1);
  tally.set(name, t);
}

// ---- arbitraries ----

const HUGE = 'x'.repeat(300_000);
const boundaryNumber = fc.constantFrom(
  0,
  -0,
  -1,
  1,
  49,
  50,
  199,
  200,
  201,
  500,
  501,
  5000,
  5001,
  0.5,
  1e-7,
  2 ** 31,
  -(2 ** 31),
  Number.MAX_SAFE_INTEGER,
  Number.MAX_SAFE_INTEGER + 2,
  -Number.MAX_SAFE_INTEGER - 2,
  Number.MAX_VALUE,
  -Number.MAX_VALUE,
  Number.MIN_VALUE,
  1e21,
);
const oddString = fc.constantFrom(
  '',
  ' ',
  '   ',
  '\u0000',
  '\ud800',
  '\udfff\ud800',
  '\u202ebitcoin',
  'ＢＩＴＣＯＩＮ',
  'BITCOIN',
  ' bitcoin ',
  'bitcoin\n',
  '🙂'.repeat(2000),
  'a'.repeat(129),
  HUGE,
  '../../etc/passwd',
  "bitcoin'; DROP TABLE users;--",
  '%00',
  '__proto__',
  'constructor',
  'toString',
  '1e309',
  'NaN',
  'Infinity',
  '-0',
  '0x10',
  ' 12 ',
  '+7',
  '2026-02-30T25:61:00Z',
  '9999-12-31T23:59:59.999+14:00',
  '00000000-0000-0000-0000-000000000000',
);
/** A value of any type: JSON of any shape, boundary numbers, odd and huge strings. */
const wild: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  { weight: 3, arbitrary: boundaryNumber },
  { weight: 3, arbitrary: oddString },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.array(fc.oneof(oddString, boundaryNumber), { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.constantFrom(null, true, false, {}, [], [[]], { $ref: '#' }) },
);
const junkKey = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'prototype', '', ' ', 'limit ', 'ASSET_ID', 'k'.repeat(1000), '🙂'),
  fc.string({ maxLength: 12 }),
);

/** The published input schema with the real ids of `hints` as examples of the fields they fill. */
function withHints(schema: JsonSchema): JsonSchema {
  const copy = structuredClone(schema) as JsonSchema;
  for (const [field, prop] of Object.entries(copy.properties ?? {})) {
    const extra = hints[field];
    if (extra) prop.examples = [...(prop.examples ?? []), ...extra];
  }
  return copy;
}

/** Arguments for `tool`, every kind a client might send. */
function argsArb(tool: Tool): fc.Arbitrary<unknown> {
  const published = tool.inputSchema as JsonSchema;
  const resolve = resolverOf(published);
  // Followed through `$ref`/`allOf` (create_price_alert's schema is a reference), so the fields are at the top.
  const schema = withHints(deref(published, resolve));
  const valid = validArb(schema, resolve) as fc.Arbitrary<Record<string, unknown>>;
  const invalid = invalidArb(schema, resolve);
  const fields = Object.keys(schema.properties ?? {});
  const key = fields.length > 0 ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...fields) }, junkKey) : junkKey;
  // Valid arguments naming what exists (assets, venues, the caller's positions and alerts), so calls get past
  // the lookups into the services; a hinted optional field is left out or given a real value.
  const hinted = fields.filter((f) => hints[f] !== undefined);
  const required = new Set(schema.required ?? []);
  const real = fc.record(Object.fromEntries(hinted.map((f) => [f, fc.constantFrom(...(hints[f] ?? []))])), {
    requiredKeys: hinted.filter((f) => required.has(f)),
  });
  const realistic = fc
    .tuple(valid, real)
    .map(([v, r]) => ({ ...Object.fromEntries(Object.entries(v).filter(([k]) => !hinted.includes(k))), ...r }));
  const options: fc.WeightedArbitrary<unknown>[] = [
    { weight: 4, arbitrary: realistic },
    { weight: 3, arbitrary: valid },
    // Each field given any type, the others valid.
    {
      weight: 4,
      arbitrary: fc.tuple(valid, fc.dictionary(key, wild, { maxKeys: 3 })).map(([v, over]) => ({ ...v, ...over })),
    },
    // Random objects over the field names; fields missing at random.
    { weight: 2, arbitrary: fc.dictionary(key, wild, { maxKeys: 5 }) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(valid, fc.subarray(fields))
        .map(([v, drop]) => Object.fromEntries(Object.entries(v).filter(([k]) => !drop.includes(k)))),
    },
  ];
  if (invalid) options.push({ weight: 3, arbitrary: invalid });
  return fc.oneof(...options);
}

// ---- setup ----

beforeAll(async () => {
  const clock = { now: 0 };
  h = harness(
    {
      rateLimit: { limit: 1_000_000, windowMs: 60_000 },
      push: { vapid: null, allowInsecureEndpoints: true },
      // The OAuth issuer and the token audience; without it a Host that is not loopback is refused.
      publicUrl: ORIGIN,
    },
    undefined,
    {
      // A `connection` naming a real venue reads a simulated one under its id: the fuzz never reaches the network.
      marketFor: (venue) => createSimulatedVenue({ now: () => clock.now, venue }),
      isPilotEligible: async (userId) => eligible.has(userId),
    },
  );
  clock.now = h.clock.now;
  // Loaded after the app: the REST routes decorate @marketlens/mcp's schemas with `.openapi()`.
  catalog = (await import('@marketlens/mcp')).CATALOG;

  // A free caller without data, and a Pro caller with positions, balances, fills, a push device, an alert,
  // favorites and pilot eligibility, so the fuzz reaches the services past the gates.
  const free = await h.signup();
  const pro = await h.signup();
  await grantTier(h.storage, pro.userId, 'pro', 'admin', 365, h.clock.now);
  eligible.add(pro.userId);
  const at = h.clock.now - 60_000;
  const connection = await seedAccount(h.storage, pro.userId, 'bybit', {
    at,
    protectiveSynced: true,
    positions: [
      { pair: 'BTCUSDT', asset_id: 'bitcoin', side: 'long', size: 0.5, entry_price: 90_000, mark_price: 100_000 },
      { pair: 'ETHUSDT', asset_id: 'ethereum', side: 'short', size: 2, entry_price: 3_000, leverage: 5 },
      { pair: 'ZZZUSDT', asset_id: null, side: 'long', size: 10, entry_price: 1 },
      { pair: 'SOLUSDT', asset_id: 'solana', side: 'long', size: 3, entry_price: 0 },
    ],
    extras: [{ stop_loss: 85_000, take_profit: 120_000 }],
    balances: [
      { symbol: 'USDT', total: 1_000, asset_id: 'tether' },
      { symbol: 'BTC', total: 0.1, asset_id: 'bitcoin' },
      { symbol: 'ZZZ', total: 5 },
    ],
    fills: [
      { external_id: 'f1', time: at - 3_600_000, order_id: 'o1' },
      { external_id: 'f2', time: at - 1_800_000, order_id: 'o1', side: 'sell', realized_pnl: 12 },
      { external_id: 'f3', time: at - 60_000, pair: 'ETHUSDT', asset_id: 'ethereum', price: 3_000 },
    ],
  });
  const device = await h.json('/v1/devices', SUBSCRIPTION, { headers: { 'x-session-token': pro.token } });
  expect(device.status).toBe(200);

  clients.push(await connect(await accessToken(free.token)), await connect(await accessToken(pro.token)));
  const proClient = clients[1] as Client;
  listed = new Map((await proClient.listTools()).tools.map((t) => [t.name, t]));

  const positions = (await proClient.callTool({ name: 'get_positions', arguments: {} })) as CallToolResult;
  const positionIds = (positions.structuredContent as { positions: { id: string }[] }).positions.map((p) => p.id);
  expect(positionIds.length).toBe(4);
  const live = (await h.market.ticker({ asset_id: 'bitcoin' })).last;
  const alert = (await proClient.callTool({
    name: 'create_price_alert',
    arguments: { asset_id: 'bitcoin', target: Math.round(live * 1.02) },
  })) as CallToolResult;
  expect(alert.isError, JSON.stringify(alert.structuredContent)).toBeFalsy();
  const alertId = (alert.structuredContent as { id: string }).id;
  const hook = (await proClient.callTool({
    name: 'register_alert_webhook',
    arguments: { url: 'https://hooks.example.com/mcp-fuzz' },
  })) as CallToolResult;
  expect(hook.isError, JSON.stringify(hook.structuredContent)).toBeFalsy();
  const webhookId = (hook.structuredContent as { id: string }).id;

  const assets = ['bitcoin', 'ethereum', 'solana', 'tether', 'stock-aapl', 'fx-eurusd', 'no-such-asset'];
  const venues = ['marketlens-sim', 'binance', 'bybit', 'okx', 'nowhere'];
  Object.assign(hints, {
    asset_id: assets,
    coin_id: assets,
    asset_ids: ['bitcoin,ethereum', ['bitcoin', 'no-such-asset'], ' , ,'],
    coin_ids: ['solana'],
    position_id: [...positionIds, 'no-such-position'],
    alert_id: [alertId, '00000000-0000-4000-8000-000000000000'],
    webhook_id: [webhookId, '00000000-0000-4000-8000-000000000000'],
    // Not the URL registered above: registering it again would replace it, and its id with it.
    url: ['https://hooks.example.com/fuzzed', 'https://169.254.169.254/latest', 'http://127.0.0.1:8080/'],
    user_connection_id: [connection],
    connection_id: venues,
    connection: venues,
    exchange_id: venues,
    pair: ['BTC/USDT', 'BTCUSDT', 'BTC/USDT:USDT'],
    target: [Math.round(live * 1.01), Math.round(live * 0.99), 50, 5, -5, 1],
    before_trade: [0, 1],
    start: ['2026-01-01T00:00:00Z'],
    end: ['2026-01-15T12:00:00+00:00'],
  });
  knownGood = {
    get_positions: { asset_ids: 'bitcoin' },
    get_portfolio_summary: {},
    get_balances: { connection_id: 'bybit' },
    get_orders: { limit: 5 },
    get_trades: { asset_id: 'bitcoin' },
    position_analysis: { position_id: positionIds[0] },
    edit_position: { position_id: positionIds[0], notes: 'fuzz 🙂' },
    get_asset_analysis: { asset_id: 'bitcoin' },
    get_asset_signal: { asset_id: 'ethereum', timeframe: '1h' },
    get_asset_overview: { asset_id: 'bitcoin', locale: 'de' },
    get_asset_markets: { asset_id: 'bitcoin' },
    get_trading_signals: {},
    get_screener: {},
    get_fear_greed: { limit: 3 },
    list_assets: { limit: 3 },
    list_exchanges: {},
    get_exchange_detail: { exchange_id: 'marketlens-sim' },
    get_account_info: {},
    get_favorite_assets: {},
    add_favorite_asset: { asset_id: 'dogecoin' },
    remove_favorite_asset: { asset_id: 'dogecoin' },
    get_alerts: {},
    create_price_alert: { asset_id: 'ethereum', kind: 'rsi', target: 50, timeframe: 'h1' },
    delete_alert: { alert_id: alertId },
    get_notification_preferences: {},
    update_notification_preferences: { regime_notification_disabled: true },
    register_alert_webhook: { url: 'https://hooks.example.com/fuzzed', name: 'fuzz' },
    list_alert_webhooks: {},
    delete_alert_webhook: { webhook_id: webhookId },
    get_pilot_spectate: {},
    get_pilot_spectate_history: {},
    get_track_record: { timeframe: '1d' },
  };
}, 60_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  const rows = [...tally].map(([name, t]) => `${name}: ${[...t].map(([o, n]) => `${o}=${n}`).join(' ')}`);
  if (process.env.MCP_FUZZ_REPORT) console.log(rows.join('\n'));
});

describe('MCP tools under fuzzed arguments', () => {
  it('covers every tool the server lists', () => {
    expect([...listed.keys()].sort()).toEqual([...TOOLS].sort());
    expect(catalog.map((t) => t.name).sort()).toEqual([...TOOLS].sort());
  });

  it.each(TOOLS)('%s: every answer is a result, a coded tool error or invalid params', async (name) => {
    const tool = listed.get(name);
    const def = catalog.find((t) => t.name === name);
    if (!tool || !def) throw new Error(`${name} is not listed`);
    await fc.assert(
      fc.asyncProperty(fc.boolean(), argsArb(tool), async (asPro, args) => {
        const result = await call(clients[asPro ? 1 : 0] as Client, name, args);
        if ('broken' in result)
          throw new Error(`${name}(${preview(args)}) as ${asPro ? 'pro' : 'free'}: ${result.broken}`);
        count(name, result.outcome);
        const what = `${name}(${preview(args)}) as ${asPro ? 'pro' : 'free'}: ${result.outcome} ${result.message}`;
        if (!isObject(args)) {
          // Not an object: a malformed tools/call, refused by the protocol layer before any tool runs.
          expect(result.outcome, what).toBe('invalid_params');
          return;
        }
        // Refused for its size before parsing (checked in `call`): no tool ran, the schema has no say.
        if (result.outcome === 'payload_too_large') return;
        // The tool's own schema is the oracle of invalid arguments: input it refuses never reaches the
        // backend, and input it accepts is never refused as invalid arguments.
        const parsed = def.input.safeParse(JSON.parse(JSON.stringify(args)));
        const refusedAsInput =
          result.outcome === 'code:InvalidRequest' && result.message.startsWith('Invalid arguments');
        expect(refusedAsInput, `${what}; the tool's schema ${parsed.success ? 'accepts' : 'refuses'} it`).toBe(
          !parsed.success,
        );
      }),
      { numRuns: RUNS, seed: SEED, examples: [[true, knownGood[name]]], endOnFailure: true },
    );
    // The known-good example ran first as the Pro caller: each tool was reached past its gates once.
    expect(tally.get(name)?.get('ok') ?? 0, name).toBeGreaterThan(0);
  });

  it('non-object arguments are a JSON-RPC invalid-params error, for every tool', async () => {
    for (const name of TOOLS) {
      for (const args of [null, 'bitcoin', 42, true, [], [{ asset_id: 'bitcoin' }]]) {
        const result = await call(clients[1] as Client, name, args);
        if ('broken' in result) throw new Error(`${name}(${preview(args)}): ${result.broken}`);
        expect(result.outcome, `${name}(${preview(args)})`).toBe('invalid_params');
      }
    }
  });

  it('an unknown tool name is a JSON-RPC invalid-params error', async () => {
    const known = new Set<string>(TOOLS);
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ maxLength: 64 }),
          oddString,
          fc.constantFrom('GET_POSITIONS', 'get_positions ', '__proto__'),
        ),
        async (name) => {
          fc.pre(!known.has(name));
          const result = await call(clients[0] as Client, name, {});
          if ('broken' in result) throw new Error(`${preview(name)}: ${result.broken}`);
          expect(result.outcome).toBe('invalid_params');
        },
      ),
      { numRuns: 20, seed: SEED },
    );
  });
});

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function preview(v: unknown): string {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 300 ? `${s.slice(0, 300)}... (${s.length} chars)` : s;
}
