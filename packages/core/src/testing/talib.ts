import { createRequire } from 'node:module';

interface TalibResult {
  begIndex: number;
  nbElement: number;
  result: Record<string, number[]>;
  error?: string;
}

interface Talib {
  execute(params: Record<string, unknown>): TalibResult;
}

const require = createRequire(import.meta.url);
const lib = require('talib') as Talib;

/** Inputs of a TA-Lib call; typed arrays are converted to plain arrays (talib needs them). */
export interface TalibInputs {
  inReal?: ArrayLike<number>;
  open?: ArrayLike<number>;
  high?: ArrayLike<number>;
  low?: ArrayLike<number>;
  close?: ArrayLike<number>;
  volume?: ArrayLike<number>;
}

/**
 * Runs a TA-Lib function (the independent reference) and returns every output aligned to the
 * input: same length, NaN before TA-Lib's `begIndex`.
 */
export function talib(
  name: string,
  inputs: TalibInputs,
  options: Record<string, number> = {},
): Record<string, Float64Array> {
  const params: Record<string, unknown> = { name, startIdx: 0 };
  let n = 0;
  for (const [k, v] of Object.entries(inputs)) {
    if (!v) continue;
    params[k] = Array.from(v);
    n = v.length;
  }
  params.endIdx = n - 1;
  Object.assign(params, options);
  const r = lib.execute(params);
  if (r.error) throw new Error(`talib ${name}: ${r.error}`);
  const out: Record<string, Float64Array> = {};
  for (const [k, vals] of Object.entries(r.result)) {
    const col = new Float64Array(n).fill(Number.NaN);
    for (let i = 0; i < r.nbElement; i++) col[r.begIndex + i] = vals[i];
    out[k] = col;
  }
  return out;
}
