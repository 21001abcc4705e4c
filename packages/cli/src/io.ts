/** Where a command writes, and what it knows about the terminal. Tests build their own. */
export interface Io {
  /** Writes text to stdout as is. */
  stdout(text: string): void;
  /** Writes text to stderr as is. */
  stderr(text: string): void;
  /** stdout is a terminal. */
  readonly stdoutTty: boolean;
  /** stderr is a terminal (progress bars go there). */
  readonly stderrTty: boolean;
  /** Width of the terminal, 80 when unknown. */
  readonly columns: number;
  readonly env: NodeJS.ProcessEnv;
}

/** NO_COLOR (https://no-color.org): present and not empty disables colour. */
export function noColor(env: NodeJS.ProcessEnv): boolean {
  return env.NO_COLOR !== undefined && env.NO_COLOR !== '';
}

/** The process's own streams. */
export function processIo(): Io {
  return {
    stdout: (text) => {
      process.stdout.write(text);
    },
    stderr: (text) => {
      process.stderr.write(text);
    },
    stdoutTty: process.stdout.isTTY === true,
    stderrTty: process.stderr.isTTY === true,
    columns: process.stdout.columns || process.stderr.columns || 80,
    env: process.env,
  };
}
