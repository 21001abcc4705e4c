import { copyFileSync } from 'node:fs';
import { defineConfig } from 'tsup';

// ESM builds the library and the `marketlens-server` command together, so they share one chunk;
// CommonJS is the library only (nothing can reach a CommonJS copy of the command). The types are
// one bundled declaration file per format. Each build cleans only the files it writes, since the
// three run at once. No source maps: they would ship without the sources they point at.
const external = ['better-sqlite3', 'ccxt'];

export default defineConfig([
  {
    entry: ['src/index.ts', 'src/main.ts'],
    external,
    format: ['esm'],
    sourcemap: false,
    clean: ['**/*.js', '**/*.map', 'main.*'],
    target: 'node20',
    shims: true,
    // The demo's example news feed is read from disk beside the bundle (see src/news/news.ts).
    async onSuccess() {
      copyFileSync('src/market/news/example-feed.xml', 'dist/example-feed.xml');
    },
  },
  {
    entry: ['src/index.ts'],
    external,
    format: ['cjs'],
    sourcemap: false,
    clean: ['**/*.cjs'],
    target: 'node20',
    shims: true,
  },
  {
    entry: ['src/index.ts'],
    external,
    format: ['esm', 'cjs'],
    dts: { only: true },
    clean: ['**/*.d.ts', '**/*.d.cts'],
    target: 'node20',
  },
]);
