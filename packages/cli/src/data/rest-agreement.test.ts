import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSimulatedVenue, type MarketData, openMarket, parseSourceName } from '@marketlens/exchanges';
import { createApp, createSqliteStorage, DEFAULT_CONFIG, setUserTier } from '@marketlens/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { run } from '../cli.js';
import type { Io } from '../io.js';
import { FIXED_NOW } from '../testing/binary.js';

/**
 * One dialect (issue 39, item 5): each data command's `--json` is the REST `data` of the same
 * question on the same data (here the simulated venue at the same clock), with `schema` first, and
 * a refusal carries the REST error code. The CLI runs in this process (its `run`), REST is the
 * server's own app over in-memory storage, as `marketlens serve` answers it.
 */

const now = Date.parse(FIXED_NOW);
const ENV = { MARKETLENS_NOW: FIXED_NOW };

let request: (path: string, headers?: Record<string, string>) => Promise<Response>;
let pro: Record<string, string>;

/** The server's app over `market`, at the clock, with a Pro session; returns its request function. */
async function restOver(
  market: MarketData,
): Promise<{ request: (path: string, headers?: Record<string, string>) => Promise<Response>; pro: Record<string, string> }> {
  const storage = createSqliteStorage(':memory:');
  const app = createApp(
    {
      storage,
      config: { ...DEFAULT_CONFIG, rateLimit: { limit: 1_000_000, windowMs: 60_000 } },
      now: () => now,
      market,
    },
    { logError: () => {} },
  );
  const peer = { incoming: { socket: { remoteAddress: '203.0.113.7' } } };
  const res = await app.request(
    '/v1/auth/signup',
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'pro@example.com', password: 'password-123' }),
    },
    peer,
  );
  const token = ((await res.json()) as { data: { session_token: string } }).data.session_token;
  await setUserTier(storage, 'pro@example.com', 'pro');
  return {
    request: (path, headers = {}) => Promise.resolve(app.request(path, { headers }, peer)),
    pro: { 'x-session-token': token },
  };
}

beforeAll(async () => {
  ({ request, pro } = await restOver(createSimulatedVenue({ now: () => now })));
});

/** The `data` of a REST answer that must succeed (as a Pro caller: the CLI passes every tier gate). */
async function rest(path: string, headers: Record<string, string> = {}): Promise<Record<string, unknown>> {
  const res = await request(path, { ...pro, ...headers });
  const body = (await res.json()) as { data: Record<string, unknown> };
  expect(res.status, `${path}: ${JSON.stringify(body)}`).toBe(200);
  return body.data;
}

/** The status and code of a REST answer that must fail. */
async function restRefusal(path: string): Promise<{ status: number; code: unknown }> {
  const res = await request(path, pro);
  return { status: res.status, code: ((await res.json()) as { code: unknown }).code };
}

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

async function cli(argv: readonly string[]): Promise<Ran> {
  let stdout = '';
  let stderr = '';
  const io: Io = {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    stdoutTty: false,
    stderrTty: false,
    columns: 100,
    env: { ...ENV },
  };
  const code = await run(argv, io);
  return { code, stdout, stderr };
}

/** The `--json` object of a command that must succeed, its `schema` apart. */
async function cliJson(argv: readonly string[]): Promise<{ schema: unknown; data: Record<string, unknown> }> {
  const r = await cli([...argv, '--json']);
  expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(0);
  const { schema, ...data } = JSON.parse(r.stdout) as Record<string, unknown>;
  return { schema, data };
}

/** The error of a command that must fail, as `--json` prints it on stderr. */
async function cliError(argv: readonly string[]): Promise<{ code: unknown; exit_code: unknown }> {
  const r = await cli([...argv, '--json']);
  expect(r.stdout).toBe('');
  const { error } = JSON.parse(r.stderr) as { error: { code: unknown; exit_code: unknown } };
  expect(error.exit_code).toBe(r.code);
  return { code: error.code, exit_code: error.exit_code };
}

const SERVED = ['asset', 'timeframe', 'market_type', 'pair', 'venue', 'data_source', 'fetched_at', 'stale'] as const;

function pick(data: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(keys.map((k) => [k, data[k]]));
}

