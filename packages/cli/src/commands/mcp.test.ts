import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { optionsFromEnv, type RunningServer, seedDemo, startServer } from '@marketlens/server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BINARY, ensureBuilt, FIXED_NOW, marketlens, PACKAGE_DIR } from '../testing/binary.js';

const run = promisify(execFile);

/** The tools the service offers: every one must be listed by both backends. */
const CONTRACT_TOOLS = [
  'get_positions',
  'get_portfolio_summary',
  'get_balances',
  'get_orders',
  'get_trades',
  'position_analysis',
  'edit_position',
  'get_trading_signals',
  'get_asset_markets',
  'add_favorite_asset',
  'remove_favorite_asset',
  'get_account_info',
  'get_alerts',
  'create_price_alert',
  'delete_alert',
  'get_notification_preferences',
  'update_notification_preferences',
  'list_exchanges',
  'get_exchange_detail',
  'get_pilot_spectate',
  'get_pilot_spectate_history',
];

const tmp = () => mkdtempSync(join(tmpdir(), 'marketlens-mcp-'));

/** `marketlens mcp <args>` as an MCP client starts it: a child over stdio, stderr collected. */
async function connect(args: readonly string[], env: Record<string, string>) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BINARY, 'mcp', ...args],
    env: { PATH: process.env.PATH ?? '', MARKETLENS_NOW: FIXED_NOW, ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: 'marketlens-test', version: '0.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

interface ToolResult {
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
  content: { type: string; text?: string }[];
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolResult> {
  return (await client.callTool({ name, arguments: args })) as ToolResult;
}

const text = (r: ToolResult) => r.content.map((c) => c.text ?? '').join('\n');

beforeAll(() => {
  ensureBuilt();
}, 120_000);

describe('marketlens mcp: embedded (data folder and simulated venue)', () => {
  it('serves the catalog over stdio to the SDK client, with REST error codes', async () => {
    const dataDir = tmp();
    const { client, stderr } = await connect([], { MARKETLENS_DATA_DIR: dataDir });
    try {
      const { tools } = await client.listTools();
      const names = tools.map((t) => t.name);
      for (const name of CONTRACT_TOOLS) expect(names).toContain(name);

      const signals = await call(client, 'get_trading_signals', { timeframe: '1h' });
      expect(signals.isError).toBeFalsy();
      expect(signals.structuredContent).toMatchObject({ timeframe: 'h1', asset_class: 'coins', restricted: true });
      expect(signals.structuredContent?.rows).toEqual(
        expect.arrayContaining([expect.objectContaining({ action: expect.any(String) })]),
      );
      expect(text(signals)).toContain('Signals (coins, h1');

      const positions = await call(client, 'get_positions');
      expect(positions.isError).toBeFalsy();
      expect(positions.structuredContent).toMatchObject({ positions: [], totals: { open_positions_count: 0 } });

      // The demo user is free: h1 analysis is refused with the REST code.
      const refused = await call(client, 'get_asset_analysis', { asset_id: 'bitcoin', timeframe: '1h' });
      expect(refused.isError).toBe(true);
      expect(refused.structuredContent?.code).toBe(1004);

      const account = await call(client, 'get_account_info');
      expect(account.structuredContent).toMatchObject({ user: { email: 'demo@marketlens.local' }, tier: 'free' });
    } finally {
      await client.close();
    }
    // Logs went to stderr (stdout carried only protocol messages, or the client would have failed).
    expect(stderr()).toContain(`serving ${dataDir} as demo@marketlens.local`);
  });

  it('works with the MCP Inspector CLI (tools/list and tools/call)', async () => {
    const inspector = resolve(PACKAGE_DIR, '../../node_modules/.bin/mcp-inspector');
    // One data folder each: the two run at once, and a fresh folder is created by the first process opening it.
    const target = () => [
      '-e',
      `MARKETLENS_DATA_DIR=${tmp()}`,
      '-e',
      `MARKETLENS_NOW=${FIXED_NOW}`,
      process.execPath,
      BINARY,
      'mcp',
    ];
    const [list, signal] = await Promise.all([
      run(inspector, ['--cli', ...target(), '--method', 'tools/list'], { timeout: 30_000 }),
      run(
        inspector,
        [
          '--cli',
          ...target(),
          '--method',
          'tools/call',
          '--tool-name',
          'get_asset_signal',
          '--tool-arg',
          'asset_id=bitcoin',
        ],
        { timeout: 30_000 },
      ),
    ]);
    const tools = (JSON.parse(list.stdout) as { tools: { name: string }[] }).tools.map((t) => t.name);
    expect(tools).toEqual(expect.arrayContaining(CONTRACT_TOOLS));
    const result = JSON.parse(signal.stdout) as ToolResult;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ asset: { id: 'bitcoin' }, timeframe: 'd1' });
    expect(result.structuredContent?.signal).toMatchObject({ action: expect.stringMatching(/^(buy|hold|sell)$/) });
  });

  it('refuses an unknown --email and a --token without --server, on stderr with the usual exit codes', () => {
    const dataDir = tmp();
    const unknown = marketlens(['mcp', '--email', 'nobody@example.com', '--data-dir', dataDir]);
    expect(unknown.code).toBe(3);
    expect(unknown.stdout).toBe('');
    const usage = marketlens(['mcp', '--token', 'x']);
    expect(usage.code).toBe(2);
    expect(usage.stdout).toBe('');
    expect(usage.stderr).toContain('--token goes with --server');
  });
});

