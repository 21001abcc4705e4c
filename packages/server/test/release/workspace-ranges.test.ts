/**
 * scripts/workspace-ranges.mjs, the `prepack`/`postpack` of every published package, on a
 * workspace of its own: `workspace:` ranges become what pnpm would publish, the original
 * package.json comes back byte for byte, a pack that died before its postpack is undone first,
 * and a range naming no sibling fails the pack. `pnpm pack-check` packs the real packages with npm
 * and pnpm (CI runs it).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SCRIPT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../scripts/workspace-ranges.mjs');

/** A workspace with `a@1.2.3` and `b` depending on it; returns b's folder and manifest text. */
function workspace(dependencies: Record<string, string>) {
  const root = mkdtempSync(join(tmpdir(), 'marketlens-ranges-'));
  writeFileSync(join(root, 'pnpm-workspace.yaml'), "packages:\n  - 'packages/*'\n");
  for (const [name, manifest] of [
    ['a', { name: '@x/a', version: '1.2.3' }],
    [
      'b',
      {
        name: '@x/b',
        version: '0.1.0',
        dependencies,
        devDependencies: { '@x/a': 'workspace:*', vitest: '^3.0.0' },
      },
    ],
  ] as const) {
    mkdirSync(join(root, 'packages', name), { recursive: true });
    // Four-space indentation: restore must give back these bytes, not a reformatted file.
    writeFileSync(join(root, 'packages', name, 'package.json'), `${JSON.stringify(manifest, null, 4)}\n`);
  }
  const dir = join(root, 'packages', 'b');
  return { dir, original: readFileSync(join(dir, 'package.json'), 'utf8') };
}

function script(dir: string, command: string) {
  return spawnSync(process.execPath, [SCRIPT, command], { cwd: dir, encoding: 'utf8' });
}

const manifestOf = (dir: string) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));

describe('workspace-ranges (prepack/postpack)', () => {
  it('publishes workspace ranges as pnpm does and restores the manifest byte for byte', () => {
    const { dir, original } = workspace({ '@x/a': 'workspace:^', zod: '^4.0.0' });
    expect(script(dir, 'pack').status).toBe(0);
    const packed = manifestOf(dir);
    expect(packed.dependencies).toEqual({ '@x/a': '^1.2.3', zod: '^4.0.0' });
    expect(packed.devDependencies).toEqual({ '@x/a': '1.2.3', vitest: '^3.0.0' });
    expect(JSON.stringify(packed)).not.toContain('workspace:');
    expect(script(dir, 'restore').status).toBe(0);
    expect(readFileSync(join(dir, 'package.json'), 'utf8')).toBe(original);
    expect(existsSync(join(dir, 'node_modules/.workspace-ranges'))).toBe(false);
    // restore without a pack changes nothing
    expect(script(dir, 'restore').status).toBe(0);
    expect(readFileSync(join(dir, 'package.json'), 'utf8')).toBe(original);
  });

  it('maps ~ and explicit ranges, and undoes a pack that died before its postpack', () => {
    const { dir, original } = workspace({ '@x/a': 'workspace:~' });
    expect(script(dir, 'pack').status).toBe(0);
    expect(manifestOf(dir).dependencies).toEqual({ '@x/a': '~1.2.3' });
    // a second pack without a restore starts from the original, not from the rewritten file
    expect(script(dir, 'pack').status).toBe(0);
    expect(script(dir, 'restore').status).toBe(0);
    expect(readFileSync(join(dir, 'package.json'), 'utf8')).toBe(original);
    const explicit = workspace({ '@x/a': 'workspace:>=1.0.0 <2' });
    expect(script(explicit.dir, 'pack').status).toBe(0);
    expect(manifestOf(explicit.dir).dependencies).toEqual({ '@x/a': '>=1.0.0 <2' });
  });

  it('fails the pack on a workspace range that names no sibling, leaving the manifest as it was', () => {
    const { dir, original } = workspace({ '@x/missing': 'workspace:^' });
    const r = script(dir, 'pack');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('no sibling is named @x/missing');
    expect(readFileSync(join(dir, 'package.json'), 'utf8')).toBe(original);
    expect(script(dir, 'bogus').status).toBe(1);
  });
});