describe('the CLI answers as REST does', () => {
  it('analyze is GET /v2/analysis/{asset_id}, at REST defaults and at an asked timeframe and depth', async () => {
    const atDefaults = await cliJson(['analyze', 'ethereum']);
    expect(atDefaults.schema).toBe('marketlens.analyze/2');
    const data = await rest('/v2/analysis/ethereum');
    expect(atDefaults.data).toEqual(data);
    // REST's defaults: d1, 500 candles (the history block counts the candles analysed).
    expect(data).toMatchObject({ timeframe: 'd1', history: { candles: 500 } });
    expect(typeof data.as_of).toBe('string');
    expect((await cliJson(['analyze', 'BTC', '--tf', 'h4', '--limit', '800'])).data).toEqual(
      await rest('/v2/analysis/BTC?timeframe=h4&limit=800'),
    );
  });

  it('signal is GET /v2/analysis/{asset_id}/signal', async () => {
    const { schema, data } = await cliJson(['signal', 'bitcoin', '--tf', 'h1']);
    expect(schema).toBe('marketlens.signal/2');
    expect(data).toEqual(await rest('/v2/analysis/bitcoin/signal?timeframe=h1'));
  });

  it('overview is GET /v2/analysis/{asset_id}/overview in the asked language', async () => {
    const { schema, data } = await cliJson(['overview', 'solana', '--locale', 'de']);
    expect(schema).toBe('marketlens.overview/1');
    const restData = await rest('/v2/analysis/solana/overview', { 'x-locale': 'de' });
    expect(restData).toMatchObject({ locale: 'de' });
    expect(data).toEqual(restData);
  });

  it('zones and feargreed are their fields of GET /v2/analysis/{asset_id}, funding included', async () => {
    const analysis = await rest('/v2/analysis/bitcoin?market_type=derivatives');
    const zones = await cliJson(['zones', 'bitcoin', '--market', 'derivatives']);
    expect(zones.schema).toBe('marketlens.zones/2');
    expect(zones.data).toEqual(pick(analysis, [...SERVED, 'as_of', 'levels', 'volume_profile', 'zone', 'live']));
    const fg = await cliJson(['feargreed', 'bitcoin', '--market', 'derivatives']);
    expect(fg.data).toEqual(pick(analysis, [...SERVED, 'as_of', 'fear_greed']));
    // The perpetual's funding is one of the inputs, as REST and MCP read it.
    const names = (fg.data.fear_greed as { components: { name: string }[] }).components.map((c) => c.name);
    expect(names).toContain('funding');
  });

  it('screen is GET /v2/assets/screener, its default class coins', async () => {
    const { schema, data } = await cliJson(['screen']);
    expect(schema).toBe('marketlens.screen/2');
    expect(data).toEqual(await rest('/v2/assets/screener'));
    expect(data.asset_class).toBe('coins');
    expect((await cliJson(['screen', '--class', 'fx'])).data).toEqual(await rest('/v2/assets/screener?asset_class=fx'));
  });

  it('chart and backtest name the candles they read as GET /v2/analysis/{asset_id}/candles does', async () => {
    const candles = await rest('/v2/analysis/ethereum/candles?timeframe=h4&limit=300');
    const out = join(mkdtempSync(join(tmpdir(), 'marketlens-agree-')), 'eth.svg');
    const chart = await cliJson(['chart', 'ethereum', '--tf', 'h4', '--limit', '300', '--out', out]);
    expect(chart.data).toEqual({
      ...pick(candles, [...SERVED, 'as_of']),
      out,
      format: 'svg',
      width: 1000,
      height: 560,
      bars: 120,
    });
    const backtest = await cliJson(['backtest', 'ethereum', '--tf', 'h4', '--limit', '300', '--step', '5']);
    expect(backtest.schema).toBe('marketlens.backtest/2');
    expect(pick(backtest.data, [...SERVED, 'as_of', 'bars'])).toEqual({
      ...pick(candles, [...SERVED, 'as_of']),
      bars: (candles.candles as unknown[]).length,
    });
  });

  it('refuses with the REST error codes', async () => {
    expect(await restRefusal('/v2/analysis/no-such-coin')).toEqual({ status: 400, code: 'UnknownAsset' });
    expect(await cliError(['analyze', 'no-such-coin'])).toEqual({ code: 'UnknownAsset', exit_code: 3 });
    expect(await cliError(['signal', 'no-such-coin'])).toEqual({ code: 'UnknownAsset', exit_code: 3 });
    expect(await restRefusal('/v2/analysis/tether')).toEqual({ status: 400, code: 'StablecoinNotAnalyzed' });
    expect(await cliError(['zones', 'tether'])).toEqual({ code: 'StablecoinNotAnalyzed', exit_code: 3 });
    expect((await restRefusal('/v2/analysis/bitcoin?limit=10')).code).toBe('InvalidRequest');
    expect(await cliError(['analyze', 'bitcoin', '--limit', '10'])).toEqual({ code: 'InvalidRequest', exit_code: 2 });
    expect((await restRefusal('/v2/analysis/bitcoin?limit=5001')).code).toBe('InvalidRequest');
    expect(await cliError(['analyze', 'bitcoin', '--limit', '5001'])).toEqual({ code: 'InvalidRequest', exit_code: 2 });
  });
});

