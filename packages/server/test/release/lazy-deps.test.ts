/**
 * An instance loads the client libraries of optional infrastructure only when it uses it: the
 * built server main on the embedded default (SQLite, no Redis, no SMTP) starts, answers, and never
 * loads BullMQ, ioredis or nodemailer, which cost a third of a start's module loading. A module
 * resolve hook in the child records every package the process loads; the storage's query builder
 * being among them shows the hook saw the start.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { skipWithout } from '../../../core/src/testing/shared-data.js';
import { MAIN, type Running, startMain, stop } from '../support/main-process.js';

const unbuilt = skipWithout(existsSync(MAIN), 'the built server (packages/server/dist/main.js)', 'Run `pnpm build`.');

/** Writes a `--import` module that appends each bare specifier the process resolves to `log`. */
function resolveRecorder(dir: string, log: string): string {
  const hooks = join(dir, 'hooks.mjs');
  writeFileSync(
    hooks,
    `import { appendFileSync } from 'node:fs';
let file;
export function initialize(data) { file = data.log; }
export async function resolve(specifier, context, next) {
  if (!/^(node:|file:|data:|\\.|\\/)/.test(specifier)) appendFileSync(file, specifier + '\\n');
  return next(specifier, context);
}
`,
  );
  const entry = join(dir, 'register.mjs');
  writeFileSync(
    entry,
    `import { register } from 'node:module';
register(${JSON.stringify(pathToFileURL(hooks).href)}, { data: { log: ${JSON.stringify(log)} } });
`,
  );
  return entry;
}

describe.skipIf(unbuilt)('optional infrastructure is loaded when used', () => {
  let running: Running | undefined;

  afterAll(async () => {
    await stop(running);
  });

  it('an embedded instance starts and answers without loading BullMQ, ioredis or nodemailer', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'marketlens-lazy-'));
    const log = join(dir, 'resolved.txt');
    writeFileSync(log, '');
    running = await startMain({}, { NODE_OPTIONS: `--import ${pathToFileURL(resolveRecorder(dir, log)).href}` });
    const res = await fetch(`${running.url}/v2/config`);
    expect(res.status).toBe(200);
    await stop(running);
    const packages = new Set(
      readFileSync(log, 'utf8')
        .split('\n')
        .filter((s) => s !== '')
        .map((s) => (s.startsWith('@') ? s.split('/').slice(0, 2).join('/') : s.split('/')[0])),
    );
    // The hook saw the start: the server's own dependencies are there.
    expect(packages).toContain('kysely');
    expect(packages).toContain('hono');
    for (const optional of ['bullmq', 'ioredis', 'nodemailer']) expect(packages, optional).not.toContain(optional);
  });
});
