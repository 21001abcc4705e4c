/**
 * The web app end to end in Chromium (Debian's, driven by playwright-core) against the built server
 * main on the embedded default, started once for the suite: sign up, open bitcoin, switch
 * timeframe, the zones drawn, favorite, an alert, an API key, keyboard navigation, axe, screenshots
 * against references, an ended session, and the page surviving a server restart.
 * Skips without Chromium locally; under CI it fails (skipWithout).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createECDH, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ServiceTrackRecord } from '@marketlens/contract';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithout } from '../../core/src/testing/shared-data.js';
import { noticeOf } from '../../server/src/alerts/push/notices.js';
import { startFakeGcm } from '../test/fake-gcm.js';
import { en } from './i18n/en.js';
import { es } from './i18n/es.js';
import { PUSH_SUBSCRIBE_TIMEOUT_MS } from './push.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const MAIN = resolve(HERE, '../../server/dist/main.js');
const SHOTS = join(HERE, '__screenshots__');
const README_SHOT = resolve(HERE, '../../../docs/app-asset-page.png');
const UPDATE = process.env.MARKETLENS_UPDATE_SCREENSHOTS === '1';
/** How long a page may take to show what a step waits for (vitest's default of 1 s is too short on a loaded machine). */
const POLL = { timeout: 20_000 };

/** The lookup .ci/run uses too: `chromium` or `chromium-browser` on the PATH, else /usr/bin/chromium. */
function findChromium(): string | undefined {
  for (const name of ['chromium', 'chromium-browser']) {
    const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim();
    if (found !== '') return found;
  }
  return existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined;
}
const CHROMIUM = findChromium();
const noChromium = skipWithout(CHROMIUM !== undefined, 'Chromium', 'Install it: apt-get install -y chromium.');

/** The built server main as a child process on `port` (0: any) over the data folder of `dir`. */
async function startServer(dir: string, port: number): Promise<{ child: ChildProcess; url: string }> {
  const file = join(dir, 'marketlens.json');
  writeFileSync(file, JSON.stringify({ dataDir: join(dir, 'data'), port, newsFeeds: [], pilot: 'off' }));
  const child = spawn(process.execPath, [MAIN], {
    env: { PATH: process.env.PATH, MARKETLENS_CONFIG: file },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
    if (url !== undefined) {
      // The app's address is the banner's first line (log lines of jobs may come between).
      expect(out.split('\n').find((l) => l.startsWith('marketlens '))).toBe(`marketlens app:  ${url}/app`);
      return { child, url };
    }
    if (child.exitCode !== null) throw new Error(`the server exited: ${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill();
  throw new Error(`the server did not start: ${out}`);
}

function stopServer(child: ChildProcess): Promise<void> {
  return new Promise((done) => {
    if (child.exitCode !== null) return done();
    child.once('exit', () => done());
    child.kill('SIGTERM');
  });
}

/**
 * Compares a screenshot with its reference inside the browser (canvas pixels): the share of
 * pixels whose channels differ by more than 32 of 255. Same size required.
 */
async function pixelDiff(page: Page, actual: Buffer, reference: Buffer): Promise<number> {
  return page.evaluate(
    async ([a, b]) => {
      const load = async (b64: string) => createImageBitmap(await (await fetch(`data:image/png;base64,${b64}`)).blob());
      const [x, y] = [await load(a), await load(b)];
      if (x.width !== y.width || x.height !== y.height) return 1;
      const pixels = (img: ImageBitmap) => {
        const canvas = new OffscreenCanvas(img.width, img.height);
        const ctx = canvas.getContext('2d');
        if (ctx === null) throw new Error('no 2d context');
        ctx.drawImage(img, 0, 0);
        return ctx.getImageData(0, 0, img.width, img.height).data;
      };
      const [p, q] = [pixels(x), pixels(y)];
      let differ = 0;
      for (let i = 0; i < p.length; i += 4) {
        if (Math.abs(p[i] - q[i]) > 32 || Math.abs(p[i + 1] - q[i + 1]) > 32 || Math.abs(p[i + 2] - q[i + 2]) > 32)
          differ++;
      }
      return differ / (p.length / 4);
    },
    [actual.toString('base64'), reference.toString('base64')] as const,
  );
}

/** Checks a screenshot against its checked-in reference (or writes it with MARKETLENS_UPDATE_SCREENSHOTS=1). */
async function matchesReference(page: Page, name: string, shot: Buffer): Promise<void> {
  const file = join(SHOTS, `${name}.png`);
  if (UPDATE) {
    mkdirSync(SHOTS, { recursive: true });
    writeFileSync(file, shot);
    return;
  }
  expect(existsSync(file), `${file} is missing: run with MARKETLENS_UPDATE_SCREENSHOTS=1 once`).toBe(true);
  // Up to 1 % of the pixels may differ (font hinting, antialiasing); a moved or missing element is far more.
  // Compared on a blank page: the app's own CSP (rightly) refuses the data: URLs the comparison loads.
  const blank = await page.context().newPage();
  try {
    expect(await pixelDiff(blank, shot, readFileSync(file))).toBeLessThan(0.01);
  } finally {
    await blank.close();
  }
}

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Serious and critical axe violations of the page as it is. */
async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run(ctx: Document): Promise<{
            passes: unknown[];
            violations: { id: string; impact: string | null; nodes: unknown[] }[];
          }>;
        };
      }
    ).axe;
    const result = await axe.run(document);
    // A run that checked nothing would pass anything: the page must have met rules it satisfies.
    if (result.passes.length < 10) return [`axe checked only ${result.passes.length} rules`];
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}, ${v.nodes.length} nodes)`);
  });
}

