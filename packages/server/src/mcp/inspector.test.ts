/**
 * The MCP Inspector CLI (@modelcontextprotocol/inspector --cli) against marketlens: over stdio (the
 * server's backend on in-memory SQLite, run from source through vite-node) and over Streamable
 * HTTP with an access token obtained through the OAuth flow.
 */
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, harness } from '../../test/support/harness.js';

const here = dirname(fileURLToPath(import.meta.url));
const ROOT = join(here, '../../../..');
const INSPECTOR = join(ROOT, 'node_modules/.bin/mcp-inspector');
const FIXTURE = join(here, '../../test/support/mcp-stdio-fixture.ts');
// vite-node ships with vitest: it runs the TypeScript fixture from source.
const requireFromVitest = createRequire(createRequire(import.meta.url).resolve('vitest/package.json'));
const VITE_NODE = join(dirname(requireFromVitest.resolve('vite-node/package.json')), 'vite-node.mjs');

function inspector(args: string[]): Promise<unknown> {
  return new Promise((resolve, reject) => {
    execFile(INSPECTOR, ['--cli', ...args], { cwd: ROOT, timeout: 60_000 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`inspector failed: ${err.message}\n${stderr}\n${stdout}`));
      else resolve(JSON.parse(stdout));
    });
  });
}

let h: Harness;
let base: string;
let close: () => Promise<void>;

beforeAll(async () => {
  h = harness();
  // Idle keep-alive connections stay open for a minute: with Node's 5 s, a loaded machine can
  // stall the inspector process past undici's margin (the server's hint less 2 s) between two
  // calls, and a POST sent on a connection the server is closing fails with "fetch failed"
  // (undici retries only idempotent requests). Seen 3 times in 15 runs once the inspector also
  // opened the session's GET stream (session 13).
  const server = serve({
    fetch: h.app.fetch,
    port: 0,
    hostname: '127.0.0.1',
    overrideGlobalObjects: false,
    serverOptions: { keepAliveTimeout: 60_000 },
  });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => new Promise((resolve) => server.close(() => resolve()));
});

afterAll(async () => {
  await close();
});

/** An access token for a new user: register a public client, approve with the session, exchange the code. */
async function accessToken(): Promise<string> {
  const redirect = 'http://127.0.0.1:7/cb';
  const { token } = await h.signup();
  const reg = await fetch(`${base}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ redirect_uris: [redirect], token_endpoint_auth_method: 'none' }),
  });
  const { client_id } = (await reg.json()) as { client_id: string };
  const verifier = randomBytes(32).toString('base64url');
  const form = new URLSearchParams({
    response_type: 'code',
    client_id,
    redirect_uri: redirect,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    resource: `${base}/mcp`,
    action: 'approve',
  });
  const approved = await fetch(`${base}/oauth/authorize`, {
    method: 'POST',
    headers: { 'x-session-token': token },
    body: form,
    redirect: 'manual',
  });
  const code = new URL(approved.headers.get('location') ?? '').searchParams.get('code') ?? '';
  const res = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      client_id,
      redirect_uri: redirect,
      code_verifier: verifier,
    }),
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

describe('MCP Inspector CLI', () => {
  it('lists and calls tools over stdio', async () => {
    const command = ['node', VITE_NODE, FIXTURE];
    const [list, call] = await Promise.all([
      inspector([...command, '--method', 'tools/list']),
      inspector([
        ...command,
        '--method',
        'tools/call',
        '--tool-name',
        'get_asset_analysis',
        '--tool-arg',
        'asset_id=bitcoin',
      ]),
    ]);
    const names = (list as { tools: { name: string }[] }).tools.map((t) => t.name);
    expect(names).toContain('get_trading_signals');
    expect(names).toContain('get_positions');
    const result = call as {
      isError?: boolean;
      content: { text: string }[];
      structuredContent: { asset: { id: string } };
    };
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent.asset.id).toBe('bitcoin');
    expect(result.content[0]?.text).toContain('Signal:');
  });

  it('lists and calls tools over HTTP with a bearer token', async () => {
    const token = await accessToken();
    const http = [`${base}/mcp`, '--transport', 'http', '--header', `Authorization: Bearer ${token}`];
    const [listed, called] = await Promise.all([
      inspector([...http, '--method', 'tools/list']),
      inspector([
        ...http,
        '--method',
        'tools/call',
        '--tool-name',
        'get_trading_signals',
        '--tool-arg',
        'timeframe=1h',
      ]),
    ]);
    const list = listed as { tools: { name: string }[] };
    expect(list.tools.map((t) => t.name)).toContain('get_account_info');
    const call = called as { isError?: boolean; structuredContent: { timeframe: string; restricted: boolean } };
    expect(call.isError).toBeFalsy();
    expect(call.structuredContent.timeframe).toBe('h1');
    expect(call.structuredContent.restricted).toBe(true);
  });

  it('is refused over HTTP without a token', async () => {
    const refused = await inspector([`${base}/mcp`, '--transport', 'http', '--method', 'tools/list']).then(
      () => new Error('the inspector listed the tools without a token'),
      (err: unknown) => err,
    );
    // The refusal itself, not any failure (a crash or a timeout rejects too): the inspector reports
    // the failed initialize with the body of the server's 401.
    expect(refused).toBeInstanceOf(Error);
    const message = (refused as Error).message;
    expect(message).toContain('Failed to connect to MCP server');
    expect(message).toContain('"code":"Unauthorized"');
    expect(message).toContain('An OAuth access token is required (Authorization: Bearer)');
  });
});
