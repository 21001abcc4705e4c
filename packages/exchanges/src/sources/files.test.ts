import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sharedDataDir, sharedDataSkipReason } from '../../../core/src/testing/shared-data.js';
import { splitSeries } from '../closed.js';
import { createFilesSource, FilesSourceError } from './files.js';
import type { RepairReport } from './repair.js';

function folder(): string {
  return mkdtempSync(join(tmpdir(), 'marketlens-files-'));
}

describe('files source', () => {
  it('refuses an unreadable or empty folder, a bad folder name and a broken file, naming the place', async () => {
    await expect(createFilesSource({ dir: '/nonexistent/marketlens' })).rejects.toThrow(
      /files:\/nonexistent\/marketlens: the folder cannot be read/,
    );
    const empty = folder();
    await expect(createFilesSource({ dir: empty })).rejects.toThrow(/no <asset-id>/);
    const badName = folder();
    mkdirSync(join(badName, 'Bitcoin'));
    await expect(createFilesSource({ dir: badName })).rejects.toThrow(/Bitcoin: a folder name is an asset id/);
    const broken = folder();
    mkdirSync(join(broken, 'stock-nvda'));
    writeFileSync(
      join(broken, 'stock-nvda', 'd1.csv'),
      'Date,Open,High,Low,Close,Volume\n2020-01-02,1,2,0.5,1.5,10\n2020-01-03,x,2,1,1,1\n',
    );
    const err = await createFilesSource({ dir: broken }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FilesSourceError);
    expect((err as Error).message).toMatch(/stock-nvda\/d1\.csv: line 3/);
  });

  it('names the folder, never its absolute path, in the errors of a request', async () => {
    const dir = folder();
    mkdirSync(join(dir, 'fx-eurusd'));
    const rows = ['time,open,high,low,close,volume'];
    for (let k = 0; k < 4; k++) rows.push(`${Date.UTC(2024, 0, 1) + k * 86_400_000},1,2,0.5,1.5,1`);
    writeFileSync(join(dir, 'fx-eurusd', 'd1.csv'), `${rows.join('\n')}\n`);
    const source = await createFilesSource({ dir });
    const messages: string[] = [];
    for (const request of [
      { asset_id: 'bitcoin', timeframe: 'd1' as const },
      { asset_id: 'fx-eurusd', timeframe: 'm5' as const },
    ]) {
      const err = await source.candles({ ...request, limit: 2 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(Error);
      messages.push((err as Error).message);
    }
    // A file broken after open: the error of the request names it relative to the folder.
    writeFileSync(join(dir, 'fx-eurusd', 'd1.csv'), 'time,open,high,low,close,volume\n1,x,1,1,1,1\n');
    const broken = await source.candles({ asset_id: 'fx-eurusd', timeframe: 'd1', limit: 2 }).catch((e: unknown) => e);
    messages.push((broken as Error).message);
    const name = dir.split('/').at(-1) ?? '';
    for (const message of messages) {
      expect(message).not.toContain(dir);
      expect(message).toContain(`files:${name}`);
    }
  });

  it('serves a folder: assets from folder names, newest candles, folded timeframes, repaired rows', async () => {
    const dir = folder();
    mkdirSync(join(dir, 'fx-eurusd'));
    const rows = ['time,open,high,low,close,volume'];
    const H = 3_600_000;
    const T = Date.UTC(2024, 0, 1);
    for (let k = 0; k < 48; k++) rows.push(`${T + k * H},${1 + k},${2 + k},${0.5 + k},${1.5 + k},${k}`);
    rows.push(`${T + 48 * H},5,4,6,5,1`); // high < low: dropped
    writeFileSync(join(dir, 'fx-eurusd', 'h1.csv'), `${rows.join('\n')}\n`);
    const repairs: string[] = [];
    const src = await createFilesSource({ dir, onRepair: (file) => repairs.push(file) });
    expect(repairs).toHaveLength(1);
    const listed = await src.listAssets();
    expect(listed.map((a) => a.definition.id)).toEqual(['fx-eurusd']);
    const h1 = await src.candles({ asset_id: 'fx-eurusd', timeframe: 'h1', limit: 10 });
    expect(h1.candles.time.length).toBe(10);
    expect(h1.candles.time[9]).toBe(T + 47 * H);
    const h4 = await src.candles({ asset_id: 'fx-eurusd', timeframe: 'h4', limit: 100 });
    expect(h4.candles.time.length).toBe(12);
    expect(h4.candles.open[1]).toBe(5);
    expect(h4.candles.close[1]).toBe(8.5);
    await expect(src.candles({ asset_id: 'fx-eurusd', timeframe: 'm5', limit: 10 })).rejects.toMatchObject({
      code: 'unknown_market',
    });
    await expect(src.candles({ asset_id: 'bitcoin', timeframe: 'd1', limit: 10 })).rejects.toMatchObject({
      code: 'unknown_asset',
    });
    expect((await src.ticker({ asset_id: 'fx-eurusd' })).last).toBe(48.5);
  });

  it.skipIf(!sharedDataDir)(
    `serves the real series of ../shared/data (skips when ${sharedDataSkipReason})`,
    async () => {
      const data = sharedDataDir ?? '';
      const dir = folder();
      const link = (id: string, tf: string, file: string) => {
        mkdirSync(join(dir, id), { recursive: true });
        symlinkSync(join(data, file), join(dir, id, `${tf}.${file.endsWith('.json') ? 'json' : 'csv'}`));
      };
      link('stock-nvda', 'd1', 'nvda-1999-2014-d1.csv');
      link('stock-orcl', 'd1', 'orcl-1995-2014-d1.csv');
      link('index-dax', 'm5', 'index-2006-m5.csv');
      link('ripple', 'h1', 'xrp-usdt-perp-h1.json');
      const src = await createFilesSource({ dir });
      const ids = (await src.listAssets()).map((a) => a.definition.id);
      expect(ids).toEqual(['index-dax', 'ripple', 'stock-nvda', 'stock-orcl']);
      const nvda = await src.candles({ asset_id: 'stock-nvda', timeframe: 'd1', limit: 500 });
      expect(nvda.candles.time.length).toBe(500);
      expect(new Date(nvda.candles.time[499]).getUTCFullYear()).toBe(2014);
      const idx = await src.candles({ asset_id: 'index-dax', timeframe: 'h1', limit: 5000 });
      expect(idx.candles.time.length).toBeGreaterThan(100);
      const xrp = await src.candles({ asset_id: 'ripple', timeframe: 'h1', limit: 100 });
      expect(xrp.candles.close[0]).toBe(1.07925);
    },
  );

  it('refuses a file whose spacing is not its name, naming the spacing measured, and logs what it skips', async () => {
    const dir = folder();
    mkdirSync(join(dir, 'bitcoin'));
    const M = 60_000;
    const T = Date.UTC(2024, 0, 1);
    const rows = ['time,open,high,low,close,volume'];
    for (let k = 0; k < 120; k++) rows.push(`${T + k * M},1,2,0.5,1.5,1`);
    writeFileSync(join(dir, 'bitcoin', 'm5.csv'), `${rows.join('\n')}\n`);
    // The only file refused: nothing to serve, and the message says why.
    await expect(createFilesSource({ dir })).rejects.toThrow(
      /m5\.csv: its candles are 1 minute apart \(measured\), not 5 minutes/,
    );
    // Beside a good file: served without it, and told.
    writeFileSync(join(dir, 'bitcoin', 'm1.csv'), `${rows.join('\n')}\n`);
    writeFileSync(join(dir, 'bitcoin', 'notes.txt'), 'from the exchange\n');
    const skipped: string[] = [];
    const src = await createFilesSource({ dir, onSkip: (path, reason) => skipped.push(`${path}: ${reason}`) });
    expect(skipped).toHaveLength(2);
    expect(skipped.join('\n')).toMatch(/m5\.csv: its candles are 1 minute apart \(measured\), not 5 minutes/);
    expect(skipped.join('\n')).toMatch(/notes\.txt: not a candle file/);
    // m5 now comes from the 1-minute file: 24 candles of 5.
    const m5 = await src.candles({ asset_id: 'bitcoin', timeframe: 'm5', limit: 100 });
    expect(m5.candles.time.length).toBe(24);
    expect(m5.candles.volume[0]).toBe(5);
  });

  it('declares the quote currency in the folder name or market.json, never USD by default', async () => {
    const dir = folder();
    const rows = ['time,open,high,low,close,volume'];
    const D = 86_400_000;
    for (let k = 0; k < 10; k++) rows.push(`${Date.UTC(2024, 0, 1) + k * D},0.05,0.06,0.04,0.055,1`);
    for (const name of ['ethereum@btc', 'solana', 'stock-nvda', 'fx-eurusd']) {
      mkdirSync(join(dir, name));
      writeFileSync(join(dir, name, 'd1.csv'), `${rows.join('\n')}\n`);
    }
    writeFileSync(join(dir, 'stock-nvda', 'market.json'), '{"quote": "usd", "tick_size": 0.01}');
    const src = await createFilesSource({ dir });
    expect((await src.markets('ethereum'))[0]).toMatchObject({ quote: 'BTC', base: 'ETH' });
    expect((await src.markets('solana'))[0].quote).toBe('XXX');
    expect((await src.markets('stock-nvda'))[0]).toMatchObject({ quote: 'USD', tick_size: 0.01 });
    expect((await src.markets('fx-eurusd'))[0].quote).toBe('USD');
    const bad = folder();
    mkdirSync(join(bad, 'ethereum'));
    writeFileSync(join(bad, 'ethereum', 'd1.csv'), `${rows.join('\n')}\n`);
    writeFileSync(join(bad, 'ethereum', 'market.json'), '{"tick_size": -1}');
    await expect(createFilesSource({ dir: bad })).rejects.toThrow(/market\.json: "tick_size" is a positive number/);
  });
});

describe.skipIf(!sharedDataDir)(`files source on the real series (skips when ${sharedDataSkipReason})`, () => {
  const data = sharedDataDir ?? '';

  /** NVDA's daily file up to and including `last` (YYYY-MM-DD). */
  function nvdaUntil(dir: string, last: string): void {
    const lines = readFileSync(join(data, 'nvda-1999-2014-d1.csv'), 'utf8').trim().split('\n');
    const kept = lines.filter((l, i) => i === 0 || l.slice(0, 10) <= last);
    mkdirSync(join(dir, 'stock-nvda'), { recursive: true });
    writeFileSync(join(dir, 'stock-nvda', 'd1.csv'), `${kept.join('\n')}\n`);
  }

  it('a week folded from NVDA dailies cut on a Monday is live, not a closed one-day week', async () => {
    const monday = folder();
    nvdaUntil(monday, '2008-09-15');
    const src = await createFilesSource({ dir: monday });
    const w1 = await src.candles({ asset_id: 'stock-nvda', timeframe: 'w1', limit: 50 });
    // The data has seen the market until Tuesday 2008-09-16: that week is still forming.
    expect(w1.seen_until).toBe(Date.UTC(2008, 8, 16));
    const { closed, live } = splitSeries(w1, Date.now(), 49);
    expect(live).toEqual({ time: Date.UTC(2008, 8, 15), price: 9.3 });
    // The last closed week is 2008-09-08..12, as the file has it: open 9/8, close 9/12 10.19.
    const n = closed.time.length;
    expect(closed.time[n - 1]).toBe(Date.UTC(2008, 8, 8));
    expect(closed.close[n - 1]).toBe(10.19);
    // Cut on that Friday instead: the week is whole (the market is shut until Monday), so it is closed.
    const friday = folder();
    nvdaUntil(friday, '2008-09-12');
    const week = await (await createFilesSource({ dir: friday })).candles({
      asset_id: 'stock-nvda',
      timeframe: 'w1',
      limit: 50,
    });
    expect(week.seen_until).toBe(Date.UTC(2008, 8, 15));
    const atFriday = splitSeries(week, Date.now());
    expect(atFriday.live).toBeNull();
    expect(atFriday.closed.time[atFriday.closed.time.length - 1]).toBe(Date.UTC(2008, 8, 8));
    // The daily candle of the Monday itself is closed: its day has passed.
    const d1 = splitSeries(await src.candles({ asset_id: 'stock-nvda', timeframe: 'd1', limit: 5 }), Date.now());
    expect(d1.live).toBeNull();
    expect(d1.closed.time[d1.closed.time.length - 1]).toBe(Date.UTC(2008, 8, 15));
  });

  it('reports no gap over the weekends of the stock files, only the market closure after 9/11', async () => {
    const dir = folder();
    for (const [id, file] of [
      ['stock-nvda', 'nvda-1999-2014-d1.csv'],
      ['stock-orcl', 'orcl-1995-2014-d1.csv'],
    ] as const) {
      mkdirSync(join(dir, id));
      symlinkSync(join(data, file), join(dir, id, 'd1.csv'));
    }
    const reports: RepairReport[] = [];
    await createFilesSource({ dir, onRepair: (_file, report) => reports.push(report) });
    expect(reports.map((r) => r.gaps)).toEqual([4, 4]);
  });

  it('serves the crypto 1-minute file resampled to m5 and h1, quoted in BTC; a partial hour is live', async () => {
    const dir = folder();
    mkdirSync(join(dir, 'crypto-pair@btc'));
    symlinkSync(join(data, 'crypto-pair-m1.json'), join(dir, 'crypto-pair@btc', 'm1.json'));
    const src = await createFilesSource({ dir });
    expect((await src.markets('crypto-pair'))[0].quote).toBe('BTC');
    const raw = JSON.parse(readFileSync(join(data, 'crypto-pair-m1.json'), 'utf8')) as number[][];
    const last = raw[raw.length - 1][0];
    for (const [tf, step] of [
      ['m5', 300_000],
      ['h1', 3_600_000],
    ] as const) {
      const s = await src.candles({ asset_id: 'crypto-pair', timeframe: tf, limit: 10_000 });
      // Every bucket is the fold of the minutes in it: check the first whole one against the raw rows.
      const t0 = s.candles.time[0];
      const inside = raw.filter((r) => r[0] >= t0 && r[0] < t0 + step);
      expect(s.candles.open[0]).toBe(inside[0][1]);
      expect(s.candles.high[0]).toBe(Math.max(...inside.map((r) => r[2])));
      expect(s.candles.low[0]).toBe(Math.min(...inside.map((r) => r[3])));
      expect(s.candles.close[0]).toBe(inside[inside.length - 1][4]);
      // The file ends at 22:59: its last minute closes the last m5 and h1 buckets.
      expect(s.seen_until).toBe(last + 60_000);
      expect(splitSeries(s, Date.now()).live).toBeNull();
      expect(s.candles.close[s.candles.time.length - 1]).toBe(raw[raw.length - 1][4]);
    }
    // Cut 20 minutes into an hour: that hour is the live candle.
    const cutDir = folder();
    mkdirSync(join(cutDir, 'crypto-pair'));
    const cut = raw.filter((r) => r[0] <= last - 40 * 60_000);
    writeFileSync(join(cutDir, 'crypto-pair', 'm1.json'), JSON.stringify(cut));
    const h1 = await (await createFilesSource({ dir: cutDir })).candles({
      asset_id: 'crypto-pair',
      timeframe: 'h1',
      limit: 100,
    });
    expect(splitSeries(h1, Date.now()).live?.time).toBe(last - 59 * 60_000);
    expect(splitSeries(h1, Date.now()).closed.time.at(-1)).toBe(last - 119 * 60_000);
  });

  it('an h4 candle folded from one hour of the XRP file is live', async () => {
    const raw = JSON.parse(readFileSync(join(data, 'xrp-usdt-perp-h1.json'), 'utf8')) as number[][];
    const H4 = 4 * 3_600_000;
    // Up to the first hour of an h4 bucket, well into the file.
    const end = raw.findIndex((r, i) => i > 50 && r[0] % H4 === 0);
    const dir = folder();
    mkdirSync(join(dir, 'ripple'));
    writeFileSync(join(dir, 'ripple', 'h1.json'), JSON.stringify(raw.slice(0, end + 1)));
    const h4 = await (await createFilesSource({ dir })).candles({ asset_id: 'ripple', timeframe: 'h4', limit: 100 });
    const { closed, live } = splitSeries(h4, Date.now());
    expect(live).toEqual({ time: raw[end][0], price: raw[end][4] });
    expect(closed.time.at(-1)).toBe(raw[end][0] - H4);
  });
});
