import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/main.ts'],
  external: ['better-sqlite3', 'ccxt'],
  format: ['esm'],
  dts: false,
  sourcemap: true,
  clean: true,
  target: 'node20',
  banner: { js: '#!/usr/bin/env node' },
});
