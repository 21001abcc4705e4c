import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Candles } from '@marketlens/core';
import { afterAll, describe, expect, it } from 'vitest';
import { sharedDataDir, sharedDataSkipReason } from '../../../core/src/testing/shared-data.js';
import { CandleFileError } from './errors.js';
import { type CandleImportOptions, importCandleFile, importCandleStream } from './import.js';

const dir = mkdtempSync(join(tmpdir(), 'marketlens-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let counter = 0;
function file(text: string, ext = '.csv'): string {
  const path = join(dir, `f${counter++}${ext}`);
  writeFileSync(path, text);
  return path;
}

async function failure(path: string, options?: CandleImportOptions): Promise<CandleFileError> {
  try {
    await importCandleFile(path, options);
  } catch (e) {
    if (e instanceof CandleFileError) return e;
    throw e;
  }
  throw new Error('expected a CandleFileError');
}

async function* chunked(text: string, size: number): AsyncGenerator<string> {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}

/** An independent reader of each shared file (whole-file split, as core's test helper does). */
function reference(path: string, kind: 'yahoo' | 'index' | 'json'): Candles {
  const text = readFileSync(path, 'utf8');
  const rows: number[][] =
    kind === 'json'
      ? (JSON.parse(text) as number[][])
      : text
          .trim()
          .split('\n')
          .slice(1)
          .map((line) => {
            const f = line.split(',');
            return kind === 'yahoo'
              ? [Date.parse(`${f[0]}T00:00:00Z`), +f[1], +f[2], +f[3], +f[4], +f[6]]
              : [Date.parse(`${f[0]}T${f[1]}Z`), +f[2], +f[3], +f[4], +f[5], +f[6]];
          });
  const col = (k: number) => Float64Array.from(rows, (r) => r[k]);
  return { time: col(0), open: col(1), high: col(2), low: col(3), close: col(4), volume: col(5) };
}

const sharedFiles: Record<string, ['yahoo' | 'index' | 'json', string]> = {
  'nvda-1999-2014-d1.csv': ['yahoo', 'yahoo'],
  'orcl-1995-2014-d1.csv': ['yahoo', 'yahoo'],
  'index-2006-m5.csv': ['index', 'generic'],
  'crypto-pair-m1.json': ['json', 'ccxt-json'],
  'xrp-usdt-perp-h1.json': ['json', 'ccxt-json'],
};

describe('candle files: the shared data', () => {
  it.skipIf(!sharedDataDir)(`imports every file in shared/data (skips when ${sharedDataSkipReason})`, async () => {
    const d = sharedDataDir ?? '';
    const files = readdirSync(d).filter((f) => f.endsWith('.csv') || f.endsWith('.json'));
    expect(files.sort()).toEqual(Object.keys(sharedFiles).sort());
    for (const name of files) {
      const [kind, format] = sharedFiles[name];
      const expected = reference(join(d, name), kind);
      for (const engine of ['fast', 'csv-parse'] as const) {
        const got = await importCandleFile(join(d, name), { engine });
        expect(got.format, name).toBe(format);
        expect(got.skipped, name).toBe(0);
        expect(got.candles, `${name} ${engine}`).toEqual(expected);
      }
    }
  });
});

describe('candle files: formats', () => {
  it('reads Yahoo CSV, skipping null rows with their line numbers', async () => {
    const got = await importCandleFile(
      file(
        'Date,Open,High,Low,Close,Adj Close,Volume\r\n2020-01-02,10,11,9,10.5,10.4,100\r\n2020-01-03,null,null,null,null,null,null\r\n2020-01-06,10.5,12,10,11,10.9,200\r\n',
      ),
    );
    expect(got.format).toBe('yahoo');
    expect(Array.from(got.candles.time)).toEqual([Date.UTC(2020, 0, 2), Date.UTC(2020, 0, 6)]);
    expect(Array.from(got.candles.close)).toEqual([10.5, 11]);
    expect(got.skipped).toBe(1);
    expect(got.skippedLines).toEqual([3]);
  });

  it('reads Binance kline exports without a header, in ms or µs', async () => {
    const rows = [
      '1704067200000,42283.58,42554.57,42261.02,42475.23,1271.68108,1704070799999,53957248.9,47134,682.5,28957416.8,0',
      '1704070800000000,42475.23,42775.00,42431.65,42613.56,1196.37856,1704074399999999,50953215.2,43966,627.3,26716003.0,0',
    ];
    const got = await importCandleFile(file(`${rows.join('\n')}\n`));
    expect(got.format).toBe('binance');
    expect(Array.from(got.candles.time)).toEqual([1704067200000, 1704070800000]);
    expect(got.candles.volume[1]).toBe(1196.37856);
  });

  it('reads Binance futures exports with their header', async () => {
    const text =
      'open_time,open,high,low,close,volume,close_time,quote_volume,count,taker_buy_volume,taker_buy_quote_volume,ignore\n1704067200000,1,2,0.5,1.5,10,1704070799999,15,3,5,7,0\n';
    const got = await importCandleFile(file(text));
    expect(got.format).toBe('binance');
    expect(got.rows).toBe(1);
  });

  it('reads a generic CSV by a header mapping, semicolons, quotes and a BOM', async () => {
    const text =
      '\uFEFF"When";"Px open";"Px high";"Px low";"Px close";"Qty"\n"2021-03-04T10:00:00+02:00";"1,5";2;1;1.5;3\n';
    const err = await failure(file(text), {
      mapping: { time: 'When', open: 'Px open', high: 'Px high', low: 'Px low', close: 'Px close', volume: 'Qty' },
    });
    // "1,5" is a decimal comma: not a number, and the error says where.
    expect(err).toMatchObject({ code: 'bad_value', line: 2, column: 'open' });
    const ok = text.replace('"1,5"', '1.5');
    const got = await importCandleFile(file(ok), {
      mapping: { time: 'When', open: 'Px open', high: 'Px high', low: 'Px low', close: 'Px close', volume: 'Qty' },
    });
    expect(got.format).toBe('generic');
    expect(got.candles.time[0]).toBe(Date.UTC(2021, 2, 4, 8));
  });

  it('detects common column names and a quoted field spanning lines', async () => {
    const text = 'timestamp,o,h,l,c,v,note\n1600000000,1,2,0.5,1.5,10,"two\nlines"\n1600000060,1.5,2,1,1.8,4,plain\n';
    const got = await importCandleFile(file(text));
    expect(Array.from(got.candles.time)).toEqual([1600000000000, 1600000060000]);
  });

  it('reverses a newest-first file', async () => {
    const got = await importCandleFile(
      file('time,open,high,low,close,volume\n3000000000000,2,2,2,2,1\n2000000000000,1,1,1,1,1\n'),
    );
    expect(got.reversed).toBe(true);
    expect(Array.from(got.candles.open)).toEqual([1, 2]);
  });

  it('reads ccxt JSON from any chunking, with null volume as 0', async () => {
    const text = '[\n  [1609459200000, 1, 2, 0.5, 1.5, 10],\n  [1609459260000, 1.5, 2, 1, 1.8, null]\n]\n';
    for (const size of [1, 3, 7, 1000]) {
      const got = await importCandleStream(chunked(text, size));
      expect(got.format).toBe('ccxt-json');
      expect(Array.from(got.candles.volume)).toEqual([10, 0]);
    }
    const csv = 'time,open,high,low,close\n2020-01-01 00:00,1,1,1,1\n2020-01-01 00:05,1,1,1,1\n';
    for (const size of [1, 5, 1000]) {
      const got = await importCandleStream(chunked(csv, size));
      expect(got.rows).toBe(2);
      expect(got.candles.time[1]).toBe(Date.UTC(2020, 0, 1, 0, 5));
    }
  });
});

describe('candle files: errors carry line numbers', () => {
  const header = 'time,open,high,low,close,volume\n';
  const row = (t: number, p = '1') => `${t},${p},${p},${p},${p},1\n`;
  const cases: ReadonlyArray<[string, string, string, Partial<CandleFileError>]> = [
    ['bad number', header + row(1e12) + row(2e12, 'x'), '.csv', { code: 'bad_value', line: 3, column: 'open' }],
    ['negative price', header + row(1e12) + row(2e12) + row(3e12, '-1'), '.csv', { code: 'bad_value', line: 4 }],
    ['bad time', `${header}${row(1e12)}yesterday,1,1,1,1,1\n`, '.csv', { code: 'bad_time', line: 3 }],
    ['duplicate time', header + row(1e12) + row(1e12), '.csv', { code: 'out_of_order', line: 3 }],
    ['unsorted', header + row(1e12) + row(3e12) + row(2e12), '.csv', { code: 'out_of_order', line: 4 }],
    ['short row', `${header + row(1e12)}2000000000000,1,1\n`, '.csv', { code: 'bad_row', line: 3 }],
    ['no close column', 'time,open,high,low,volume\n1,1,1,1,1\n', '.csv', { code: 'bad_header', line: 1 }],
    ['header only', header, '.csv', { code: 'empty' }],
    ['empty', '', '.csv', { code: 'empty', line: 0 }],
    ['unclosed quote', `${header + row(1e12)}"2000000000000,1,1,1,1,1\n`, '.csv', { code: 'bad_row', line: 3 }],
    [
      'json string value',
      '[\n[1,1,1,1,1,1],\n[2,1,"x",1,1,1]\n]',
      '.json',
      { code: 'bad_value', line: 3, column: 'high' },
    ],
    [
      'json bad number',
      '[\n[1,1,1,1,1,1],\n\n[2,1,1e,1,1,1]\n]',
      '.json',
      { code: 'bad_value', line: 4, column: 'high' },
    ],
    ['json short row', '[[1,1,1,1,1,1],\n[2,1,1]]', '.json', { code: 'bad_row', line: 2 }],
    ['json not closed', '[[1,1,1,1,1,1],\n[2,1,1,1,1,1]', '.json', { code: 'bad_json', line: 2 }],
    ['json object', '{"a": 1}', '.json', { code: 'bad_json', line: 1 }],
    [
      'json out of order',
      '[[2000000000000,1,1,1,1,1],\n[1000000000000,1,1,1,1,1],\n[3000000000000,1,1,1,1,1]]',
      '.json',
      { code: 'out_of_order', line: 3 },
    ],
  ];
  it.each(cases)('%s', async (_name, text, ext, expected) => {
    const err = await failure(file(text, ext));
    expect(err).toMatchObject(expected);
    if (expected.line !== undefined && expected.line > 0)
      expect(err.message).toMatch(new RegExp(`^line ${expected.line}\\b`));
  });

  it('the csv-parse engine reports the same lines', async () => {
    for (const [, text, ext, expected] of cases) {
      if (ext !== '.csv' || expected.code === 'empty' || expected.code === 'bad_row') continue;
      const err = await failure(file(text, ext), { engine: 'csv-parse' });
      expect(err).toMatchObject(expected);
    }
  });

  it('bounds the number of rows', async () => {
    const text = header + row(1e12) + row(2e12) + row(3e12);
    const err = await failure(file(text), { maxRows: 2 });
    expect(err.code).toBe('too_large');
  });
});

describe('candle files: the file itself', () => {
  it.each([
    ['fast', undefined],
    ['csv-parse', 'csv-parse'],
    ['json', undefined],
  ] as const)('a missing file is not_found, with the system error as its cause (%s)', async (name, engine) => {
    const path = join(dir, `missing-${name}${name === 'json' ? '.json' : '.csv'}`);
    const err = await failure(path, { engine });
    expect(err).toMatchObject({ code: 'not_found', line: 0, name: 'CandleFileError' });
    expect(err.message).toContain(path);
    expect(err.cause).toMatchObject({ code: 'ENOENT' });
  });

  it('a directory is unreadable', async () => {
    const err = await failure(dir);
    expect(err).toMatchObject({ code: 'unreadable', line: 0 });
    expect(err.cause).toMatchObject({ code: 'EISDIR' });
  });
});
