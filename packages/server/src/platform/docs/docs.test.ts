import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithout } from '../../../../core/src/testing/shared-data.js';
import { registeredOperations } from '../../../test/support/operations.js';
import { OPENAPI_PATH, SERVICE_VERSION } from '../../app.js';
import { type RunningServer, startServer } from '../../server.js';
import { DEFAULT_CONFIG } from '../deps.js';

/** The lookup .ci/run uses too: `chromium` or `chromium-browser` on the PATH, else /usr/bin/chromium. */
function findChromium(): string | undefined {
  for (const name of ['chromium', 'chromium-browser']) {
    const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim();
    if (found !== '') return found;
  }
  return existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined;
}
const CHROMIUM = findChromium();
const run = promisify(execFile);

let server: RunningServer;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'ml-docs-'));
  server = await startServer({ port: 0, host: '127.0.0.1', dataDir, config: DEFAULT_CONFIG });
});

afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('OpenAPI document', () => {
  it('is OpenAPI 3.1 with the service version, per-operation security and the release feed', async () => {
    const doc = (await (await fetch(`${server.url}${OPENAPI_PATH}`)).json()) as {
      openapi: string;
      info: { version: string; description: string; 'x-release-feed': string };
      paths: Record<string, Record<string, { security?: unknown[] }>>;
      components: { securitySchemes: Record<string, { name: string }> };
    };
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe(SERVICE_VERSION);
    expect(doc.info.description).toContain('/releases.atom');
    expect(doc.components.securitySchemes.session.name).toBe('x-session-token');
    expect(doc.components.securitySchemes.api_key.name).toBe('x-api-key');
    expect(doc.paths['/v2/config'].get.security).toEqual([{ session: [] }, { api_key: [] }, {}]);
    expect(doc.paths['/v1/users/api_keys'].get.security).toEqual([{ session: [] }]);
  });

  it('lints clean with @redocly/cli', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ml-lint-'));
    const file = join(dir, 'openapi.json');
    writeFileSync(file, await (await fetch(`${server.url}${OPENAPI_PATH}`)).text());
    // The contract's paths keep their trailing slash (`GET /v2/assets/`): clients call them so.
    writeFileSync(
      join(dir, 'redocly.yaml'),
      'extends:\n  - recommended\nrules:\n  no-path-trailing-slash: off\n  operation-tag-defined: error\n',
    );
    const require = createRequire(import.meta.url);
    const cli = join(dirname(require.resolve('@redocly/cli/package.json')), 'bin', 'cli.js');
    const env = {
      ...process.env,
      REDOCLY_TELEMETRY: 'off',
      REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
      NO_UPDATE_NOTIFIER: '1',
    };
    const { stdout, stderr } = await run(process.execPath, [cli, 'lint', file, '--format=stylish'], { env, cwd: dir });
    const out = `${stdout}\n${stderr}`;
    expect(out).toMatch(/Your API description is valid/);
    expect(out).not.toMatch(/You have \d+ warning|\d+ errors?\b/);
    rmSync(dir, { recursive: true, force: true });
  }, 120_000);
});

const noChromium = skipWithout(CHROMIUM !== undefined, 'Chromium', 'Install it: apt-get install -y chromium.');

describe.skipIf(noChromium)('/docs in headless Chromium (skips without Chromium: apt-get install -y chromium)', () => {
  it('renders every operation from local assets', async () => {
    // A fresh profile each run; Playwright passes it as --user-data-dir.
    const profile = mkdtempSync(join(tmpdir(), 'ml-chromium-'));
    const browser = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    try {
      const page = await browser.newPage();
      const offsite: string[] = [];
      page.on('request', (r) => {
        if (!r.url().startsWith(server.url) && !r.url().startsWith('data:')) offsite.push(r.url());
      });
      await page.goto(`${server.url}/docs`);
      await page.waitForSelector('.opblock', { timeout: 30_000 });
      const paths = await page.$$eval('.opblock-summary-path', (els) => els.map((e) => e.getAttribute('data-path')));
      const ops = registeredOperations(server.app);
      for (const op of ops) expect(paths).toContain(op.path);
      expect(await page.textContent('.info .title')).toContain('marketlens');
      expect(offsite).toEqual([]);
    } finally {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    }
  }, 90_000);
});
