import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { importCandleStream, TIMEFRAME_MS, TIMEFRAMES, type Timeframe } from '@marketlens/exchanges';
import { type Command, JSON_OPTION } from '../args.js';
import { dataError } from '../errors.js';
import type { Io } from '../io.js';
import { price, table, utc } from '../output/format.js';
import { printJson } from '../output/json.js';
import { progress } from '../output/progress.js';
import { styleFor } from '../output/style.js';

/** Summary of an imported candle file (the `--json` payload of `import`). */
export interface ImportSummary {
  file: string;
  format: string;
  rows: number;
  skipped: number;
  skipped_lines: number[];
  reversed: boolean;
  first_time: number;
  last_time: number;
  /** Median spacing of the candles in ms. */
  interval_ms: number | null;
  /** The timeframe whose length equals the median spacing, or null. */
  timeframe: Timeframe | null;
  /** Spacings longer than 1.5 times the median (weekends, halts, missing data). */
  gaps: number;
  low: number;
  high: number;
  last_close: number;
}

async function* counted(path: string, onBytes: (n: number) => void): AsyncGenerator<Uint8Array> {
  let n = 0;
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) {
    const bytes = chunk as Buffer;
    n += bytes.length;
    onBytes(n);
    yield bytes;
  }
}

/** Reads a candle file with a progress bar (by bytes) and summarises it. */
export async function importSummary(file: string, io: Io): Promise<ImportSummary> {
  const size = (await stat(file)).size;
  const bar = progress(io, 'importing', size);
  const imported = await importCandleStream(
    counted(file, (n) => bar.update(n)),
    extname(file).toLowerCase() === '.json' ? { format: 'ccxt-json' } : {},
  ).finally(() => bar.done());
  const c = imported.candles;
  const n = c.time.length;
  if (n === 0) throw dataError('file_empty', `${file} holds no candles`);
  const spacings: number[] = [];
  for (let i = 1; i < n; i++) spacings.push(c.time[i] - c.time[i - 1]);
  spacings.sort((x, y) => x - y);
  const interval = spacings.length === 0 ? null : spacings[Math.floor(spacings.length / 2)];
  let gaps = 0;
  let low = Number.POSITIVE_INFINITY;
  let high = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < n; i++) {
    if (i > 0 && interval !== null && c.time[i] - c.time[i - 1] > 1.5 * interval) gaps++;
    low = Math.min(low, c.low[i]);
    high = Math.max(high, c.high[i]);
  }
  return {
    file,
    format: imported.format,
    rows: imported.rows,
    skipped: imported.skipped,
    skipped_lines: imported.skippedLines,
    reversed: imported.reversed,
    first_time: c.time[0],
    last_time: c.time[n - 1],
    interval_ms: interval,
    timeframe: TIMEFRAMES.find((tf) => TIMEFRAME_MS[tf] === interval) ?? null,
    gaps,
    low,
    high,
    last_close: c.close[n - 1],
  };
}

export const importCommand: Command = {
  spec: {
    name: 'import',
    summary: 'read a candle file (Yahoo, Binance or generic CSV, ccxt JSON) and summarise it',
    args: '<file>',
    minArgs: 1,
    maxArgs: 1,
    options: { json: JSON_OPTION },
    examples: [
      'marketlens import prices.csv',
      'marketlens import btc-1h.json --json',
      'marketlens analyze --file prices.csv',
    ],
    notes: ['A file that imports cleanly can be given to any data command with --file.'],
  },
  async run(args, io) {
    const s = await importSummary(args.positionals[0], io);
    if (args.flag('json')) {
      printJson(io, 'import', { ...s });
      return;
    }
    const style = styleFor(io);
    const rows = [
      ['format', s.format],
      ['candles', String(s.rows)],
      ['from', `${utc(s.first_time)} UTC`],
      ['to', `${utc(s.last_time)} UTC`],
      ['spacing', s.timeframe ?? (s.interval_ms === null ? 'n/a' : `${s.interval_ms / 1000} s`)],
      ['gaps', String(s.gaps)],
      ['range', `${price(s.low)} - ${price(s.high)}`],
      ['last close', price(s.last_close)],
      [
        'skipped rows',
        s.skipped === 0
          ? '0'
          : `${s.skipped} (lines ${s.skipped_lines.slice(0, 5).join(', ')}${s.skipped > 5 ? ', ...' : ''})`,
      ],
      ['order', s.reversed ? 'newest first (reversed)' : 'oldest first'],
    ];
    io.stdout(`${style.bold('marketlens import')}: ${s.file}\n${table(rows)}`);
  },
};
