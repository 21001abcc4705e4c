import { createReadStream } from 'node:fs';
import { extname } from 'node:path';
import type { Candles } from '@marketlens/core';
import { CandleBuilder, type TimeUnit } from './builder.js';
import { type CsvFormat, type CsvMapping, readCsv, readCsvWithCsvParse } from './csv.js';
import { CandleFileError } from './errors.js';
import { readOhlcvJson } from './json.js';

/** File formats: Yahoo CSV, Binance kline CSV, generic CSV with a header, ccxt OHLCV JSON. */
export type CandleFileFormat = CsvFormat | 'ccxt-json';

/** Options of {@link importCandleFile} and {@link importCandleStream}. */
export interface CandleImportOptions {
  /** Default `auto`: JSON by extension or a leading `[`, else the CSV layout from its first line. */
  format?: CandleFileFormat | 'auto';
  /** Column names of a generic CSV; detected from common names (time/date, open, high, ...) when absent. */
  mapping?: CsvMapping;
  /** Unit of numeric timestamps; default `auto` (by magnitude, per value: s, ms or µs). */
  timeUnit?: TimeUnit;
  /** CSV field delimiter; detected when absent. */
  delimiter?: string;
  /** Skip CSV rows whose prices are `null`/empty (Yahoo's missing days) instead of failing. Default true. */
  skipNullRows?: boolean;
  /** Refuse files with more rows than this (memory bound). Default 20,000,000. */
  maxRows?: number;
  /** CSV engine: `fast` (default, line splitter + csv-parse for quoted records) or `csv-parse` streaming. */
  engine?: 'fast' | 'csv-parse';
}

/** An imported file. */
export interface CandleImport {
  candles: Candles;
  format: CandleFileFormat;
  /** Candle rows read. */
  rows: number;
  /** Rows skipped as null (see `skipNullRows`), and the first 1,000 of their line numbers. */
  skipped: number;
  skippedLines: number[];
  /** True when the file was newest first (the candles are returned oldest first). */
  reversed: boolean;
}

const DEFAULT_MAX_ROWS = 20_000_000;
const CHUNK = 1 << 20;

/**
 * Imports a candle file, streaming: the text is read in 1 MiB chunks and never held whole, so
 * memory is the output columns. Every error is a {@link CandleFileError} with the line it is on.
 * @example
 * ```ts
 * import { mkdtemp, rm, writeFile } from 'node:fs/promises';
 * import { tmpdir } from 'node:os';
 * import { join } from 'node:path';
 * import { importCandleFile } from '@marketlens/exchanges';
 *
 * // A generic CSV, newest first; Yahoo, Binance klines and ccxt JSON files read alike
 * const dir = await mkdtemp(join(tmpdir(), 'candles-'));
 * const path = join(dir, 'prices.csv');
 * await writeFile(
 *   path,
 *   ['time,open,high,low,close,volume', '2025-01-02,101,104,100,103,1200', '2025-01-01,100,102,99,101,1000'].join('\n'),
 * );
 * const file = await importCandleFile(path);
 * console.log(file.format, file.rows, file.reversed, Array.from(file.candles.close)); // generic 2 true [ 101, 103 ]
 * await rm(dir, { recursive: true });
 * ```
 */
export async function importCandleFile(path: string, options: CandleImportOptions = {}): Promise<CandleImport> {
  try {
    return await importPath(path, options);
  } catch (error) {
    throw fileSystemError(error, path) ?? error;
  }
}

/**
 * A Node system error (missing file, no permission, a directory, ...) as a {@link CandleFileError}
 * about the file as a whole; undefined for anything else.
 */
function fileSystemError(error: unknown, path: string): CandleFileError | undefined {
  if (!(error instanceof Error) || !('syscall' in error) || !('code' in error) || typeof error.code !== 'string') {
    return undefined;
  }
  if (error.code === 'ENOENT') return new CandleFileError('not_found', 0, `no such file: ${path}`, undefined, error);
  return new CandleFileError('unreadable', 0, `cannot read ${path} (${error.code})`, undefined, error);
}

async function importPath(path: string, options: CandleImportOptions): Promise<CandleImport> {
  let format = options.format ?? 'auto';
  if (format === 'auto' && extname(path).toLowerCase() === '.json') format = 'ccxt-json';
  if (options.engine === 'csv-parse' && format !== 'ccxt-json') {
    const builder = new CandleBuilder(options.maxRows ?? DEFAULT_MAX_ROWS);
    const summary = await readCsvWithCsvParse(createReadStream(path, { highWaterMark: CHUNK }), builder, {
      format,
      mapping: options.mapping,
      timeUnit: options.timeUnit ?? 'auto',
      delimiter: options.delimiter,
      skipNullRows: options.skipNullRows ?? true,
    });
    const { candles, reversed } = builder.finish();
    return { candles, rows: candles.time.length, reversed, ...summary };
  }
  return importCandleStream(createReadStream(path, { encoding: 'utf8', highWaterMark: CHUNK }), { ...options, format });
}

/** Imports candles from text chunks (a file stream with utf8 encoding, an upload, ...). */
export async function importCandleStream(
  chunks: AsyncIterable<string | Uint8Array>,
  options: CandleImportOptions = {},
): Promise<CandleImport> {
  const builder = new CandleBuilder(options.maxRows ?? DEFAULT_MAX_ROWS);
  const timeUnit = options.timeUnit ?? 'auto';
  const text = decode(chunks);
  let format = options.format ?? 'auto';
  let source: AsyncIterable<string> = text;
  if (format === 'auto') {
    const peeked = await peek(text);
    source = peeked.rest;
    format = peeked.head.trimStart().startsWith('[') ? 'ccxt-json' : 'auto';
  }
  if (format === 'ccxt-json') {
    await readOhlcvJson(source, builder, timeUnit);
    const { candles, reversed } = builder.finish();
    return { candles, format, rows: candles.time.length, skipped: 0, skippedLines: [], reversed };
  }
  const summary = await readCsv(source, builder, {
    format,
    mapping: options.mapping,
    timeUnit,
    delimiter: options.delimiter,
    skipNullRows: options.skipNullRows ?? true,
  });
  const { candles, reversed } = builder.finish();
  return { candles, rows: candles.time.length, reversed, ...summary };
}

async function* decode(chunks: AsyncIterable<string | Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8', { fatal: false });
  for await (const chunk of chunks) {
    yield typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
  }
  const tail = decoder.decode();
  if (tail !== '') yield tail;
}

/** Reads the first non-empty chunk and returns it with an iterable that replays it. */
async function peek(source: AsyncIterable<string>): Promise<{ head: string; rest: AsyncIterable<string> }> {
  const it = source[Symbol.asyncIterator]();
  let head = '';
  const buffered: string[] = [];
  while (head.trim() === '') {
    const next = await it.next();
    if (next.done) break;
    buffered.push(next.value);
    head += next.value;
  }
  if (buffered.length === 0) throw new CandleFileError('empty', 0, 'the file is empty');
  async function* rest(): AsyncGenerator<string> {
    yield* buffered;
    for (let next = await it.next(); !next.done; next = await it.next()) yield next.value;
  }
  return { head, rest: rest() };
}
