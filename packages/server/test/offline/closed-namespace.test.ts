/**
 * The embedded default (the built server main with no configuration, as `pnpm start` runs it) in
 * a closed network namespace: `unshare -rn` with only loopback up, so nothing outside can be
 * reached, and a guard in the server process (offline-guard.mjs) that records every connect or
 * name lookup aimed past loopback, so even an attempt that would fail quietly is seen. Every
 * operation of the OpenAPI document the server serves is called (driver.mjs builds the requests
 * from the document alone: a route added to the document is covered without touching this test),
 * and none may answer 5xx, fail to answer, or try the network. Its in-process neighbour is
 * src/market/offline.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { skipWithout } from '../../../core/src/testing/shared-data.js';
import { MAIN } from '../support/main-process.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const DRIVER = join(HERE, 'driver.mjs');
const GUARD = join(HERE, 'offline-guard.mjs');

/** Runs `command` in a new user and network namespace with loopback up. */
function closed(command: string, env: NodeJS.ProcessEnv = {}) {
  return spawnSync('unshare', ['-rn', 'sh', '-c', `ip link set lo up && exec ${command}`], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
    timeout: 240_000,
    maxBuffer: 64 * 1024 * 1024,
  });
}

const namespaces = spawnSync('unshare', ['-rn', 'sh', '-c', 'ip link set lo up'], { encoding: 'utf8' }).status === 0;
const skip =
  skipWithout(
    namespaces,
    'a closed network namespace (`unshare -rn` and `ip`)',
    'Install util-linux and iproute2, and allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1).',
  ) || skipWithout(existsSync(MAIN), 'the built server (packages/server/dist/main.js)', 'Run `pnpm build`.');

interface Answer {
  operation: string;
  method: string;
  path: string;
  status: number;
  code: number | string | null;
}

describe.skipIf(skip)('the embedded default in a closed network namespace', () => {
  it('the guard sees an attempt to reach outside, also one that fails (the reach of the check)', () => {
    const log = join(mkdtempSync(join(tmpdir(), 'marketlens-guard-')), 'attempts.log');
    const script = `fetch('http://203.0.113.9:81/').catch(() => {}).finally(() => import('node:dns').then((d) => d.promises.lookup('example.com').catch(() => {})))`;
    const r = closed(`"${process.execPath}" --import "${GUARD}" -e "${script}"`, { OFFLINE_GUARD_LOG: log });
    expect(r.status, r.stderr).toBe(0);
    expect(readFileSync(log, 'utf8').split('\n').filter(Boolean)).toEqual([
      'connect 203.0.113.9:81',
      'lookup example.com',
    ]);
  });

  it('answers every documented operation without a 5xx and without trying the network', () => {
    const r = closed(`"${process.execPath}" "${DRIVER}"`);
    expect(r.status, r.stderr).toBe(0);
    const result = JSON.parse(r.stdout) as {
      operations: string[];
      venues: string[];
      answers: Answer[];
      attempts: string[];
    };
    // The document is the list: dozens of operations, and each one was called.
    expect(result.operations.length).toBeGreaterThan(50);
    expect(new Set(result.answers.map((a) => a.operation))).toEqual(new Set(result.operations));
    // The catalog's real venues were asked for too (the GET /v1/exchanges/binance).
    expect(result.venues).toContain('binance');
    expect(result.answers.map((a) => a.path)).toContain('/v1/exchanges/binance');
    const failed = result.answers.filter((a) => a.status === 0 || a.status >= 500);
    expect(failed).toEqual([]);
    // Requests reached their handlers: most answers are successes, none was throttled.
    expect(result.answers.filter((a) => a.status === 429)).toEqual([]);
    expect(result.answers.filter((a) => a.status < 300).length).toBeGreaterThan(result.answers.length / 2);
    expect(result.attempts).toEqual([]);
  }, 240_000);
});
