/** `--source` on the analysis commands and `serve --market`, on the built binary. */
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { sharedDataDir, sharedDataSkipReason } from '../../../core/src/testing/shared-data.js';
import { ensureBuilt, marketlens } from '../testing/binary.js';

beforeAll(() => {
  ensureBuilt();
}, 120_000);

describe('--source', () => {
  it('refuses an unknown source or venue with a usage error naming the choices', () => {
    const bad = marketlens(['analyze', 'bitcoin', '--source', 'ccxt:nowhere']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/unknown venue 'nowhere'; one of binance/);
    const both = marketlens(['analyze', 'bitcoin', '--source', 'yahoo', '--venue', 'binance']);
    expect(both.code).toBe(2);
    const folder = marketlens(['analyze', 'bitcoin', '--source', 'files:/nonexistent/candles']);
    expect(folder.code).not.toBe(0);
    expect(folder.stderr).toMatch(/files:\/nonexistent\/candles: the folder cannot be read/);
  });

  it('serve --market refuses a bad source in one line before listening', () => {
    const r = marketlens(['serve', '--port', '0', '--market', 'simulated,yahoo']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/`simulated` cannot be combined with real sources/);
    expect(r.stderr).not.toMatch(/^\s+at /m);
  });

  it.skipIf(!sharedDataDir)(`analyses a folder of real series (skips when ${sharedDataSkipReason})`, () => {
    const dir = mkdtempSync(join(tmpdir(), 'marketlens-cli-files-'));
    mkdirSync(join(dir, 'stock-nvda'));
    symlinkSync(join(sharedDataDir ?? '', 'nvda-1999-2014-d1.csv'), join(dir, 'stock-nvda', 'd1.csv'));
    const r = marketlens(['analyze', 'NVDA', '--source', `files:${dir}`, '--json']);
    expect(r.code, r.stderr).toBe(0);
    // Issue 39.5: the REST analysis data (was a `source` block with epoch-ms times).
    const out = JSON.parse(r.stdout) as { venue: string; asset: { id: string }; as_of: string };
    expect(out).toMatchObject({ venue: 'files', asset: { id: 'stock-nvda' } });
    expect(new Date(out.as_of).getUTCFullYear()).toBe(2014);
    const missing = marketlens(['analyze', 'bitcoin', '--source', `files:${dir}`]);
    expect(missing.code).not.toBe(0);
  });

  it.skipIf(!sharedDataDir)(
    `analyses closed weeks only from a daily file cut on a Monday, at the stock tick, and names a file it skips (skips when ${sharedDataSkipReason})`,
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'marketlens-cli-files-'));
      mkdirSync(join(dir, 'stock-nvda'));
      const lines = readFileSync(join(sharedDataDir ?? '', 'nvda-1999-2014-d1.csv'), 'utf8')
        .trim()
        .split('\n');
      const cut = lines.filter((l, i) => i === 0 || l.slice(0, 10) <= '2008-09-15');
      writeFileSync(join(dir, 'stock-nvda', 'd1.csv'), `${cut.join('\n')}\n`);
      mkdirSync(join(dir, 'crypto-pair'));
      symlinkSync(join(sharedDataDir ?? '', 'crypto-pair-m1.json'), join(dir, 'crypto-pair', 'm5.json'));
      const r = marketlens(['analyze', 'stock-nvda', '--source', `files:${dir}`, '--tf', 'w1', '--json']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/crypto-pair\/m5\.json is not served: its candles are 1 minute apart \(measured\)/);
      // Issue 39.5: the REST analysis data, times as ISO date-times (were epoch ms).
      const out = JSON.parse(r.stdout) as { as_of: string };
      // The one-day week of Monday 2008-09-15 is still forming: the last closed week opened 09-08.
      expect(out.as_of).toBe(new Date(Date.UTC(2008, 8, 8)).toISOString());
      const text = marketlens(['analyze', 'stock-nvda', '--source', `files:${dir}`, '--tf', 'w1']);
      expect(text.code, text.stderr).toBe(0);
      // The week's close, 10.19 on Friday 09-12, at the stock tick of 0.01.
      expect(text.stdout).toContain('The price is 10.19,');
    },
  );
});
