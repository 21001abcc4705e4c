#!/usr/bin/env node
// Regenerates src/platform/feed/release-notes.json from the changesets changelogs (packages/*/CHANGELOG.md)
// and the pending changesets (.changeset/*.md, listed as "unreleased"). Entries are stamped with
// the last commit time of their file, so the output is stable between runs.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..', '..');
const out = join(here, '..', 'src', 'platform', 'feed', 'release-notes.json');

const stamp = (file) => {
  try {
    const t = execFileSync('git', ['log', '-1', '--format=%cI', '--', file], { cwd: root, encoding: 'utf8' }).trim();
    if (t) return new Date(t).toISOString();
  } catch {}
  return new Date(0).toISOString();
};

const notes = [];
for (const pkg of readdirSync(join(root, 'packages'))) {
  const file = join(root, 'packages', pkg, 'CHANGELOG.md');
  if (!existsSync(file)) continue;
  let name = '';
  let cur = null;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const h1 = /^# (.+)$/.exec(line);
    const h2 = /^## (.+)$/.exec(line);
    const item = /^- (?:[0-9a-f]{7,40}: )?(.+)$/.exec(line);
    if (h1) name = h1[1].trim();
    else if (h2) {
      cur = {
        id: `${name}@${h2[1].trim()}`,
        package: name,
        version: h2[1].trim(),
        updated: stamp(file),
        changes: [],
      };
      notes.push(cur);
    } else if (item && cur) cur.changes.push(item[1].trim());
  }
}
const csDir = join(root, '.changeset');
for (const f of existsSync(csDir) ? readdirSync(csDir).filter((f) => f.endsWith('.md') && f !== 'README.md') : []) {
  const text = readFileSync(join(csDir, f), 'utf8');
  const m = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text);
  if (!m) continue;
  const summary = m[2].trim();
  for (const line of m[1].split('\n')) {
    const p = /^"?([^":]+)"?:\s*(\w+)/.exec(line.trim());
    if (p)
      notes.push({
        id: `${p[1]}@unreleased:${f.replace(/\.md$/, '')}`,
        package: p[1],
        version: `unreleased (${p[2]})`,
        updated: stamp(join(csDir, f)),
        changes: [summary],
      });
  }
}
notes.sort((a, b) => b.updated.localeCompare(a.updated) || a.id.localeCompare(b.id));
writeFileSync(out, `${JSON.stringify(notes, null, 2)}\n`);
console.log(`release-notes.json: ${notes.length} entries`);
