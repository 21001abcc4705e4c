/** Stable codes of {@link CandleFileError}. */
export type CandleFileErrorCode =
  /** No file at the path. */
  | 'not_found'
  /** The file exists but cannot be read (permissions, a directory, an I/O error). */
  | 'unreadable'
  | 'empty'
  | 'unknown_format'
  | 'bad_header'
  | 'bad_row'
  | 'bad_value'
  | 'bad_time'
  | 'out_of_order'
  | 'bad_json'
  | 'too_large';

/**
 * The error a candle file import throws: a stable `code`, the 1-based `line` of the file it
 * happened on (the header is line 1 of a CSV), the column when one is at fault, and a message
 * that names both for a human.
 */
export class CandleFileError extends Error {
  override readonly name = 'CandleFileError';
  readonly code: CandleFileErrorCode;
  /** 1-based line of the file; 0 when the error is about the file as a whole. */
  readonly line: number;
  readonly column: string | undefined;

  constructor(code: CandleFileErrorCode, line: number, message: string, column?: string, cause?: unknown) {
    super(
      line > 0 ? `line ${line}${column === undefined ? '' : `, column ${column}`}: ${message}` : message,
      cause === undefined ? undefined : { cause },
    );
    this.code = code;
    this.line = line;
    this.column = column;
  }
}
