import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Context, Hono } from 'hono';
import type { AppEnv } from '../deps.js';
import { AppError } from '../errors/app-error.js';
import { before, type Step } from '../pipeline.js';

/** Where the app is served. */
export const APP_PATH = '/app';

/**
 * The app's Content-Security-Policy: every script, style, image, font and connection from this
 * server only, no inline script or style element, no plugin, no framing. Icons are `data:` URIs
 * (the API sends them so), hence `img-src data:`.
 */
export const APP_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "worker-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Headers of every `/app` answer. */
const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': APP_CSP,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'same-origin',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
};

/** Types worth compressing (the others are compressed already). */
const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.svg', '.json', '.webmanifest']);

/** One built file, with its compressed forms made once. */
interface AppFile {
  type: string;
  identity: Uint8Array<ArrayBuffer>;
  gzip: Uint8Array<ArrayBuffer> | null;
  br: Uint8Array<ArrayBuffer> | null;
}

const IMMUTABLE = 'public, max-age=31536000, immutable';

/** The built app's folder: `dist` of the installed `@marketlens/web`, or null when it is absent. */
export function appDistDir(): string | null {
  try {
    const require = createRequire(import.meta.url);
    return join(dirname(require.resolve('@marketlens/web/package.json')), 'dist');
  } catch {
    return null;
  }
}

function bytes(b: Buffer): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(new ArrayBuffer(b.byteLength));
  out.set(b);
  return out;
}

/** Reads the built files (`index.html`, root files such as `sw.js`, and `assets/*`), compressing each once. */
async function loadFiles(dir: string): Promise<Map<string, AppFile>> {
  const files = new Map<string, AppFile>();
  const add = async (name: string, path: string) => {
    const ext = extname(name);
    const type = TYPES[ext];
    if (type === undefined) return;
    const identity = bytes(await readFile(path));
    const squeeze = COMPRESSIBLE.has(ext) && identity.byteLength > 256;
    files.set(name, {
      type,
      identity,
      gzip: squeeze ? bytes(gzipSync(identity, { level: 9 })) : null,
      br: squeeze ? bytes(brotliCompressSync(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } })) : null,
    });
  };
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.isFile()) await add(entry.name, join(dir, entry.name));
  }
  for (const entry of await readdir(join(dir, 'assets'), { withFileTypes: true }).catch(() => [])) {
    if (entry.isFile()) await add(`assets/${entry.name}`, join(dir, 'assets', entry.name));
  }
  return files;
}

/** The encoding to send: `br` over `gzip` when the client accepts it (q=0 refuses), else none. */
export function chooseEncoding(accept: string | undefined): 'br' | 'gzip' | null {
  if (accept === undefined) return null;
  const accepted = new Map<string, number>();
  for (const part of accept.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const value = q === undefined ? 1 : Number(q.slice(2));
    accepted.set(name.trim(), Number.isFinite(value) ? value : 0);
  }
  const star = accepted.get('*') ?? 0;
  const weight = (name: string) => accepted.get(name) ?? star;
  if (weight('br') > 0) return 'br';
  if (weight('gzip') > 0) return 'gzip';
  return null;
}

function send(c: Context<AppEnv>, file: AppFile, cacheControl: string): Response {
  const encoding = chooseEncoding(c.req.header('accept-encoding'));
  const body = encoding === 'br' ? file.br : encoding === 'gzip' ? file.gzip : null;
  const headers: Record<string, string> = {
    ...SECURITY_HEADERS,
    'content-type': file.type,
    'cache-control': cacheControl,
    vary: 'accept-encoding',
  };
  if (body !== null && encoding !== null) headers['content-encoding'] = encoding;
  return c.body(body ?? file.identity, 200, headers);
}

/**
 * `/app`: the web app (`@marketlens/web`) from its built, content-hashed files. The hashed assets
 * are sent with a year-long immutable cache, `index.html` (every app route, the app routes itself)
 * and the service worker with `no-cache`; each compressible file is gzip- and brotli-compressed
 * once, when the files are first read. Every answer carries the app's Content-Security-Policy.
 * Without a build the app answers 503 `ServiceUnavailable` saying how to build it.
 */
export function registerAppFiles(app: Hono<AppEnv>, platform: Step, appDir?: string | null): void {
  const dir = appDir === undefined ? appDistDir() : appDir;
  let files: Promise<Map<string, AppFile>> | null = null;
  const load = async (): Promise<Map<string, AppFile>> => {
    if (dir === null) throw notBuilt();
    files ??= loadFiles(dir).catch((err: unknown) => {
      files = null;
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw notBuilt();
      throw err;
    });
    return files;
  };
  const page = before(platform, async (c: Context<AppEnv>) => {
    const index = (await load()).get('index.html');
    if (index === undefined) throw notBuilt();
    return send(c, index, 'no-cache');
  });
  app.get(APP_PATH, page);
  app.get(`${APP_PATH}/`, page);
  app.get(
    `${APP_PATH}/assets/:file`,
    before(platform, async (c) => {
      const file = (await load()).get(`assets/${c.req.param('file') ?? ''}`);
      if (file === undefined) throw new AppError('NotFound', 'No such file of the app');
      return send(c, file, IMMUTABLE);
    }),
  );
  app.get(
    `${APP_PATH}/*`,
    before(platform, async (c) => {
      const name = c.req.path.slice(APP_PATH.length + 1);
      const all = await load();
      // Root files of the build (the service worker) by name; every other path is a page of the app.
      const root = !name.includes('/') && extname(name) !== '' ? all.get(name) : undefined;
      if (root !== undefined) return send(c, root, 'no-cache');
      if (extname(name) !== '' && !name.includes('/')) throw new AppError('NotFound', 'No such file of the app');
      const index = all.get('index.html');
      if (index === undefined) throw notBuilt();
      return send(c, index, 'no-cache');
    }),
  );
}

function notBuilt(): AppError {
  return new AppError(
    'ServiceUnavailable',
    'The web app is not built: run `pnpm --filter @marketlens/web build` (pnpm build builds it too)',
  );
}
