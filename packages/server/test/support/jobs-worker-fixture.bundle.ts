/**
 * Test support: bundles jobs-worker-fixture.ts (no TypeScript runner is installed) and starts it
 * as child processes, collecting what each prints.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../..', import.meta.url));

/** A worker process and the lines it printed, by their first word (`STARTED`, `DONE`, `SYNC`, `PAGE`). */
export interface JobsWorkerProcess {
  child: ChildProcess;
  /** The rest of each line, per first word, in order. */
  lines: Map<string, string[]>;
  /** Lines with `word`. */
  said(word: string): string[];
  /** What it wrote to stderr so far. */
  stderr(): string;
  exited: Promise<void>;
}

/** The bundled fixture: `file` to run with node, `remove` when done. */
export function bundleJobsWorker(): { file: string; remove: () => void } {
  // In the server's node_modules, so bullmq, ioredis and better-sqlite3 (external) resolve from there.
  const dir = join(ROOT, 'packages/server/node_modules/.cache', `marketlens-jobs-${process.pid}-${Date.now()}`);
  const file = join(dir, 'worker.mjs');
  mkdirSync(dir, { recursive: true });
  execFileSync(
    join(ROOT, 'packages/server/node_modules/.bin/esbuild'),
    [
      'packages/server/test/support/jobs-worker-fixture.ts',
      '--bundle',
      '--platform=node',
      '--format=esm',
      '--target=node20',
      '--log-level=error',
      `--outfile=${file}`,
      '--external:bullmq',
      '--external:ioredis',
      '--external:better-sqlite3',
      '--external:ccxt',
      '--alias:@marketlens/exchanges=./packages/exchanges/src/index.ts',
      '--alias:@marketlens/core=./packages/core/src/index.ts',
      '--alias:@marketlens/mcp=./packages/mcp/src/index.ts',
      "--banner:js=import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
    ],
    { cwd: ROOT, stdio: 'pipe' },
  );
  return { file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Starts the bundled fixture `file` with `env`; resolves once it printed READY. */
export function startJobsWorker(file: string, env: Record<string, string>): Promise<JobsWorkerProcess> {
  const child = spawn(process.execPath, [file], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines = new Map<string, string[]>();
  let err = '';
  const proc: JobsWorkerProcess = {
    child,
    lines,
    said: (word) => lines.get(word) ?? [],
    stderr: () => err,
    exited: new Promise((resolve) => child.once('exit', () => resolve())),
  };
  return new Promise((resolve, reject) => {
    let buffered = '';
    child.stderr?.on('data', (d: Buffer) => {
      err += d.toString();
    });
    child.stdout?.on('data', (d: Buffer) => {
      buffered += d.toString();
      const parts = buffered.split('\n');
      buffered = parts.pop() ?? '';
      for (const line of parts) {
        const space = line.indexOf(' ');
        const word = space < 0 ? line : line.slice(0, space);
        if (word === 'READY') resolve(proc);
        const list = lines.get(word) ?? [];
        list.push(space < 0 ? '' : line.slice(space + 1));
        lines.set(word, list);
      }
    });
    child.once('exit', (code) => reject(new Error(`worker exited (${code}) before it was ready: ${err}`)));
  });
}
