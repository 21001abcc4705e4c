import { copyFileSync } from 'node:fs';
import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts', 'src/main.ts'],
  external: ['better-sqlite3', 'ccxt'],
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
  shims: true,
  // The demo's example news feed is read from disk beside the bundle (see src/news/news.ts).
  async onSuccess() {
    copyFileSync('src/news/example-feed.xml', 'dist/example-feed.xml');
  },
});
