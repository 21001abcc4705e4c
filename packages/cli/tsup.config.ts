import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

export default defineConfig({
  entry: ['src/main.ts'],
  // @resvg/resvg-js is a native module loaded at run time only for PNG output: never bundled.
  external: ['better-sqlite3', 'ccxt', '@resvg/resvg-js'],
  format: ['esm'],
  dts: false,
  sourcemap: false,
  clean: true,
  target: 'node20',
  banner: { js: '#!/usr/bin/env node' },
  define: { __MARKETLENS_VERSION__: JSON.stringify(version) },
});
