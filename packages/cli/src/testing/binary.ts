import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PACKAGE_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const BINARY = join(PACKAGE_DIR, 'dist/main.js');

/** The simulated venue's clock in tests: every run sees the same candles. */
export const FIXED_NOW = '2025-06-01T00:00:00Z';

/** Builds dist/main.js when it is missing (a fresh checkout). */
export function ensureBuilt(): void {
  if (!existsSync(BINARY)) execFileSync('npx', ['tsup'], { cwd: PACKAGE_DIR, stdio: 'ignore' });
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built binary as a user would, with a pinned clock and without colour variables. */
export function marketlens(args: readonly string[], env: NodeJS.ProcessEnv = {}, cwd?: string): RunResult {
  const { NO_COLOR: _noColor, FORCE_COLOR: _force, ...base } = process.env;
  const r = spawnSync(process.execPath, [BINARY, ...args], {
    encoding: 'utf8',
    env: { ...base, MARKETLENS_NOW: FIXED_NOW, ...env },
    cwd,
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
