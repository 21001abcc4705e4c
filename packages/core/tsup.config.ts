import { defineConfig } from 'tsup';

// ESM ships one file per source module, so a bundler keeps only the modules an import reaches
// (`sideEffects: false` in package.json): an RSI-only bundle never sees decimal.js, which only the
// money code imports. CommonJS, which bundlers do not tree-shake, stays one file. The types are one
// bundled declaration file per format.
const shipped = ['src/**/*.ts', '!src/**/*.test.ts', '!src/testing/**', '!src/**/test-fixtures.ts'];

export default defineConfig([
  {
    entry: shipped,
    format: ['esm'],
    bundle: false,
    sourcemap: true,
    clean: ['**/*.js', '**/*.js.map'],
    target: 'node20',
  },
  {
    entry: ['src/index.ts'],
    format: ['cjs'],
    sourcemap: true,
    target: 'node20',
  },
  {
    entry: ['src/index.ts'],
    format: ['esm', 'cjs'],
    dts: { only: true },
    target: 'node20',
  },
]);
