import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { grantUserTier, MAX_ACTIVE_API_KEYS, openDataDir, seedDemo } from '@marketlens/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { BINARY, ensureBuilt, marketlens } from './testing/binary.js';

beforeAll(() => {
  ensureBuilt();
}, 120_000);

const ESC = '\u001b[';

function json(stdout: string): Record<string, unknown> {
  return JSON.parse(stdout) as Record<string, unknown>;
}

describe('help and usage', () => {
  it('prints the command list and exits 0', () => {
    const r = marketlens(['--help']);
    expect(r.code).toBe(0);
    for (const c of [
      'analyze',
      'signal',
      'zones',
      'feargreed',
      'overview',
      'screen',
      'chart',
      'import',
      'backtest',
      'serve',
      'admin tier',
    ])
      expect(r.stdout).toContain(c);
    expect(r.stdout).toMatch(/^ {2}mcp +run the MCP server over stdio/m);
  });

  it.each(['analyze', 'signal', 'zones', 'feargreed', 'overview', 'screen', 'chart', 'import', 'backtest', 'serve'])(
    '%s --help describes the command',
    (name) => {
      const r = marketlens([name, '--help']);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`Usage: marketlens ${name}`);
      expect(r.stdout).toContain('--help');
    },
  );

  it('admin subcommands have help', () => {
    expect(marketlens(['admin']).stdout).toContain('admin keys');
    const r = marketlens(['admin', 'tier', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Usage: marketlens admin tier <email> <free|pro|elite>');
  });

  it('usage errors exit 2 with a pointer to the help', () => {
    for (const args of [
      ['frobnicate'],
      ['analyze', '--bogus'],
      ['analyze', '--tf', 'h2'],
      ['analyze', 'a', 'b'],
      ['chart', 'bitcoin'],
    ]) {
      const r = marketlens(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^error: /);
      expect(r.stderr).toContain('--help');
      expect(r.stdout).toBe('');
    }
    expect(marketlens(['mcp', 'extra']).code).toBe(2);
  });

  it('--version prints the version', () => {
    const r = marketlens(['--version']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});

describe('analysis commands', () => {
  it('analyze prints aligned tables, the chart and the overview, without colour off a terminal', () => {
    const r = marketlens(['analyze', 'bitcoin']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('marketlens analysis: bitcoin d1 spot BTC/USDT on marketlens-sim');
    // At 2025-06-01 00:00 the day of June 1 has just opened: the analysis is of the last closed day.
    expect(r.stdout).toContain('as of 2025-05-31 00:00 UTC');
    expect(r.stdout).toMatch(/┤.*[█│]/);
    // a call states its probability of target 1; a hold why there is no trade, never a confidence
    expect(r.stdout).toMatch(/^signal ((BUY|SELL) {2}p\(target 1\) |HOLD {2}no trade: )/m);
    expect(r.stdout).not.toMatch(/^signal HOLD .*confidence/m);
    expect(r.stdout).not.toContain(ESC);
    // the factor table is aligned: every row as wide up to its last column
    const rows = r.stdout
      .split('\n')
      .filter((l) => /^(factor|trend|momentum|sentiment|breakout|risk|cycle_phase) /.test(l));
    expect(rows).toHaveLength(7);
    expect(new Set(rows.map((l) => l.length)).size).toBe(1);
  });

  it('is deterministic with a pinned clock', () => {
    expect(marketlens(['signal', 'ethereum']).stdout).toBe(marketlens(['signal', 'ethereum']).stdout);
  });

  // Issue 39.5: version 2 is the REST analysis data (was `{source, analysis, overview}` over 1,000
  // candles); data/rest-agreement.test.ts compares it with REST field by field.
  it('analyze --json is the documented shape', () => {
    const r = marketlens(['analyze', 'BTC', '--tf', 'h4', '--json']);
    expect(r.code).toBe(0);
    const a = json(r.stdout);
    expect(a.schema).toBe('marketlens.analyze/2');
    expect(a).toMatchObject({
      venue: 'marketlens-sim',
      asset: { id: 'bitcoin', symbol: 'BTC' },
      timeframe: 'h4',
      market_type: 'spot',
      data_source: 'simulated',
      history: { candles: 500 },
    });
    for (const k of [
      'as_of',
      'indicators',
      'levels',
      'volume_profile',
      'zone',
      'signal',
      'technical_rating',
      'fear_greed',
      'regime',
      'patterns',
      'live',
    ])
      expect(a).toHaveProperty(k);
    expect(a.as_of).toBe('2025-05-31T20:00:00.000Z');
  });

  it.each([
    ['signal', ['signal']],
    ['zones', ['levels', 'volume_profile', 'zone']],
    ['feargreed', ['fear_greed']],
  ])('%s --json', (command, keys) => {
    const r = marketlens([command, 'solana', '--json']);
    expect(r.code).toBe(0);
    const out = json(r.stdout);
    expect(out.schema).toBe(`marketlens.${command}/2`);
    expect(out).toHaveProperty('as_of');
    for (const k of keys) expect(out).toHaveProperty(k);
  });

  // Issue 39.5: the code is REST's `UnknownAsset` (was the CLI's own `unknown_asset`).
  it('an unknown asset is a data error (exit 3), also as JSON on stderr', () => {
    const r = marketlens(['analyze', 'no-such-coin']);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("Unknown asset 'no-such-coin'");
    const j = marketlens(['signal', 'no-such-coin', '--json']);
    expect(j.code).toBe(3);
    expect(j.stdout).toBe('');
    expect(JSON.parse(j.stderr)).toEqual({
      error: { code: 'UnknownAsset', message: expect.any(String), exit_code: 3 },
    });
  });

  it('--venue names a ccxt venue; an unknown one is a usage error', () => {
    const r = marketlens(['analyze', 'bitcoin', '--venue', 'nowhere']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('binance');
  });
});

describe('files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'marketlens-cli-'));
  const csv = join(dir, 'prices.csv');
  const rows = ['Date,Open,High,Low,Close,Adj Close,Volume'];
  for (let i = 0; i < 300; i++) {
    const d = new Date(Date.UTC(2020, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
    const base = 100 + 10 * Math.sin(i / 9) + i * 0.05;
    rows.push(`${d},${base},${base + 2},${base - 2},${base + Math.cos(i)},${base},${1000 + (i % 7) * 100}`);
  }
  writeFileSync(csv, `${rows.join('\n')}\n`);

  it('import summarises a file (text and --json)', () => {
    const r = marketlens(['import', csv]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^candles +300$/m);
    expect(r.stdout).toMatch(/^spacing +d1$/m);
    const j = json(marketlens(['import', csv, '--json']).stdout);
    expect(j).toMatchObject({
      schema: 'marketlens.import/1',
      format: 'yahoo',
      rows: 300,
      timeframe: 'd1',
      interval_ms: 86_400_000,
      gaps: 0,
    });
  });

  it('a bad or missing file is a data error', () => {
    const bad = join(dir, 'bad.csv');
    writeFileSync(bad, 'nothing,here\n1,2\n');
    expect(marketlens(['import', bad]).code).toBe(3);
    expect(marketlens(['import', join(dir, 'missing.csv')]).code).toBe(3);
    expect(marketlens(['analyze', '--file', join(dir, 'missing.csv')]).code).toBe(3);
  });

  it('analysis commands read --file', () => {
    const r = marketlens(['zones', '--file', csv, '--json']);
    expect(r.code).toBe(0);
    // Issue 39.5: the REST shape, with what a file cannot say null (was a `source` block).
    expect(json(r.stdout)).toMatchObject({
      venue: 'file',
      data_source: 'file:prices.csv',
      asset: null,
      pair: null,
      timeframe: 'd1',
      as_of: '2020-10-26T00:00:00.000Z',
    });
  });

  it('backtest walks forward with the cost, outcome and calibration tables', () => {
    const r = marketlens(['backtest', '--file', csv]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('cost 0.2% round trip');
    expect(r.stdout).toMatch(/^outcome +plans +share$/m);
    expect(r.stdout).toMatch(/^confidence +plans +hit rate +mean R$/m);
    const j = json(marketlens(['backtest', 'bitcoin', '--limit', '400', '--cost', '0.1', '--json']).stdout);
    expect(j).toMatchObject({ schema: 'marketlens.backtest/2', cost_pct: 0.1, warmup: 133, bars: 400 });
    const outcomes = j.outcomes as Record<string, number>;
    expect(Object.values(outcomes).reduce((s, x) => s + x, 0)).toBe(j.plans);
    expect(j.calibration).toHaveLength(5);
    expect(marketlens(['backtest', '--cost', 'x']).code).toBe(2);
  });

  it('chart writes an SVG', () => {
    const out = join(dir, 'btc.svg');
    const r = marketlens(['chart', 'bitcoin', '--out', out, '--bars', '60']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('wrote');
    const svg = readFileSync(out, 'utf8');
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg.match(/<rect [^>]*fill="#(26a69a|ef5350)"/g)).toHaveLength(60);
  });

  it('chart writes a PNG of the asked size', () => {
    const out = join(dir, 'eth.png');
    const r = marketlens(['chart', 'ethereum', '-o', out, '--width', '640', '--height', '360', '--json']);
    expect(r.code).toBe(0);
    expect(json(r.stdout)).toMatchObject({ schema: 'marketlens.chart/2', format: 'png', width: 640, height: 360 });
    const png = readFileSync(out);
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(png.readUInt32BE(16)).toBe(640);
    expect(png.readUInt32BE(20)).toBe(360);
  });
});

describe('screen', () => {
  // Issue 39.5: the REST screener's data (was `{venue, timeframe, assets, ..., errors}`).
  it('screens a class (nothing on stderr off a terminal) and prints JSON', () => {
    const r = marketlens(['screen', '--class', 'fx', '--json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const j = json(r.stdout);
    expect(j).toMatchObject({ schema: 'marketlens.screen/2', asset_class: 'fx', timeframe: 'd1' });
    for (const k of ['breakouts', 'oversold', 'volume_surges']) expect(Array.isArray(j[k])).toBe(true);
    expect(j.assets_screened).toBeGreaterThan(3);
    const text = marketlens(['screen', '--class', 'fx']);
    expect(text.code).toBe(0);
    // 2025-05-31 is a Saturday: the fx week closed on Friday.
    expect(text.stdout).toMatch(/^marketlens screen: \d+ fx assets, d1 as of 2025-05-30, marketlens-sim$/m);
  });
});

describe('serve and admin', () => {
  it('serve prints the banner; admin commands then work on its data folder', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'marketlens-admin-'));
    const env = { MARKETLENS_DATA_DIR: dir };
    expect(marketlens(['admin', 'user', 'demo@marketlens.local'], env).code).toBe(3);

    const child = spawn(process.execPath, [BINARY, 'serve', '--port', '0'], { env: { ...process.env, ...env } });
    let banner = '';
    await new Promise<void>((done, fail) => {
      child.stdout.on('data', (chunk: Buffer) => {
        banner += chunk.toString();
        if (banner.includes('api key:')) done();
      });
      child.on('exit', (code) => fail(new Error(`serve exited ${code}`)));
    });
    const url = /listening on (http:\/\/\S+)/.exec(banner)?.[1];
    expect(url).toBeDefined();
    const config = await fetch(`${url}/v2/config`);
    expect(config.status).toBe(200);
    const exited = new Promise((done) => child.on('exit', done));
    child.kill('SIGTERM');
    await exited;

    const tier = marketlens(['admin', 'tier', 'demo@marketlens.local', 'pro', '--json'], env);
    expect(tier.code).toBe(0);
    expect(JSON.parse(tier.stdout)).toMatchObject({
      schema: 'marketlens.admin.user/1',
      user: { tier: 'pro', effective_tier: 'pro' },
    });
    const grant = marketlens(['admin', 'grant', 'demo@marketlens.local', 'elite', '--days', '7', '--json'], env);
    expect(JSON.parse(grant.stdout).user).toMatchObject({
      tier: 'pro',
      effective_tier: 'elite',
      grant: { tier: 'elite', source: 'admin' },
    });
    const keys = marketlens(['admin', 'keys', 'demo@marketlens.local', '--json'], env);
    expect(keys.code).toBe(0);
    const list = JSON.parse(keys.stdout).keys as Record<string, unknown>[];
    expect(list.length).toBeGreaterThan(0);
    expect(list[0]).not.toHaveProperty('key_hash');
    expect(marketlens(['admin', 'tier', 'demo@marketlens.local', 'gold'], env).code).toBe(2);
    expect(marketlens(['admin', 'tier', 'nobody@example.com', 'pro'], env).code).toBe(3);
  });
});

describe('admin users and API keys', () => {
  const DEMO = 'demo@marketlens.local';
  const OTHER = 'other@example.com';
  const DAY = 86_400_000;

  /** A data folder as `serve` leaves it: the demo user (one active key) and one more user with a grant. */
  async function dataDir(): Promise<{ dir: string; env: NodeJS.ProcessEnv }> {
    const dir = mkdtempSync(join(tmpdir(), 'marketlens-keys-'));
    const storage = openDataDir(dir);
    await seedDemo(storage, Date.UTC(2025, 0, 1));
    await storage.users.create(
      { id: 'u-other', email: OTHER, password_hash: 'x', tier: 'free', created_at: Date.UTC(2025, 0, 2) },
      [],
    );
    await grantUserTier(storage, OTHER, 'pro', 30, 'promotion');
    await storage.close();
    return { dir, env: { MARKETLENS_DATA_DIR: dir } };
  }

  function errorOf(stderr: string): Record<string, unknown> {
    return (JSON.parse(stderr) as { error: Record<string, unknown> }).error;
  }

  it('help lists the new subcommands', () => {
    const admin = marketlens(['admin']).stdout;
    for (const c of ['admin users', 'admin keys create', 'admin keys revoke']) expect(admin).toContain(c);
    expect(marketlens(['--help']).stdout).toContain('admin keys create');
    const create = marketlens(['admin', 'keys', 'create', '--help']);
    expect(create.code).toBe(0);
    expect(create.stdout).toContain('Usage: marketlens admin keys create <email>');
    expect(create.stdout).toContain('--expires-in-days <n>');
    expect(marketlens(['admin', 'keys', 'revoke', '--help']).stdout).toContain(
      'Usage: marketlens admin keys revoke <email> <key-prefix-or-id>',
    );
  });

  it('admin users lists every user with base and effective tier, oldest first', async () => {
    const { env } = await dataDir();
    const j = marketlens(['admin', 'users', '--json'], env);
    expect(j.code).toBe(0);
    const out = json(j.stdout);
    expect(out.schema).toBe('marketlens.admin.users/1');
    const users = out.users as Record<string, unknown>[];
    expect(users.map((u) => u.email)).toEqual([DEMO, OTHER]);
    expect(users[1]).toMatchObject({
      id: 'u-other',
      tier: 'free',
      effective_tier: 'pro',
      grant: { tier: 'pro', source: 'promotion' },
      created_at: Date.UTC(2025, 0, 2),
    });
    expect(users[0]).toMatchObject({ tier: 'free', effective_tier: 'free', grant: null });
    for (const u of users) expect(u).not.toHaveProperty('password_hash');

    const text = marketlens(['admin', 'users'], env);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^email +id +tier +effective +created$/m);
    expect(text.stdout).toMatch(/^other@example\.com +u-other +free +pro +2025-01-02/m);
  });

  it('admin users: a missing data folder is exit 3, an argument exit 2', () => {
    const empty = mkdtempSync(join(tmpdir(), 'marketlens-none-'));
    const r = marketlens(['admin', 'users', '--json'], { MARKETLENS_DATA_DIR: empty });
    expect(r.code).toBe(3);
    expect(errorOf(r.stderr)).toMatchObject({ code: 'no_data_dir', exit_code: 3 });
    expect(marketlens(['admin', 'users', 'someone'], { MARKETLENS_DATA_DIR: empty }).code).toBe(2);
  });

  it('keys create prints the key once; it is stored as its hash with the asked expiry', async () => {
    const { dir, env } = await dataDir();
    const r = marketlens(['admin', 'keys', 'create', OTHER, '--expires-in-days', '30', '--json'], env);
    expect(r.code).toBe(0);
    const out = json(r.stdout);
    expect(out).toMatchObject({ schema: 'marketlens.admin.key.created/1', user_id: 'u-other', email: OTHER });
    const key = out.key as string;
    const apiKey = out.api_key as Record<string, unknown>;
    expect(key).toMatch(/^mlk_[\w-]{40,}$/);
    expect(apiKey).toMatchObject({ prefix: key.slice(0, 12), name: null, revoked_at: null, last_used_at: null });
    expect(apiKey.expires_at).toBe((apiKey.created_at as number) + 30 * DAY);
    expect(apiKey).not.toHaveProperty('key_hash');

    const storage = openDataDir(dir);
    const stored = await storage.apiKeys.byHash(createHash('sha256').update(key).digest('hex'));
    await storage.close();
    expect(stored).toMatchObject({ id: apiKey.id, user_id: 'u-other' });

    const text = marketlens(['admin', 'keys', 'create', OTHER], env);
    expect(text.code).toBe(0);
    const printed = /^key +(mlk_\S+)$/m.exec(text.stdout)?.[1];
    expect(printed).toBeDefined();
    expect(text.stdout.split(printed ?? '?')).toHaveLength(2);
    expect(text.stdout).toMatch(/^expires +never$/m);
    expect(text.stdout).toContain('cannot be shown again');
    const listed = json(marketlens(['admin', 'keys', OTHER, '--json'], env).stdout).keys as unknown[];
    expect(listed).toHaveLength(2);
  });

  it('pilot grant and revoke: an operator lets a user spectate the pilot, and ends it', async () => {
    const { env } = await dataDir();
    const g = marketlens(['admin', 'pilot', 'grant', OTHER, '--days', '7', '--json'], env);
    expect(g.code, g.stderr).toBe(0);
    const access = json(g.stdout).pilot_access as { email: string; granted_at: number; expires_at: number };
    expect(access.email).toBe(OTHER);
    expect(access.expires_at - access.granted_at).toBe(7 * 86_400_000);
    expect(marketlens(['admin', 'pilot', 'grant', OTHER, '--days', '0'], env).code).toBe(2);
    expect(marketlens(['admin', 'pilot', 'grant', 'nobody@example.com'], env).code).toBe(3);
    const r = marketlens(['admin', 'pilot', 'revoke', OTHER], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('pilot grant ended');
    const again = marketlens(['admin', 'pilot', 'revoke', OTHER, '--json'], env);
    expect(again.code).toBe(3);
    expect(errorOf(again.stderr)).toMatchObject({ code: 'no_pilot_grant', exit_code: 3 });
  });

  it('keys create: bad --expires-in-days exits 2, an unknown email 3', async () => {
    const { env } = await dataDir();
    for (const bad of ['0', '366', '-1', '1.5', 'x', '']) {
      const r = marketlens(['admin', 'keys', 'create', OTHER, '--expires-in-days', bad, '--json'], env);
      expect(r.code, bad).toBe(2);
      expect(r.stdout).toBe('');
      expect(errorOf(r.stderr)).toMatchObject({ code: 'usage', exit_code: 2 });
    }
    expect(marketlens(['admin', 'keys', 'create', OTHER, '--expires-in-days', '365'], env).code).toBe(0);
    expect(marketlens(['admin', 'keys', 'create', OTHER, '--expires-in-days', '1'], env).code).toBe(0);
    expect(marketlens(['admin', 'keys', 'create'], env).code).toBe(2);
    const r = marketlens(['admin', 'keys', 'create', 'nobody@example.com', '--json'], env);
    expect(r.code).toBe(3);
    expect(errorOf(r.stderr)).toMatchObject({ code: 'unknown_user', exit_code: 3 });
    expect(marketlens(['admin', 'keys', 'create', 'nobody@example.com'], env).stderr).toMatch(/^error: no user/);
  });

  it(`keys create stops at ${MAX_ACTIVE_API_KEYS} active keys (exit 3); revoking frees a place`, async () => {
    const { env } = await dataDir();
    const created: string[] = [];
    for (let i = 0; i < MAX_ACTIVE_API_KEYS; i++) {
      const r = marketlens(['admin', 'keys', 'create', OTHER, '--json'], env);
      expect(r.code).toBe(0);
      created.push((json(r.stdout).api_key as { prefix: string }).prefix);
    }
    const full = marketlens(['admin', 'keys', 'create', OTHER, '--json'], env);
    expect(full.code).toBe(3);
    expect(errorOf(full.stderr)).toMatchObject({ code: 'api_key_limit', exit_code: 3 });
    expect(marketlens(['admin', 'keys', 'revoke', OTHER, created[0]], env).code).toBe(0);
    expect(marketlens(['admin', 'keys', 'create', OTHER], env).code).toBe(0);
  });

  it('keys revoke by prefix or id keeps the record; again, unknown key or user exit 3', async () => {
    const { env } = await dataDir();
    const made = json(marketlens(['admin', 'keys', 'create', OTHER, '--json'], env).stdout).api_key as {
      id: string;
      prefix: string;
    };
    const r = marketlens(['admin', 'keys', 'revoke', OTHER, made.prefix, '--json'], env);
    expect(r.code).toBe(0);
    const out = json(r.stdout);
    expect(out).toMatchObject({ schema: 'marketlens.admin.key.revoked/1', user_id: 'u-other', email: OTHER });
    const revoked = out.api_key as Record<string, unknown>;
    expect(revoked).toMatchObject({ id: made.id, prefix: made.prefix });
    expect(typeof revoked.revoked_at).toBe('number');
    expect(revoked).not.toHaveProperty('key_hash');

    const keys = json(marketlens(['admin', 'keys', OTHER, '--json'], env).stdout).keys as Record<string, unknown>[];
    expect(keys.find((k) => k.id === made.id)?.revoked_at).toBe(revoked.revoked_at);

    const again = marketlens(['admin', 'keys', 'revoke', OTHER, made.id, '--json'], env);
    expect(again.code).toBe(3);
    expect(errorOf(again.stderr)).toMatchObject({ code: 'key_revoked', exit_code: 3 });
    const unknown = marketlens(['admin', 'keys', 'revoke', OTHER, 'mlk_nothing', '--json'], env);
    expect(unknown.code).toBe(3);
    expect(errorOf(unknown.stderr)).toMatchObject({ code: 'unknown_key' });
    // Another user's key is not this user's to revoke.
    const demoKey = (json(marketlens(['admin', 'keys', DEMO, '--json'], env).stdout).keys as { id: string }[])[0];
    expect(marketlens(['admin', 'keys', 'revoke', OTHER, demoKey.id], env).code).toBe(3);
    const nobody = marketlens(['admin', 'keys', 'revoke', 'nobody@example.com', made.id, '--json'], env);
    expect(nobody.code).toBe(3);
    expect(errorOf(nobody.stderr)).toMatchObject({ code: 'unknown_user' });

    const byId = json(marketlens(['admin', 'keys', 'create', DEMO, '--json'], env).stdout).api_key as { id: string };
    const text = marketlens(['admin', 'keys', 'revoke', DEMO, byId.id], env);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`${DEMO}: revoked API key`);
    expect(marketlens(['admin', 'keys', 'revoke', DEMO], env).code).toBe(2);
  });
});
