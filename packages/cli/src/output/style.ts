import { type Io, noColor } from '../io.js';

/** ANSI styles; every one is the identity when colour is off. */
export interface Style {
  readonly enabled: boolean;
  bold(s: string): string;
  dim(s: string): string;
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
  blue(s: string): string;
  cyan(s: string): string;
  magenta(s: string): string;
}

const code =
  (open: number, close: number) =>
  (s: string): string =>
    `\u001b[${open}m${s}\u001b[${close}m`;

const identity = (s: string): string => s;

/** Colour only on a terminal and never with NO_COLOR. */
export function styleFor(io: Io, stream: 'stdout' | 'stderr' = 'stdout'): Style {
  const tty = stream === 'stdout' ? io.stdoutTty : io.stderrTty;
  if (!tty || noColor(io.env)) {
    return {
      enabled: false,
      bold: identity,
      dim: identity,
      red: identity,
      green: identity,
      yellow: identity,
      blue: identity,
      cyan: identity,
      magenta: identity,
    };
  }
  return {
    enabled: true,
    bold: code(1, 22),
    dim: code(2, 22),
    red: code(31, 39),
    green: code(32, 39),
    yellow: code(33, 39),
    blue: code(34, 39),
    cyan: code(36, 39),
    magenta: code(35, 39),
  };
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching ANSI escapes is the point
const ANSI = /\u001b\[[0-9;]*m/g;

/** Text without ANSI escapes. */
export function stripAnsi(s: string): string {
  return s.replace(ANSI, '');
}

/** Columns the text takes on a terminal (escapes excluded; every code point one column). */
export function visibleWidth(s: string): number {
  return [...stripAnsi(s)].length;
}
