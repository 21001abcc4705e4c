import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sharedDataDir, sharedDataSkipReason } from '../../../core/src/testing/shared-data.js';
import { createFilesSource, FilesSourceError } from './files.js';

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
});
