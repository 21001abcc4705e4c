import { type CandleBuilder, epochToMs, type TimeUnit } from './builder.js';
import { CandleFileError } from './errors.js';

const MAX_TOKEN = 64;
const FIELDS = ['time', 'open', 'high', 'low', 'close', 'volume'] as const;

/**
 * Streams a ccxt-style OHLCV JSON array, `[[ms, open, high, low, close, volume], ...]`, into
 * `builder` without holding the text: a small state machine over the chunks that counts lines,
 * so a malformed value is reported with its line. Extra fields after the sixth are ignored; a
 * `null` volume reads as 0 (ccxt leaves it null where a venue does not report it).
 */
export async function readOhlcvJson(
  chunks: AsyncIterable<string>,
  builder: CandleBuilder,
  timeUnit: TimeUnit,
): Promise<void> {
  // depth 0: before the outer '['; 1: inside the outer array; 2: inside a row.
  let depth = 0;
  let line = 1;
  let token = '';
  let tokenLine = 1;
  let field = 0;
  let rowLine = 1;
  let done = false;
  /** After a value or a closing bracket a comma or a closing bracket must follow. */
  let expectSeparator = false;
  const row = new Float64Array(6);

  const fail = (at: number, message: string): never => {
    throw new CandleFileError('bad_json', at, message);
  };

  const endToken = (): void => {
    if (token === '') return;
    if (depth !== 2) fail(tokenLine, `unexpected '${token}' outside a candle array`);
    let v: number;
    if (token === 'null') {
      if (field !== 5) fail(tokenLine, `${FIELDS[field] ?? 'a field'} is null`);
      v = 0;
    } else {
      v = Number(token);
      if (!Number.isFinite(v) || !/^-?\d/.test(token)) {
        throw new CandleFileError('bad_value', tokenLine, `'${token}' is not a number`, FIELDS[field]);
      }
    }
    if (field < 6) row[field] = v;
    field++;
    token = '';
    expectSeparator = true;
  };

  for await (const chunk of chunks) {
    for (let i = 0; i < chunk.length; i++) {
      const ch = chunk.charCodeAt(i);
      if (ch === 10) {
        endToken();
        line++;
        continue;
      }
      if (ch === 32 || ch === 9 || ch === 13 || (ch === 0xfeff && line === 1)) {
        endToken();
        continue;
      }
      if (done) fail(line, 'text after the end of the array');
      if (ch === 91) {
        // '['
        if (expectSeparator) fail(line, "missing ',' before '['");
        if (depth === 0) depth = 1;
        else if (depth === 1) {
          depth = 2;
          field = 0;
          rowLine = line;
        } else fail(line, 'arrays nested deeper than [[time, open, high, low, close, volume], ...]');
        continue;
      }
      if (ch === 93) {
        // ']'
        endToken();
        if (depth === 2) {
          if (field < 5) {
            throw new CandleFileError(
              'bad_row',
              rowLine,
              `a candle has ${field} fields; [time, open, high, low, close, volume] needs 5 or 6`,
            );
          }
          if (field === 5) row[5] = 0;
          builder.push(rowLine, epochToMs(row[0], timeUnit), row[1], row[2], row[3], row[4], row[5]);
          depth = 1;
          expectSeparator = true;
        } else if (depth === 1) {
          depth = 0;
          done = true;
        } else fail(line, "unexpected ']'");
        continue;
      }
      if (ch === 44) {
        // ','
        endToken();
        if (!expectSeparator) fail(line, "unexpected ','");
        expectSeparator = false;
        continue;
      }
      if (depth === 0)
        fail(line, ch === 123 ? 'expected an array of candles, found an object' : 'expected [ at the start');
      if (depth === 1) fail(line, 'expected a candle array [time, open, high, low, close, volume]');
      if (token === '') {
        if (expectSeparator) fail(line, "missing ',' between values");
        tokenLine = line;
      }
      token += chunk[i];
      if (token.length > MAX_TOKEN) fail(tokenLine, 'a value longer than 64 characters');
    }
  }
  endToken();
  if (!done) {
    if (depth === 0 && builder.length === 0) throw new CandleFileError('empty', 0, 'the file is empty');
    fail(line, 'the array is not closed');
  }
  if (builder.length === 0) throw new CandleFileError('empty', line, 'the array holds no candles');
}
