#!/usr/bin/env node
/**
 * The `prepack` and `postpack` of every published package: a packed manifest must carry real
 * version ranges whichever packer made it. pnpm rewrites `workspace:` ranges itself; npm does not
 * (a consumer's npm then fails with EUNSUPPORTEDPROTOCOL), so before packing this rewrites them in
 * the package's own package.json the way pnpm does, and after packing puts the file back byte for
 * byte.
 *
 *   node ../../scripts/workspace-ranges.mjs pack      (prepack, in the package folder)
 *   node ../../scripts/workspace-ranges.mjs restore   (postpack, in the package folder)
 *
 * `workspace:^` becomes `^<sibling's version>`, `workspace:~` `~<version>`, `workspace:*` the exact
 * version, `workspace:<range>` the range. The original is kept in
 * `node_modules/.workspace-ranges/package.json` of the package (never packed) until `restore`; a
 * pack that failed before its postpack leaves it there, and the next `pack` or `restore` puts it
 * back first. A `workspace:` range naming no sibling fails the pack.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const FIELDS = ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'];

/** The folder holding pnpm-workspace.yaml above `dir`. */
function workspaceRoot(dir) {
  for (let d = resolve(dir); ; d = dirname(d)) {
    if (existsSync(join(d, 'pnpm-workspace.yaml'))) return d;
    if (dirname(d) === d) throw new Error(`no pnpm-workspace.yaml above ${dir}`);
  }
}

/** Name to version of every package under the workspace's `packages/`. */
function siblingVersions(root) {
  const versions = new Map();
  for (const entry of readdirSync(join(root, 'packages'), { withFileTypes: true })) {
    const file = join(root, 'packages', entry.name, 'package.json');
    if (!entry.isDirectory() || !existsSync(file)) continue;
    const { name, version } = JSON.parse(readFileSync(file, 'utf8'));
    versions.set(name, version);
  }
  return versions;
}

/** The range pnpm publishes for `range` (a `workspace:` one) of the sibling at `version`. */
export function publishedRange(range, version) {
  const spec = range.slice('workspace:'.length);
  if (spec === '*') return version;
  if (spec === '^' || spec === '~') return `${spec}${version}`;
  if (spec === '' || spec.startsWith('.') || spec.startsWith('/')) {
    throw new Error(`'${range}' is not a range this script can publish`);
  }
  return spec;
}

/** The manifest with every `workspace:` range replaced; the names it replaced. */
export function rewriteManifest(manifest, versions) {
  const out = structuredClone(manifest);
  const replaced = [];
  for (const field of FIELDS) {
    for (const [name, range] of Object.entries(out[field] ?? {})) {
      if (typeof range !== 'string' || !range.startsWith('workspace:')) continue;
      const version = versions.get(name);
      if (version === undefined)
        throw new Error(`${manifest.name}: ${field}.${name} is '${range}' but no sibling is named ${name}`);
      out[field][name] = publishedRange(range, version);
      replaced.push(`${name}@${out[field][name]}`);
    }
  }
  return { manifest: out, replaced };
}

function restore(dir) {
  const backup = join(dir, 'node_modules/.workspace-ranges/package.json');
  if (!existsSync(backup)) return false;
  writeFileSync(join(dir, 'package.json'), readFileSync(backup));
  rmSync(dirname(backup), { recursive: true, force: true });
  return true;
}

function pack(dir) {
  restore(dir);
  const file = join(dir, 'package.json');
  const original = readFileSync(file);
  const { manifest, replaced } = rewriteManifest(
    JSON.parse(original.toString('utf8')),
    siblingVersions(workspaceRoot(dir)),
  );
  if (replaced.length === 0) return;
  const backup = join(dir, 'node_modules/.workspace-ranges/package.json');
  mkdirSync(dirname(backup), { recursive: true });
  writeFileSync(backup, original);
  writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
  console.error(`workspace-ranges: ${manifest.name} packs with ${replaced.join(', ')}`);
}

const isMain = process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname);
if (isMain) {
  const command = process.argv[2];
  const dir = process.cwd();
  try {
    if (command === 'pack') pack(dir);
    else if (command === 'restore') restore(dir);
    else throw new Error(`usage: workspace-ranges.mjs pack|restore (got '${command ?? ''}')`);
  } catch (error) {
    console.error(`workspace-ranges: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
