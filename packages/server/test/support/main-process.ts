/**
 * The built server (`dist/main.js`) as a child process, started as an operator would: a config file
 * and an environment. For end-to-end tests of the configuration, sources and production mode.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built server main. */
export const MAIN = resolve(dirname(fileURLToPath(import.meta.url)), '../../dist/main.js');

/** A running server main. */
export interface Running {
  child: ChildProcess;
  url: string;
  /** The demo user's session token; empty in production (no demo user) and with JSON logs (never logged). */
  token: string;
  /** The temporary folder of its config file and data folder (`data/`). */
  dir: string;
  /** Everything it printed so far, stdout and stderr. */
  output: () => string;
}

/**
 * Starts the server main with `config` as its config file (a data folder in a temporary folder,
 * port 0, no news, no pilot unless the config says) and `env` as its whole environment (PATH
 * aside); resolves once it prints its URL.
 */
export async function startMain(config: Record<string, unknown>, env: NodeJS.ProcessEnv = {}): Promise<Running> {
  const dir = mkdtempSync(join(tmpdir(), 'marketlens-main-'));
  const file = join(dir, 'marketlens.json');
  writeFileSync(file, JSON.stringify({ dataDir: join(dir, 'data'), port: 0, newsFeeds: [], pilot: 'off', ...config }));
  const child = spawn(process.execPath, [MAIN], {
    env: { PATH: process.env.PATH, MARKETLENS_CONFIG: file, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const url = /listening on (http:\/\/[^\s"]+)/.exec(out)?.[1];
    const token = /session token:\s+(\S+)/.exec(out)?.[1];
    const production = /\(production\)/.test(out);
    // JSON logs: the banner is one line, without the demo credentials.
    const json = /"msg":"marketlens server listening on /.test(out);
    if (url !== undefined && (token !== undefined || production || json)) {
      return { child, url, token: token ?? '', dir, output: () => out };
    }
    if (child.exitCode !== null) throw new Error(`the server exited: ${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill();
  throw new Error(`the server did not start: ${out}`);
}

/** Runs the server main to its exit (a start that must fail); resolves with its code and output. */
export function runMain(env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [MAIN], {
      env: { PATH: process.env.PATH, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (d: Buffer) => {
      output += d.toString();
    });
    child.stderr?.on('data', (d: Buffer) => {
      output += d.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      done({ code, output });
    });
  });
}

/** Sends SIGTERM and resolves with the exit code once the process is gone. */
export function stop(r: Running | undefined): Promise<number | null> {
  if (r === undefined || r.child.exitCode !== null) return Promise.resolve(r?.child.exitCode ?? null);
  return new Promise((done) => {
    r.child.once('exit', (code) => done(code));
    r.child.kill('SIGTERM');
  });
}