describe('a candle file answers in the REST shape', () => {
  const dir = mkdtempSync(join(tmpdir(), 'marketlens-file-'));
  const csv = join(dir, 'prices.csv');
  const rows = ['Date,Open,High,Low,Close,Adj Close,Volume'];
  for (let i = 0; i < 300; i++) {
    const d = new Date(Date.UTC(2020, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
    const base = 100 + 10 * Math.sin(i / 9) + i * 0.05;
    rows.push(`${d},${base},${base + 2},${base - 2},${base + Math.cos(i)},${base},${1000 + (i % 7) * 100}`);
  }
  writeFileSync(csv, `${rows.join('\n')}\n`);

  it('with the keys of the REST answer, the market fields null and the times ISO', async () => {
    for (const [command, path] of [
      ['analyze', '/v2/analysis/bitcoin'],
      ['signal', '/v2/analysis/bitcoin/signal'],
      ['overview', '/v2/analysis/bitcoin/overview'],
    ] as const) {
      const { data } = await cliJson([command, '--file', csv]);
      expect(Object.keys(data).sort(), command).toEqual(Object.keys(await rest(path)).sort());
      expect(data).toMatchObject({
        asset: null,
        timeframe: 'd1',
        market_type: null,
        pair: null,
        venue: 'file',
        data_source: 'file:prices.csv',
        stale: false,
        as_of: '2020-10-26T00:00:00.000Z',
      });
    }
    const named = await cliJson(['zones', 'BTC', '--file', csv]);
    expect(named.data.asset).toMatchObject({ id: 'bitcoin', symbol: 'BTC' });
  });
});

describe('a files: folder answers as REST over the same folder', () => {
  it('analyze --source files:<dir> is the REST answer of a server reading that folder', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'marketlens-files-'));
    mkdirSync(join(dir, 'bitcoin'));
    const lines = ['time,open,high,low,close,volume'];
    for (let i = 0; i < 400; i++) {
      const t = Date.parse('2024-04-27T00:00:00Z') + i * 86_400_000;
      const base = 60_000 + 3_000 * Math.sin(i / 11) + i * 20;
      lines.push(`${t},${base},${base + 900},${base - 900},${base + 400 * Math.cos(i)},${100 + (i % 5) * 10}`);
    }
    writeFileSync(join(dir, 'bitcoin', 'd1.csv'), `${lines.join('\n')}\n`);
    // The folder as `marketlens serve --market files:<dir>` opens it.
    const served = await restOver(await openMarket([parseSourceName(`files:${dir}`)], { now: () => now }));
    const res = await served.request('/v2/analysis/bitcoin', served.pro);
    expect(res.status).toBe(200);
    const restData = ((await res.json()) as { data: Record<string, unknown> }).data;
    const { data } = await cliJson(['analyze', 'bitcoin', '--source', `files:${dir}`]);
    expect(data).toEqual(restData);
    expect(data).toMatchObject({ asset: { id: 'bitcoin' }, timeframe: 'd1', stale: false });
    expect(data.history).toMatchObject({ candles: 400 });
  });
});
