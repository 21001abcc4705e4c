import { InputError } from '@marketlens/core';
import { CandleFileError, VenueError } from '@marketlens/exchanges';

/** Exit codes of the command line (documented in the README). */
export const EXIT = {
  ok: 0,
  /** Something failed at run time: a network fault, a venue down, a write that failed. */
  failure: 1,
  /** The command line itself is wrong: unknown command or option, a bad value. */
  usage: 2,
  /** The data is wrong: an unknown asset, an unreadable candle file, too few candles. */
  data: 3,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** An error the command line reports: a stable `code` for scripts, an exit code, a message for people. */
export class CliError extends Error {
  override readonly name = 'CliError';
  readonly code: string;
  readonly exitCode: ExitCode;
  /** The command whose help the message should point to, for usage errors. */
  readonly command: string | undefined;

  constructor(exitCode: ExitCode, code: string, message: string, command?: string) {
    super(message);
    this.exitCode = exitCode;
    this.code = code;
    this.command = command;
  }
}

/** A usage error (exit 2). */
export function usageError(message: string, command?: string, code = 'usage'): CliError {
  return new CliError(EXIT.usage, code, message, command);
}

/** A data error (exit 3). */
export function dataError(code: string, message: string): CliError {
  return new CliError(EXIT.data, code, message);
}

const DATA_VENUE_CODES: ReadonlySet<string> = new Set(['unknown_asset', 'unknown_market', 'bad_request']);

/** Maps any thrown value to the CLI's error: library errors keep their stable codes. */
export function toCliError(err: unknown): CliError {
  if (err instanceof CliError) return err;
  if (err instanceof CandleFileError) return new CliError(EXIT.data, `file_${err.code}`, err.message);
  if (err instanceof VenueError) {
    const venue = err.venue === undefined ? '' : ` (${err.venue})`;
    return new CliError(
      DATA_VENUE_CODES.has(err.code) ? EXIT.data : EXIT.failure,
      `venue_${err.code}`,
      `${err.message}${venue}`,
    );
  }
  if (err instanceof InputError) return new CliError(EXIT.data, `input_${err.code}`, err.message);
  if (isErrno(err) && (err.code === 'ENOENT' || err.code === 'EISDIR' || err.code === 'EACCES'))
    return new CliError(EXIT.data, 'file_unreadable', err.message);
  return new CliError(EXIT.failure, 'failure', err instanceof Error ? err.message : String(err));
}

function isErrno(err: unknown): err is NodeJS.ErrnoException {
  return err instanceof Error && typeof (err as NodeJS.ErrnoException).code === 'string';
}
