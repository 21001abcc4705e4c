// Builds the named workspace packages whose `dist` is missing, and nothing else: `pnpm demo` needs
// core and exchanges built, not a rebuild of every package for a one-second script (after changing
// their sources, `pnpm build` brings the dist up to date).
//   node scripts/ensure-built.mjs core exchanges
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
for (const name of process.argv.slice(2)) {
  if (existsSync(join(root, 'packages', name, 'dist', 'index.js'))) continue;
  console.error(`building @marketlens/${name} (its dist is missing)`);
  execFileSync('pnpm', ['--filter', `@marketlens/${name}`, 'build'], { cwd: root, stdio: 'inherit' });
}
