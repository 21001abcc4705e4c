import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceTrackRecordSchema } from '@marketlens/contract';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BINARY, ensureBuilt, FIXED_NOW, marketlens } from '../testing/binary.js';

beforeAll(() => {
  ensureBuilt();
}, 120_000);

const DAY = 86_400_000;

/** A folder of candle files: one made-up stock, 480 daily candles ending before the pinned clock. */
function candleFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'marketlens-track-'));
  mkdirSync(join(dir, 'stock-nvda'));
  const rows = ['time,open,high,low,close,volume'];
  const start = Date.UTC(2023, 6, 1);
  let p = 40;
  for (let k = 0; k < 480; k++) {
    const open = p;
    p = Math.max(1, p * (1 + 0.004 * Math.sin(k / 40) + 0.012 * Math.sin(k * 1.7)));
    rows.push(
      `${start + k * DAY},${open},${Math.max(open, p) * 1.006},${Math.min(open, p) * 0.994},${p},${1e5 + (k % 9) * 1e4}`,
    );
  }
  writeFileSync(join(dir, 'stock-nvda', 'd1.csv'), `${rows.join('\n')}\n`);
  return dir;
}

describe('marketlens track-record', () => {
  it('--help describes the live and the backtest record and the filters', () => {
    const r = marketlens(['track-record', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Usage: marketlens track-record');
    for (const o of ['--tf', '--class', '--server', '--data-dir', '--market', '--json']) expect(r.stdout).toContain(o);
    expect(r.stdout).toContain('simulated, not live trading');
    expect(marketlens(['--help']).stdout).toMatch(/^ {2}track-record +the service's own track record/m);
  });

  it('reads the data folder and walks the backtest of a files: market: --json is the REST record, the table labels the backtest', () => {
    const data = mkdtempSync(join(tmpdir(), 'marketlens-data-'));
    const market = `files:${candleFolder()}`;
    const j = marketlens(['track-record', '--data-dir', data, '--market', market, '--json']);
    expect(j.code, j.stderr).toBe(0);
    const body = JSON.parse(j.stdout) as Record<string, unknown>;
    expect(body).toMatchObject({ schema: 'marketlens.track-record/1', source: data });
    const { schema: _schema, source: _source, ...record } = body;
    const parsed = ServiceTrackRecordSchema.parse(record);
    expect(parsed.live).toMatchObject({ kind: 'live', stats: { count: 0 } });
    expect(parsed.backtest).toMatchObject({
      kind: 'backtest',
      status: 'ready',
      as_of: new Date(FIXED_NOW).toISOString(),
    });
    expect(parsed.backtest.series.map((s) => `${s.asset_id} ${s.timeframe} ${s.cost_pct}`)).toEqual([
      'stock-nvda d1 0.05',
    ]);
    const [s] = parsed.backtest.series;
    // 480 closed candles, analysed from the 160th (a third: shorter than the 210-candle warm-up) to the second-to-last
    expect([s.candles, s.analyses, s.error]).toEqual([480, 480 - 1 - 160, null]);
    expect(parsed.backtest.label).toContain(`${s.calls} of ${s.analyses} analyses published a Buy or Sell`);

    const human = marketlens(['track-record', '--data-dir', data, '--market', market, '--tf', 'd1']);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toContain(`marketlens track-record: ${data} (d1)`);
    expect(human.stdout).toContain('Live record\nLive: ');
    expect(human.stdout).toContain('Backtest record (simulated, not live trading), as of ');
    expect(human.stdout).toContain('\nBacktest, not live trading: ');
    expect(human.stdout).toMatch(
      /series +cost % +analyses +calls +resolved +hit rate \[90%\] +break-even +expected R +realized R \[90%\] +max DD R/,
    );
    expect(human.stdout).toMatch(new RegExp(`stock-nvda d1 +0\\.050 +${s.analyses} +${s.calls} `));
    // A filter that leaves no series: the backtest is empty, and says so.
    const none = marketlens(['track-record', '--data-dir', data, '--market', market, '--tf', 'h4', '--json']);
    expect(ServiceTrackRecordSchema.parse({ ...JSON.parse(none.stdout), schema: undefined }).backtest.series).toEqual(
      [],
    );
  }, 120_000);

  it('refuses bad options with exit 2, and mixes no embedded option with --server', () => {
    expect(marketlens(['track-record', '--tf', 'y1']).code).toBe(2);
    expect(marketlens(['track-record', '--class', 'crypto']).code).toBe(2);
    const mixed = marketlens(['track-record', '--server', 'http://127.0.0.1:9', '--data-dir', '/tmp']);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toContain('--data-dir, --config and --market are for the embedded mode');
    expect(marketlens(['track-record', '--server', 'ftp://example.com']).code).toBe(2);
  });
});

describe('marketlens track-record --server', () => {
  let server: Server | undefined;
  afterEach(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
  });

  /** A server answering each path with what `answer` returns, recording the paths asked. */
  async function serve(
    answer: (path: string) => { status: number; body: unknown },
  ): Promise<{ url: string; paths: string[] }> {
    const paths: string[] = [];
    server = createServer((req, res) => {
      paths.push(req.url ?? '');
      const a = answer(req.url ?? '');
      res.writeHead(a.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(a.body));
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, paths };
  }

  /** Runs the binary asynchronously (the test's server answers in this process). */
  function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
      const child = spawn(process.execPath, [BINARY, ...args], { env: { ...process.env, MARKETLENS_NOW: FIXED_NOW } });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += String(d)));
      child.stderr.on('data', (d) => (stderr += String(d)));
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
  }

  it('reads the public route with the filters, and reports an error answer as a data error (exit 3)', async () => {
    const { url, paths } = await serve(() => ({
      status: 400,
      body: { code: 'InvalidRequest', success: false, data: null, message: 'Invalid query: timeframe' },
    }));
    const r = await run(['track-record', '--server', url, '--tf', 'h1', '--class', 'fx']);
    expect(paths).toEqual(['/v2/track-record?timeframe=h1&asset_class=fx']);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('answered InvalidRequest: Invalid query: timeframe');
  });
});