describe('marketlens mcp --server (REST backend)', () => {
  let server: RunningServer;
  let token: string;

  /** A REST call with the session, returning the envelope's data. */
  async function rest(path: string, init: RequestInit = {}): Promise<unknown> {
    const res = await fetch(`${server.url}${path}`, {
      ...init,
      headers: { 'x-session-token': token, 'content-type': 'application/json' },
    });
    const body = (await res.json()) as { success: boolean; data: unknown };
    if (!body.success) throw new Error(`${path}: ${JSON.stringify(body)}`);
    return body.data;
  }

  beforeAll(async () => {
    server = await startServer({ ...optionsFromEnv({ MARKETLENS_NEWS_FEEDS: '' }), port: 0, dataDir: tmp() });
    token = (await seedDemo(server.storage)).session_token;
    // The simulated venue's demo account, synced by the server: the user then holds real positions.
    await rest('/v1/connections/user', { method: 'POST', body: JSON.stringify({ exchange_id: 'marketlens-sim' }) });
    for (let i = 0; i < 100; i++) {
      const { positions } = (await rest('/v2/positions')) as { positions: unknown[] };
      if (positions.length > 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
  }, 30_000);

  afterAll(async () => {
    await server?.close();
  });

  it('answers what the REST routes answer, and their error codes', async () => {
    const { client } = await connect(['--server', server.url], { MARKETLENS_SESSION_TOKEN: token });
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(CONTRACT_TOOLS));

      const signals = await call(client, 'get_trading_signals', { timeframe: '1h' });
      expect(signals.isError).toBeFalsy();
      expect(signals.structuredContent).toMatchObject({ timeframe: 'h1', restricted: true });

      const positions = await call(client, 'get_positions');
      expect(positions.isError).toBeFalsy();
      const restPositions = (await rest('/v2/positions')) as { positions: unknown[] };
      expect(restPositions.positions.length).toBeGreaterThan(0);
      expect(positions.structuredContent).toEqual(restPositions);
      expect(text(positions)).toMatch(/^Open positions: [1-9]/);

      const refused = await call(client, 'get_asset_analysis', { asset_id: 'bitcoin', timeframe: '1h' });
      expect(refused.structuredContent?.code).toBe(1004);
      const unknown = await call(client, 'get_asset_signal', { asset_id: 'no-such-coin' });
      expect(unknown.structuredContent?.code).toBe('UnknownAsset');
    } finally {
      await client.close();
    }
  });

  it('refuses a token the server rejects before serving (exit 3), and a missing token (exit 2)', async () => {
    // Asynchronously: the server answering the start-up check runs in this process.
    const bad = await run(process.execPath, [BINARY, 'mcp', '--server', server.url, '--token', 'not-a-session'], {
      timeout: 20_000,
    }).catch((e: { code: number; stdout: string; stderr: string }) => e);
    expect('code' in bad && bad.code).toBe(3);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toContain('refused the session token');
    const missing = marketlens(['mcp', '--server', server.url], { MARKETLENS_SESSION_TOKEN: '' });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('MARKETLENS_SESSION_TOKEN');
  });
});
