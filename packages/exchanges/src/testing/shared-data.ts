import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// The same discovery as core's src/testing/shared-data.ts, repeated here because this package's
// tsconfig (rootDir '.') cannot include core's sources. Test-only; not exported.

function findSharedData(): string | undefined {
  const override = process.env.MARKETLENS_SHARED_DATA;
  if (override) return existsSync(override) ? override : undefined;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 8; i++) {
    if (existsSync(join(dir, 'pnpm-workspace.yaml'))) {
      const candidate = resolve(dir, '..', 'shared', 'data');
      return existsSync(candidate) ? candidate : undefined;
    }
    dir = dirname(dir);
  }
  return undefined;
}

/** Where the shared data lives, or undefined when this checkout has no `../shared`. */
export const sharedDataDir = findSharedData();

/** Why the data-backed tests skip, printed in the test name. */
export const sharedDataSkipReason = 'real series in ../shared/data are absent (a user clone); CI always has them';
