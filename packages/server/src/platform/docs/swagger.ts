import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Hono } from 'hono';
import type { AppEnv } from '../deps.js';
import { before, type Step } from '../pipeline.js';

const ASSETS: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const INIT = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/docs/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    tryItOutEnabled: false,
  });
});
`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>marketlens API reference</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
<link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/init.js"></script>
</body>
</html>
`;

function swaggerDir(): string {
  const require = createRequire(import.meta.url);
  return dirname(require.resolve('swagger-ui-dist/package.json'));
}

/**
 * `/docs`: Swagger UI from the locally installed swagger-ui-dist (no CDN), so the reference
 * works offline. Only an allowlist of files is served; each is read once and kept in memory.
 */
export function registerDocsUi(app: Hono<AppEnv>, platform: Step): void {
  const cache = new Map<string, Uint8Array<ArrayBuffer>>();
  let dir: string | null = null;
  app.get(
    '/docs',
    before(platform, (c) => {
      c.header('cache-control', 'no-cache');
      return c.html(PAGE);
    }),
  );
  app.get(
    '/docs/',
    before(platform, (c) => c.redirect('/docs', 301)),
  );
  // One route for every asset (init.js included): a static path beside `:file` would keep
  // hono's RegExpRouter from taking the app, and every request would go through the slower trie.
  app.get(
    '/docs/assets/:file',
    before(platform, async (c) => {
      const file = c.req.param('file') ?? '';
      if (file === 'init.js') {
        c.header('content-type', 'text/javascript; charset=utf-8');
        return c.body(INIT);
      }
      // Own keys only: `__proto__`, `constructor` and the like are inherited, not assets.
      const type = Object.hasOwn(ASSETS, file) ? ASSETS[file] : undefined;
      if (!type) return c.notFound();
      let data = cache.get(file);
      if (!data) {
        dir ??= swaggerDir();
        data = new Uint8Array(await readFile(join(dir, file)));
        cache.set(file, data);
      }
      c.header('content-type', type);
      c.header('cache-control', 'public, max-age=86400');
      return c.body(data);
    }),
  );
}
