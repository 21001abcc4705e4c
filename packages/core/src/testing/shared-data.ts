import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Candles } from '../types.js';

/** A real market series from `../shared/data`. */
export interface SharedSeries {
  name: string;
  candles: Candles;
}

/**
 * True when the tests run under CI (`CI` set, and not `0` or `false`, as every CI service and
 * `.ci/run` set it). There every prerequisite of a test is installed, so a missing one is an error
 * of the CI set-up, never a reason to skip.
 */
export const underCI = !['', '0', 'false'].includes((process.env.CI ?? '').toLowerCase());

/**
 * Whether the tests that need `what` skip: false when it is there. A user's clone may lack it and
 * skips them; under CI a missing prerequisite throws, so the test file fails at import with `hint`
 * (how to provide it) instead of passing with tests quietly skipped.
 */
export function skipWithout(present: boolean, what: string, hint: string): boolean {
  if (present) return false;
  if (underCI) throw new Error(`Under CI no test skips for a missing prerequisite, and ${what} is missing. ${hint}`);
  return true;
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

/**
 * Where the shared data lives, or undefined when this checkout has no `../shared` (a user's
 * clone: the data-backed tests skip). Under CI its absence fails every test file that imports this
 * module, at import.
 */
export const sharedDataDir = findSharedData();
skipWithout(
  sharedDataDir !== undefined,
  'the real series in ../shared/data',
  'CI clones the repository with ../shared beside it (or set MARKETLENS_SHARED_DATA to the data folder).',
);

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