/** The launch options every Chromium of the suite uses (a fresh profile each). */
function launchOptions(locale: string, extraArgs: string[] = []) {
  return {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1280, height: 860 },
    deviceScaleFactor: 1,
    locale,
    timezoneId: 'UTC',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--font-render-hinting=none',
      ...extraArgs,
    ],
  };
}

/** Records the `applicationServerKey` of every `PushManager.subscribe` call (base64url), then makes the real call. */
function spyOnSubscribe(): void {
  const w = window as unknown as { pushKeys: string[] };
  w.pushKeys = [];
  const original = PushManager.prototype.subscribe;
  PushManager.prototype.subscribe = function (this: PushManager, options?: PushSubscriptionOptionsInit) {
    const key = options?.applicationServerKey;
    const bytes =
      key instanceof ArrayBuffer
        ? new Uint8Array(key)
        : ArrayBuffer.isView(key)
          ? new Uint8Array(key.buffer, key.byteOffset, key.byteLength)
          : null;
    w.pushKeys.push(
      bytes === null
        ? String(key)
        : btoa(String.fromCharCode(...bytes))
            .replace(/\+/g, '-')
            .replace(/\//g, '_')
            .replace(/=+$/, ''),
    );
    return original.call(this, options);
  };
}

/** Waits for the asset page's chart; fails with the page's message when one is shown instead. */
async function chartReady(page: Page): Promise<void> {
  await page
    .waitForSelector('.chart-slot[data-ready="true"], [data-testid="asset-message"][data-code]')
    .catch(async (err: unknown) => {
      throw new Error(
        `${String(err)}\npage: ${page.url()}\n${(await page.locator('main').innerHTML()).slice(0, 1500)}`,
      );
    });
  const code = await page.getByTestId('asset-message').getAttribute('data-code');
  if (code !== null)
    throw new Error(`the asset page shows ${code}: ${await page.getByTestId('asset-message').textContent()}`);
}

describe.skipIf(noChromium)(
  'the web app in headless Chromium (skips without Chromium: apt-get install -y chromium)',
  () => {
    let dir: string;
    let server: { child: ChildProcess; url: string };
    let profile: string | undefined;
    let context: BrowserContext;
    let page: Page;
    const pageErrors: string[] = [];
    const consoleErrors: string[] = [];
    const offsite: string[] = [];

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'ml-web-'));
      server = await startServer(dir, 0);
      const made = mkdtempSync(join(tmpdir(), 'ml-chromium-'));
      profile = made;
      context = await chromium.launchPersistentContext(made, launchOptions('en-US'));
      page = context.pages()[0] ?? (await context.newPage());
      page.setDefaultTimeout(20_000);
      page.on('pageerror', (e) => pageErrors.push(e.message));
      page.on('console', (m) => {
        // Chromium logs every 4xx/5xx answer and refused connection as "Failed to load resource": the
        // network log, not the page's script; those answers are asserted on as messages in the page.
        if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) consoleErrors.push(m.text());
      });
      page.on('request', (r) => {
        const u = r.url();
        if (!u.startsWith(server.url) && !u.startsWith('data:')) offsite.push(u);
      });
    }, 120_000);

    afterAll(async () => {
      await context?.close();
      if (server !== undefined) await stopServer(server.child);
      if (profile !== undefined) rmSync(profile, { recursive: true, force: true });
      rmSync(dir, { recursive: true, force: true });
    });

    it('serves hashed, compressed, long-cached files under a strict CSP', async () => {
      const response = await page.goto(`${server.url}/app/`);
      expect(response?.status()).toBe(200);
      const headers = response?.headers() ?? {};
      expect(headers['cache-control']).toBe('no-cache');
      expect(headers['content-security-policy']).toContain("script-src 'self'");
      expect(headers['content-security-policy']).not.toContain('unsafe-inline');
      const scripts = await page.$$eval('script[src]', (els) => els.map((e) => (e as HTMLScriptElement).src));
      expect(scripts).toHaveLength(1);
      expect(scripts[0]).toMatch(/\/app\/assets\/index-[\w-]{8,}\.js$/);
      const js = await fetch(scripts[0], { headers: { 'accept-encoding': 'gzip' } });
      expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(js.headers.get('content-encoding')).toBe('gzip');
      // fetch decompresses: the gzipped size is measured on the raw gzip of the same bytes.
      const { gzipSync } = await import('node:zlib');
      const size = gzipSync(Buffer.from(await js.arrayBuffer())).byteLength;
      expect(size).toBeLessThan(150 * 1024);
      const unknown = await fetch(`${server.url}/app/assets/nope.js`);
      expect(unknown.status).toBe(404);
      expect(((await unknown.json()) as { code: string }).code).toBe('NotFound');
    });

    it('signs up with the session in an HttpOnly SameSite=Strict cookie, never in storage', async () => {
      await page.goto(`${server.url}/app/account`);
      const email = `e2e-${randomUUID()}@example.com`;
      const signup = page.getByTestId('signup');
      await signup.getByLabel('Email').fill(email);
      await signup.getByLabel('Password (8 characters or more)').fill('correct horse battery');
      await signup.getByRole('button', { name: 'Sign up' }).click();
      await expect.poll(() => page.getByTestId('me').textContent(), POLL).toContain(email);
      const cookies = await context.cookies(server.url);
      const session = cookies.find((c) => c.name === 'marketlens_session');
      expect(session?.httpOnly).toBe(true);
      expect(session?.sameSite).toBe('Strict');
      expect(await page.evaluate(() => document.cookie)).not.toContain('marketlens_session');
      expect(
        await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage })),
      ).toBe('{}{}');
      // The track record's audit: the live record and the backtest side by side, as the API states them.
      const audit = page.getByTestId('track-audit');
      await expect.poll(() => audit.locator('tbody tr').count(), POLL).toBe(2);
      const record = ((await (await fetch(`${server.url}/v2/track-record`)).json()) as { data: ServiceTrackRecord })
        .data;
      const rows = audit.locator('tbody tr');
      expect(await rows.nth(0).locator('th').textContent()).toBe(en.account.auditLive);
      expect(await rows.nth(0).locator('td').first().textContent()).toBe(String(record.live.stats.count));
      expect(await rows.nth(1).locator('td').first().textContent()).toBe(String(record.backtest.total.count));
      expect(await page.getByTestId('backtest-share').textContent()).toBe(
        record.backtest.status === 'pending'
          ? en.account.backtestPending
          : en.account.backtestShare(record.backtest.calls, record.backtest.analyses),
      );
    });

    it('registers the service worker and asks the push service with the server key; says why there is no subscription', async () => {
      const sw = await fetch(`${server.url}/app/sw.js`);
      expect(sw.status).toBe(200);
      expect(sw.headers.get('content-type')).toMatch(/javascript/);
      expect(sw.headers.get('cache-control')).toBe('no-cache');
      expect(sw.headers.get('content-security-policy')).toContain("worker-src 'self'");
      const push = await context.newPage();
      push.on('pageerror', (e) => pageErrors.push(e.message));
      push.on('console', (m) => {
        if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) consoleErrors.push(m.text());
      });
      try {
        await push.addInitScript(spyOnSubscribe);
        await push.goto(`${server.url}/app/account`);
        const serverKey = await push.evaluate(async () => {
          const r = await fetch('/v1/devices/vapid_public_key');
          return ((await r.json()) as { data: { public_key: string } }).data.public_key;
        });
        expect(serverKey).toMatch(/^[\w-]{80,}$/);
        const status = push.getByTestId('push-status');
        // Notifications not granted (headless Chromium dismisses the prompt): subscribe is refused at once.
        await push.getByTestId('enable-push').click();
        await expect.poll(() => status.getAttribute('data-state'), POLL).toBe('denied');
        expect(await status.textContent()).toBe(en.account.push.denied);
        const registration = await push.evaluate(async () => {
          const r = await navigator.serviceWorker.getRegistration('/app/');
          return r === undefined ? null : { scope: r.scope, script: r.active?.scriptURL ?? null };
        });
        expect(registration).toEqual({ scope: `${server.url}/app/`, script: `${server.url}/app/sw.js` });
        // Granted: Chromium asks its push service (FCM), which this machine cannot reach; no answer comes.
        await context.grantPermissions(['notifications'], { origin: server.url });
        await push.getByTestId('enable-push').click();
        await expect.poll(() => status.textContent(), POLL).toBe(en.account.push.waiting);
        await expect
          .poll(() => status.getAttribute('data-state'), { timeout: PUSH_SUBSCRIBE_TIMEOUT_MS + 15_000 })
          .toBe('timeout');
        expect(await status.textContent()).toBe(en.account.push.timedOut(PUSH_SUBSCRIBE_TIMEOUT_MS / 1000));
        // Both calls carried the server's VAPID key, byte for byte.
        expect(await push.evaluate(() => (window as unknown as { pushKeys: string[] }).pushKeys)).toEqual([
          serverKey,
          serverKey,
        ]);
        // No device was registered by the attempts that got no subscription.
        const devices = await push.evaluate(
          async () => ((await (await fetch('/v1/devices')).json()) as { data: unknown[] }).data,
        );
        expect(devices).toEqual([]);
      } finally {
        await context.clearPermissions();
        await push.close();
      }
    }, 60_000);

    it('gets a real PushSubscription from Chromium through a stand-in push service, which the server registers; the worker shows a pushed alert', async () => {
      const session = (await context.cookies(server.url)).find((c) => c.name === 'marketlens_session');
      expect(session).toBeDefined();
      const gcm = await startFakeGcm();
      const made = mkdtempSync(join(tmpdir(), 'ml-chromium-push-'));
      const browser = await chromium.launchPersistentContext(made, launchOptions('en-US', gcm.switches));
      try {
        if (session !== undefined) await browser.addCookies([session]);
        await browser.grantPermissions(['notifications'], { origin: server.url });
        const p = browser.pages()[0] ?? (await browser.newPage());
        p.on('pageerror', (e) => pageErrors.push(e.message));
        p.on('console', (m) => {
          if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) consoleErrors.push(m.text());
        });
        await p.goto(`${server.url}/app/account`);
        const serverKey = await p.evaluate(async () => {
          const r = await fetch('/v1/devices/vapid_public_key');
          return ((await r.json()) as { data: { public_key: string } }).data.public_key;
        });
        await p.getByTestId('enable-push').click();
        const status = p.getByTestId('push-status');
        await expect.poll(() => status.getAttribute('data-state'), POLL).toBe('on');
        expect(await status.textContent()).toBe(en.account.push.on);
        // Chromium registered with the push service for the server's VAPID key ...
        const registration = gcm.requests.find((r) => r.path === '/register' && r.form.sender === serverKey);
        expect(registration?.form['X-subtype']).toContain(server.url);
        expect(gcm.tokens.length).toBeGreaterThan(0);
        // ... and the page sent the subscription it got to the server, which now lists it as a device.
        const subscription = await p.evaluate(async () => {
          const r = await navigator.serviceWorker.getRegistration('/app/');
          const sub = await r?.pushManager.getSubscription();
          return sub?.toJSON() ?? null;
        });
        expect(subscription?.endpoint).toMatch(/^https:\/\/[\w.-]+\/fcm\/send\//);
        expect(gcm.tokens.some((t) => subscription?.endpoint?.endsWith(`/fcm/send/${t}`))).toBe(true);
        expect(Buffer.from(subscription?.keys?.p256dh ?? '', 'base64url')).toHaveLength(65);
        expect(Buffer.from(subscription?.keys?.auth ?? '', 'base64url')).toHaveLength(16);
        const devices = await p.evaluate(
          async () =>
            ((await (await fetch('/v1/devices')).json()) as { data: { endpoint: string; active: boolean }[] }).data,
        );
        expect(devices.map((d) => [d.endpoint, d.active])).toContainEqual([subscription?.endpoint, true]);

        // A push as the server sends it (its own payload builder), handed to the worker by DevTools
        // (the stand-in does not deliver messages): the alert is shown, tagged by its trigger key.
        const cdp = await browser.newCDPSession(p);
        const registrationId = new Promise<string>((done) => {
          cdp.on(
            'ServiceWorker.workerRegistrationUpdated',
            (e: { registrations: { registrationId: string; scopeURL: string }[] }) => {
              const found = e.registrations.find((r) => r.scopeURL === `${server.url}/app/`);
              if (found !== undefined) done(found.registrationId);
            },
          );
        });
        await cdp.send('ServiceWorker.enable');
        const notice = noticeOf({
          key: 'alert:e2e:1',
          category: 'alert',
          title: 'Bitcoin ↑ 100,000',
          body: 'Bitcoin reached 100,000 (last close 100,512)',
          time: new Date().toISOString(),
          data: { asset_id: 'bitcoin', kind: 'price', target: 100000 },
        });
        const id = await registrationId;
        const shown = () =>
          p.evaluate(async () => {
            const r = await navigator.serviceWorker.getRegistration('/app/');
            const list = (await r?.getNotifications()) ?? [];
            return list.map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data as unknown }));
          });
        // A dispatch made right after DevTools attaches to the worker is sometimes dropped before the
        // worker sees it (3 of 5 runs here, no worker error reported): it is made again until a
        // notification shows, at most five times. The trigger's key is the notification's tag, so a
        // repeat replaces the one shown: exactly one is expected.
        let notifications: Awaited<ReturnType<typeof shown>> = [];
        for (let attempt = 0; attempt < 5 && notifications.length === 0; attempt++) {
          await cdp.send('ServiceWorker.deliverPushMessage', {
            origin: server.url,
            registrationId: id,
            data: notice.payload,
          });
          const until = Date.now() + 3_000;
          while (notifications.length === 0 && Date.now() < until) {
            await new Promise((r) => setTimeout(r, 200));
            notifications = await shown();
          }
        }
        expect(notifications).toEqual([
          {
            title: 'Bitcoin ↑ 100,000',
            body: 'Bitcoin reached 100,000 (last close 100,512)',
            tag: 'alert:e2e:1',
            data: { asset: 'bitcoin' },
          },
        ]);
      } finally {
        await browser.close();
        await gcm.close();
        rmSync(made, { recursive: true, force: true });
      }
    }, 90_000);

    it('draws bitcoin with its zones, switches timeframe and says when one is gated', async () => {
      await page.goto(`${server.url}/app/asset/bitcoin`);
      await chartReady(page);
      expect(await page.locator('h1').textContent()).toContain('Bitcoin');
      const zones = await page.locator('[data-testid="zones"] tbody tr').count();
      expect(zones).toBeGreaterThan(0);
      await expect
        .poll(async () => Number(await page.locator('.chart-slot').getAttribute('data-zones-drawn')))
        .toBeGreaterThan(0);
      expect(await page.getByTestId('signal-action').textContent()).toMatch(/^(BUY|HOLD|SELL)$/);
      // A call shows its probability with the base rate, break-even and expected R; a Hold never
      // shows a confidence in holding, only why there is no trade (issue 40).
      const action = await page.getByTestId('signal-action').getAttribute('data-action');
      const terms = await page.locator('#signal-h ~ dl dt').allTextContents();
      if (action === 'hold') expect(terms).not.toContain('Confidence');
      else {
        expect(terms).toEqual(expect.arrayContaining(['Confidence', 'Base rate', 'Break-even', 'Expected R']));
        expect(await page.getByTestId('signal-expected-r').textContent()).toMatch(
          /^-?\d+\.\d\d R \[-?\d+\.\d\d, -?\d+\.\d\d\]$/,
        );
      }
      // The plan's lines are named in the chart's legend, one entry each (entry, stop, targets):
      // the plan panel's facts are the direction and the same lines.
      const planFacts = await page.locator('#plan-h + dl dt').count();
      expect(await page.locator('[data-testid="plan-legend"] li').count()).toBe(planFacts === 0 ? 0 : planFacts - 1);
      // Hovering a band names the zone with its timeframe and strength: sweep the chart top to bottom.
      const box = await page.locator('.chart').boundingBox();
      expect(box).not.toBeNull();
      let tip = '';
      for (let y = 4; box !== null && y < box.height - 4 && tip === ''; y += 3) {
        await page.mouse.move(box.x + box.width / 2, box.y + y);
        if (await page.locator('.chart-tip').isVisible()) tip = (await page.locator('.chart-tip').textContent()) ?? '';
      }
      expect(tip).toMatch(/^(Support|Resistance) \S+–\S+ · d1 · strength \d\.\d\d · \d+ touches$/);
      await page.mouse.move(0, 0);
      // h1 needs Pro for a free account: the button says so, and the page shows the API's message.
      const h1 = page.locator('button[data-tf="h1"]');
      expect(await h1.textContent()).toBe('h1 · Pro');
      await h1.click();
      await expect.poll(() => page.getByTestId('asset-message').getAttribute('data-code'), POLL).toBe('1004');
      expect(await page.getByTestId('asset-message').textContent()).toContain('needs the Pro plan');
      expect(page.url()).toContain('timeframe=h1');
      await page.locator('button[data-tf="d1"]').click();
      await chartReady(page);
      expect(await page.getByTestId('asset-message').textContent()).toBe('');
    });

    it("writes the narrative in the browser's language among the seven", async () => {
      const german = await context.newPage();
      try {
        await german.addInitScript(() => {
          Object.defineProperty(navigator, 'languages', { get: () => ['de-CH', 'en'] });
        });
        await german.goto(`${server.url}/app/asset/bitcoin`);
        await german.waitForSelector('.narrative p[lang="de"]', { timeout: POLL.timeout });
        expect(await german.evaluate(() => document.documentElement.lang)).toBe('de');
        const text = (await german.locator('.narrative p[lang="de"]').textContent()) ?? '';
        expect(text.length).toBeGreaterThan(40);
      } finally {
        await german.close();
      }
    });

    it('writes the whole page in Spanish for a Spanish browser, with the trader words', async () => {
      const session = (await context.cookies(server.url)).find((c) => c.name === 'marketlens_session');
      expect(session).toBeDefined();
      const made = mkdtempSync(join(tmpdir(), 'ml-chromium-es-'));
      const spanish = await chromium.launchPersistentContext(made, launchOptions('es-ES'));
      try {
        if (session !== undefined) await spanish.addCookies([session]);
        const p = spanish.pages()[0] ?? (await spanish.newPage());
        p.on('pageerror', (e) => pageErrors.push(e.message));
        await p.goto(`${server.url}/app/asset/bitcoin`);
        await chartReady(p);
        await p.waitForSelector('.narrative p[lang="es"]', { timeout: POLL.timeout });
        expect(await p.evaluate(() => document.documentElement.lang)).toBe('es');
        expect(await p.locator('#nav-lists').textContent()).toBe('Listas');
        expect(await p.locator('#nav-account').textContent()).toBe('Cuenta');
        expect(await p.locator('#signal-h').textContent()).toBe('Señal');
        expect(await p.locator('#levels-h').textContent()).toBe('Niveles');
        expect(await p.getByTestId('signal-action').textContent()).toMatch(/^(COMPRAR|MANTENER|VENDER)$/);
        expect(await p.locator('[data-testid="zones"] thead').textContent()).toBe('ZonaRangoFuerza');
        const kinds = await p.locator('[data-testid="zones"] tbody td:first-child').allTextContents();
        expect(new Set(kinds).size).toBeGreaterThan(0);
        for (const k of kinds) expect(['soporte', 'resistencia']).toContain(k);
        // The plan's side in a trader's words, in the panel and in the chart's legend.
        const side = await p
          .locator('#plan-h + dl dd')
          .first()
          .textContent()
          .catch(() => null);
        if (side !== null) {
          expect(['en largo', 'en corto']).toContain(side);
          expect(await p.getByTestId('plan-legend').textContent()).toContain(`Entrada (${side})`);
        }
        expect(await p.locator('button[data-tf="h1"]').getAttribute('title')).toBe('h1 requiere el plan Pro');
        // No English text of the page is left (the narrative is the server's, in Spanish).
        const shown = (await p.locator('body').textContent()) ?? '';
        const english = [en.shell, en.asset, en.chart]
          .flatMap((g) => Object.entries(g))
          .filter(
            ([k, v]) =>
              typeof v === 'string' && v !== ({ ...es.shell, ...es.asset, ...es.chart } as Record<string, unknown>)[k],
          )
          .map(([, v]) => v as string);
        expect(english.length).toBeGreaterThan(20);
        for (const text of english) expect(shown, text).not.toContain(text);
        // A gated timeframe: the API's ErrorResponse after a Spanish sentence.
        await p.locator('button[data-tf="h1"]').click();
        await expect.poll(() => p.getByTestId('asset-message').getAttribute('data-code'), POLL).toBe('1004');
        expect(await p.getByTestId('asset-message').textContent()).toMatch(
          /^La temporalidad h1 requiere el plan Pro\. \(.+\)$/,
        );
        // The account and the lists too.
        await p.goto(`${server.url}/app/account`);
        await p.getByRole('button', { name: 'Cerrar sesión' }).waitFor();
        expect(await p.getByTestId('keys').locator('thead').textContent()).toBe('NombrePrefijoEstadoAcción');
        await p.goto(`${server.url}/app/lists/signals`);
        await p.waitForSelector('[data-testid="signal-list"] tbody tr');
        expect(await p.locator('[data-testid="signal-list"] thead').textContent()).toBe(
          'ActivoAcciónConfianzaTendenciaVariación',
        );
        expect(
          await p.getByRole('form', { name: 'Filtros de la lista de señales' }).locator('.note').textContent(),
        ).toBe('Los filtros requieren el plan Pro.');
        await axeViolations(p).then((v) => expect(v).toEqual([]));
      } finally {
        await spanish.close();
        rmSync(made, { recursive: true, force: true });
      }
    }, 90_000);

    it('writes a stock at its cent tick in the panels and the chart legend', async () => {
      await page.goto(`${server.url}/app/asset/stock-aapl`);
      await chartReady(page);
      await page.waitForSelector('[data-testid="zones"] tbody tr');
      const cents = /^\d{1,3}(,\d{3})*\.\d{2}$/;
      const ranges = await page.locator('[data-testid="zones"] tbody td:nth-child(2)').allTextContents();
      expect(ranges.length).toBeGreaterThan(0);
      for (const r of ranges) for (const p of r.split(' – ')) expect(p).toMatch(cents);
      const planPrices = await page.locator('#plan-h + dl dd').allTextContents();
      for (const text of planPrices.slice(1)) expect(text.split(' · ')[0]).toMatch(cents);
      for (const line of await page.locator('[data-testid="plan-legend"] li').allTextContents()) {
        expect(line).toMatch(/ \d{1,3}(,\d{3})*\.\d{2}( · |$)/);
      }
    });

    it('shows the API message for an unknown asset', async () => {
      await page.goto(`${server.url}/app/asset/no-such-coin-xyz`);
      await expect.poll(() => page.getByTestId('asset-message').getAttribute('data-code'), POLL).toBe('UnknownAsset');
      expect(await page.getByTestId('asset-message').textContent()).toContain("Unknown asset 'no-such-coin-xyz'");
    });

    it('favorites an asset from the list and removes it from the watchlist', async () => {
      await page.goto(`${server.url}/app/lists/assets?q=cardano`);
      const row = page.locator('tr[data-asset="cardano"]');
      await row.getByRole('button', { name: /Add Cardano to the watchlist/ }).click();
      await page.waitForSelector('tr[data-asset="cardano"] button[aria-pressed="true"]');
      await page.goto(`${server.url}/app/lists/watchlist`);
      await page.waitForSelector('tr[data-asset="cardano"]');
      // The three default favorites plus the new one.
      expect(await page.locator('[data-testid="asset-list"] tbody tr').count()).toBe(4);
      await page
        .locator('tr[data-asset="cardano"]')
        .getByRole('button', { name: /Remove Cardano/ })
        .click();
      await expect.poll(() => page.locator('tr[data-asset="cardano"]').count(), POLL).toBe(0);
    });

    it('lists the signals with the paid controls marked Pro, and the screener', async () => {
      await page.goto(`${server.url}/app/lists/signals`);
      await page.waitForSelector('[data-testid="signal-list"] tbody tr');
      expect(await page.locator('[data-testid="signal-list"] tbody tr').count()).toBeGreaterThan(0);
      const controls = page.getByRole('form', { name: 'Signal list controls' });
      // Every paid control is disabled for a free account and says which tier it needs.
      const paid = await controls.locator('label.locked').count();
      expect(paid).toBeGreaterThan(0);
      expect(await controls.locator('label.locked .badge').count()).toBe(paid);
      expect(await controls.locator('label.locked :is(input, select):not([disabled])').count()).toBe(0);
      await page.goto(`${server.url}/app/lists/screener`);
      await expect.poll(() => page.locator('main').textContent(), POLL).toMatch(/assets screened on d1/);
    });

    it('moves through a list with the arrow keys and opens a row with Enter', async () => {
      await page.goto(`${server.url}/app/lists/watchlist`);
      await page.waitForSelector('a.row-link');
      const links = page.locator('a.row-link');
      await links.nth(0).focus();
      await page.keyboard.press('ArrowDown');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(await links.nth(1).textContent());
      await page.keyboard.press('End');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(await links.last().textContent());
      await page.keyboard.press('Home');
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/app\/asset\//);
      await chartReady(page);
    });

    it('creates and deletes an alert, creates and revokes an API key', async () => {
      // A push subscription as a browser's push service would hand it (headless Chromium has none
      // here): registered from the page, with its cookie session, like the app's button does.
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const device = await page.evaluate(
        async ([endpoint, p256dh, auth]) => {
          const r = await fetch('/v1/devices', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ endpoint, keys: { p256dh, auth } }),
          });
          return r.status;
        },
        [
          `https://push.example.net/send/${randomUUID()}`,
          ecdh.getPublicKey().toString('base64url'),
          Buffer.alloc(16, 7).toString('base64url'),
        ] as const,
      );
      expect(device).toBe(200);
      const mark = await page.evaluate(async () => {
        const r = await fetch('/v2/analysis/bitcoin');
        const body = (await r.json()) as { data: { levels: { mark: number } } };
        return body.data.levels.mark;
      });
      await page.goto(`${server.url}/app/account`);
      const alerts = page.getByTestId('alert-form');
      await alerts.getByLabel('Asset id').fill('bitcoin');
      await alerts.getByLabel('Kind').selectOption('price');
      await alerts.getByLabel('Target').fill(String(Math.round(mark * 1.05)));
      await alerts.getByRole('button', { name: 'Create alert' }).click();
      await expect.poll(() => page.locator('[data-testid="alert-list"] li').count(), POLL).toBe(1);
      await page.getByRole('button', { name: /Delete the price alert on bitcoin/ }).click();
      await expect.poll(() => page.locator('[data-testid="alert-list"] li').count(), POLL).toBe(0);

      const keys = page.getByTestId('key-form');
      await keys.getByLabel('Name').fill('e2e key');
      await keys.getByRole('button', { name: 'Create key' }).click();
      await expect.poll(() => page.getByTestId('new-key').textContent(), POLL).toMatch(/shown only now: \S{20,}/);
      const secret = (await page.getByTestId('new-key').textContent())?.split(': ')[1] ?? '';
      const withKey = await fetch(`${server.url}/v2/config`, { headers: { 'x-api-key': secret } });
      expect(withKey.status).toBe(200);
      await page.getByRole('button', { name: 'Revoke key e2e key' }).click();
      await expect
        .poll(() => page.locator('[data-testid="key-list"] tbody tr').first().textContent())
        .toContain('revoked');
      expect((await fetch(`${server.url}/v2/config`, { headers: { 'x-api-key': secret } })).status).toBe(401);
    });

    it('has no serious or critical axe violation on the asset, list and account pages', async () => {
      for (const path of ['/app/asset/bitcoin', '/app/lists/assets', '/app/account']) {
        await page.goto(`${server.url}${path}`);
        await page.waitForLoadState('networkidle');
        if (path.startsWith('/app/asset/')) await chartReady(page);
        expect(await axeViolations(page), path).toEqual([]);
      }
    });

    it('matches the screenshot references (the moving numbers masked)', async () => {
      if (UPDATE) {
        // The README's picture: the asset page as it is, generated here rather than by hand, of the
        // first asset (bitcoin first) whose daily analysis has a plan at this hour of the simulated
        // market, so the picture shows the plan's lines and legend.
        const shown = await page.evaluate(async () => {
          const read = async <T>(path: string) => ((await (await fetch(path)).json()) as { data: T }).data;
          const rows = await read<{ id: string }[]>('/v2/assets/?asset_class=all&limit=500');
          for (const id of ['bitcoin', ...rows.map((r) => r.id).filter((id) => id !== 'bitcoin')]) {
            const a = await read<{ zone: { direction: string | null } } | undefined>(`/v2/analysis/${id}`);
            if (a?.zone.direction) return id;
          }
          return 'bitcoin';
        });
        await page.goto(`${server.url}/app/asset/${shown}`);
        await chartReady(page);
        await page.waitForLoadState('networkidle');
        writeFileSync(README_SHOT, await page.screenshot({ fullPage: false }));
      }
      await page.goto(`${server.url}/app/asset/bitcoin`);
      await chartReady(page);
      await page.waitForLoadState('networkidle');
      const masked = await page.screenshot({
        mask: [
          page.locator('.chart-slot'),
          page.locator('.side'),
          page.locator('.narrative'),
          page.locator('.last'),
          page.locator('#who'),
        ],
        maskColor: '#ff00ff',
        animations: 'disabled',
      });
      await matchesReference(page, 'asset-page', masked);
    });

    it('says the server is unreachable, and keeps working once it is back', async () => {
      await page.goto(`${server.url}/app/asset/bitcoin`);
      await chartReady(page);
      const port = Number(new URL(server.url).port);
      await stopServer(server.child);
      await expect.poll(() => page.getByTestId('asset-message').getAttribute('data-code'), POLL).toBe('Unreachable');
      expect(await page.getByTestId('asset-message').textContent()).toContain('cannot be reached');
      server = await startServer(dir, port);
      await expect.poll(() => page.getByTestId('asset-message').textContent(), POLL).toBe('');
      expect(await page.getByTestId('last-price').textContent()).not.toBe('');
    }, 60_000);

    it('says an ended session once, then goes on signed out', async () => {
      const token = (await context.cookies(server.url)).find((c) => c.name === 'marketlens_session')?.value ?? '';
      expect(token).not.toBe('');
      // The session ends elsewhere (another client logs it out); the page learns at its next request.
      const out = await fetch(`${server.url}/v1/auth/logout`, {
        method: 'POST',
        headers: { 'x-session-token': token },
      });
      expect(out.status).toBe(200);
      await page.goto(`${server.url}/app/account`);
      await expect.poll(() => page.locator('#status').textContent(), POLL).toContain('Your session has ended');
      await page.getByTestId('login').waitFor();
      expect((await context.cookies(server.url)).some((c) => c.name === 'marketlens_session')).toBe(false);
      const signIn = await page.screenshot({ mask: [page.locator('#status')], maskColor: '#ff00ff' });
      await matchesReference(page, 'sign-in', signIn);
    });

    it('logs in and out', async () => {
      // A fresh account through the API (header client), then the page's own forms.
      const email = `e2e-${randomUUID()}@example.com`;
      const r = await fetch(`${server.url}/v1/auth/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: 'correct horse battery' }),
      });
      expect(r.status).toBe(200);
      await page.goto(`${server.url}/app/account`);
      const login = page.getByTestId('login');
      await login.getByLabel('Email').fill(email);
      await login.getByLabel('Password').fill('correct horse battery');
      await login.getByRole('button', { name: 'Sign in' }).click();
      await expect.poll(() => page.getByTestId('me').textContent(), POLL).toContain(email);
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByTestId('login').waitFor();
      expect((await context.cookies(server.url)).some((c) => c.name === 'marketlens_session')).toBe(false);
      // Signed out, an analysis is refused (no anonymous tier): the page says so and where to sign in.
      await page.goto(`${server.url}/app/asset/bitcoin`);
      await expect.poll(() => page.getByTestId('asset-message').getAttribute('data-code'), POLL).toBe('Unauthorized');
      expect(await page.getByTestId('asset-message').getByRole('link').getAttribute('href')).toBe('/app/account');
    });

    it('raised no script error, no console error and no request to another origin', () => {
      expect(pageErrors).toEqual([]);
      expect(consoleErrors).toEqual([]);
      expect(offsite).toEqual([]);
    });
  },
);
