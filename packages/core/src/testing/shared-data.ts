import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Candles } from '../types.js';

/** A real market series from `../shared/data`. */
export interface SharedSeries {
  name: string;
  candles: Candles;
}

function findSharedData(): string | undefined {
  const override = process.env.MARKETLENS_SHARED_DATA;
  if (override) return existsSync(override) ? override : undefined;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 8; i++) {
    if (existsSync(join(dir, 'pnpm-workspace.yaml'))) {
      const candidate = resolve(dir, '..', 'shared', 'data');
      return existsSync(candidate) ? candidate : undefined;
    }
    dir = dirname(dir);
  }
  return undefined;
}

/** Where the shared data lives, or undefined when this checkout has no `../shared`. */
export const sharedDataDir = findSharedData();

/** Why the data-backed tests skip, printed once as the test name. */
export const sharedDataSkipReason = 'real series in ../shared/data are absent (a user clone); CI always has them';

function columns(rows: number[][]): Candles {
  const n = rows.length;
  const c: Candles = {
    time: new Float64Array(n),
    open: new Float64Array(n),
    high: new Float64Array(n),
    low: new Float64Array(n),
    close: new Float64Array(n),
    volume: new Float64Array(n),
  };
  for (let i = 0; i < n; i++) {
    const r = rows[i];
    c.time[i] = r[0];
    c.open[i] = r[1];
    c.high[i] = r[2];
    c.low[i] = r[3];
    c.close[i] = r[4];
    c.volume[i] = r[5];
  }
  return c;
}

function readYahoo(file: string): Candles {
  const lines = readFileSync(file, 'utf8').trim().split('\n').slice(1);
  const rows: number[][] = [];
  for (const line of lines) {
    const [date, o, h, l, c, , v] = line.split(',');
    rows.push([Date.parse(`${date}T00:00:00Z`), +o, +h, +l, +c, +v]);
  }
  return columns(rows);
}

function readIndex(file: string): Candles {
  const lines = readFileSync(file, 'utf8').trim().split('\n').slice(1);
  const rows: number[][] = [];
  for (const line of lines) {
    const [date, time, o, h, l, c, v] = line.split(',');
    rows.push([Date.parse(`${date}T${time}Z`), +o, +h, +l, +c, +v]);
  }
  return columns(rows);
}

function readCcxt(file: string): Candles {
  return columns(JSON.parse(readFileSync(file, 'utf8')) as number[][]);
}

let cache: SharedSeries[] | undefined;

/** Every real series, or an empty list when the shared data is absent. */
export function loadSharedSeries(): SharedSeries[] {
  if (!sharedDataDir) return [];
  if (cache) return cache;
  const d = sharedDataDir;
  cache = [
    { name: 'nvda-d1', candles: readYahoo(join(d, 'nvda-1999-2014-d1.csv')) },
    { name: 'orcl-d1', candles: readYahoo(join(d, 'orcl-1995-2014-d1.csv')) },
    { name: 'index-m5', candles: readIndex(join(d, 'index-2006-m5.csv')) },
    { name: 'crypto-m1', candles: readCcxt(join(d, 'crypto-pair-m1.json')) },
    { name: 'xrp-perp-h1', candles: readCcxt(join(d, 'xrp-usdt-perp-h1.json')) },
  ];
  return cache;
}
