import { defineConfig } from 'tsup';

// Two entries: the whole contract (zod schemas) and `words`, the zod-free word lists core imports
// (`@marketlens/contract/words`).
export default defineConfig({
  entry: { index: 'src/index.ts', words: 'src/words.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: false,
  clean: true,
  target: 'node20',
});
