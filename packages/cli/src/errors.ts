import { InputError } from '@marketlens/core';
import { CandleFileError, VenueError } from '@marketlens/exchanges';
import { AppError, type ErrorCode, fromVenueError } from '@marketlens/server';

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

/**
 * An error the command line reports: a stable `code` for scripts, an exit code, a message for
 * people. A failure REST also answers carries REST's code (the contract's `ERROR_CODES`:
 * `UnknownAsset`, `InvalidRequest`, `ServiceUnavailable`, ...); codes in lower case are the command
 * line's own (`usage`, `file_<code>`, `write_failed`, ...), for what no REST route is asked.
 */
export class CliError extends Error {
  override readonly name = 'CliError';
  readonly code: string | ErrorCode;
  readonly exitCode: ExitCode;
  /** The command whose help the message should point to, for usage errors. */
  readonly command: string | undefined;

  constructor(exitCode: ExitCode, code: string | ErrorCode, message: string, command?: string) {
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

/**
 * The exit code of a REST refusal: a bad value is a usage error (2), any other refusal of the
 * request (unknown asset or market, a stablecoin) a data error (3), the service or a source
 * failing a runtime failure (1).
 */
function exitOf(err: AppError): ExitCode {
  if (err.status === 400 && err.code === 'InvalidRequest') return EXIT.usage;
  return err.status < 500 ? EXIT.data : EXIT.failure;
}

/**
 * Maps any thrown value to the CLI's error: a refusal of the server's use cases keeps its REST code,
 * a venue failure gets the code REST gives it (`UnknownAsset`, `UnknownMarket`, `SourceUnavailable`,
 * `ServiceUnavailable`, else `GeneralError`), file and core input errors keep their stable codes.
 */
export function toCliError(err: unknown): CliError {
  if (err instanceof CliError) return err;
  const translated = fromVenueError(err);
  if (translated instanceof AppError) return new CliError(exitOf(translated), translated.code, translated.message);
  if (err instanceof VenueError) {
    // A venue failure REST does not name (it answers 500 `GeneralError`): the venue's message kept.
    return new CliError(
      EXIT.failure,
      'GeneralError',
      `${err.message}${err.venue === undefined ? '' : ` (${err.venue})`}`,
    );
  }
  if (err instanceof CandleFileError) return new CliError(EXIT.data, `file_${err.code}`, err.message);
  if (err instanceof InputError) return new CliError(EXIT.data, `input_${err.code}`, err.message);
  if (isErrno(err) && (err.code === 'ENOENT' || err.code === 'EISDIR' || err.code === 'EACCES'))
    return new CliError(EXIT.data, 'file_unreadable', err.message);
  return new CliError(EXIT.failure, 'failure', err instanceof Error ? err.message : String(err));
}

function isErrno(err: unknown): err is NodeJS.ErrnoException {
  return err instanceof Error && typeof (err as NodeJS.ErrnoException).code === 'string';
}
