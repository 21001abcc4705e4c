import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
      'screen',
      'chart',
      'import',
      'backtest',
      'serve',
      'admin tier',
    ])
      expect(r.stdout).toContain(c);
    expect(r.stdout).not.toMatch(/\bmcp\b/);
  });

  it.each(['analyze', 'signal', 'zones', 'feargreed', 'screen', 'chart', 'import', 'backtest', 'serve'])(
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
    expect(marketlens(['mcp']).code).toBe(2);
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
    expect(r.stdout).toContain('as of 2025-06-01 00:00 UTC');
    expect(r.stdout).toMatch(/┤.*[█│]/);
    expect(r.stdout).toMatch(/^signal (BUY|HOLD|SELL) {2}confidence/m);
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

  it('analyze --json is the documented shape', () => {
    const r = marketlens(['analyze', 'BTC', '--tf', 'h4', '--json']);
    expect(r.code).toBe(0);
    const out = json(r.stdout);
    expect(out.schema).toBe('marketlens.analyze/1');
    expect(out.source).toMatchObject({
      venue: 'marketlens-sim',
      asset_id: 'bitcoin',
      timeframe: 'h4',
      market_type: 'spot',
      candles: 1000,
    });
    const a = out.analysis as Record<string, unknown>;
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
    ])
      expect(a).toHaveProperty(k);
    expect(typeof out.overview).toBe('string');
  });

  it.each([
    ['signal', ['signal']],
    ['zones', ['levels', 'volume_profile', 'zone']],
    ['feargreed', ['fear_greed']],
  ])('%s --json', (command, keys) => {
    const r = marketlens([command, 'solana', '--json']);
    expect(r.code).toBe(0);
    const out = json(r.stdout);
    expect(out.schema).toBe(`marketlens.${command}/1`);
    expect(out).toHaveProperty('as_of');
    for (const k of keys) expect(out).toHaveProperty(k);
  });

  it('an unknown asset is a data error (exit 3), also as JSON on stderr', () => {
    const r = marketlens(['analyze', 'no-such-coin']);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("unknown asset 'no-such-coin'");
    const j = marketlens(['signal', 'no-such-coin', '--json']);
    expect(j.code).toBe(3);
    expect(j.stdout).toBe('');
    expect(JSON.parse(j.stderr)).toEqual({
      error: { code: 'unknown_asset', message: expect.any(String), exit_code: 3 },
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
    expect(json(r.stdout).source).toMatchObject({ venue: 'file', file: csv, candles: 300, timeframe: null });
  });

  it('backtest walks forward with the cost, outcome and calibration tables', () => {
    const r = marketlens(['backtest', '--file', csv]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('cost 0.2% round trip');
    expect(r.stdout).toMatch(/^outcome +plans +share$/m);
    expect(r.stdout).toMatch(/^confidence +plans +hit rate +mean R$/m);
    const j = json(marketlens(['backtest', 'bitcoin', '--limit', '400', '--cost', '0.1', '--json']).stdout);
    expect(j).toMatchObject({ schema: 'marketlens.backtest/1', cost_pct: 0.1, warmup: 133 });
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
    expect(json(r.stdout)).toMatchObject({ schema: 'marketlens.chart/1', format: 'png', width: 640, height: 360 });
    const png = readFileSync(out);
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(png.readUInt32BE(16)).toBe(640);
    expect(png.readUInt32BE(20)).toBe(360);
  });
});

describe('screen', () => {
  it('screens the universe (no progress bar off a terminal) and prints JSON', () => {
    const r = marketlens(['screen', '--class', 'fx', '--json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const j = json(r.stdout);
    expect(j).toMatchObject({ schema: 'marketlens.screen/1', venue: 'marketlens-sim', timeframe: 'd1' });
    for (const k of ['breakouts', 'oversold', 'volume_surges', 'errors']) expect(Array.isArray(j[k])).toBe(true);
    expect(j.assets).toBeGreaterThan(3);
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
