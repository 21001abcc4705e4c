/** One release note: a package version (or a pending changeset) and its change lines. */
export interface ReleaseNote {
  id: string;
  /** The package, used as the Atom category ("tagged by platform"). */
  package: string;
  version: string;
  updated: string;
  changes: string[];
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * Parses a changesets CHANGELOG.md (`# pkg`, `## version`, `### Minor Changes`, `- hash: text`).
 * `updated` is the time to stamp entries with (changelogs carry no dates).
 */
export function parseChangelog(markdown: string, updated: string): ReleaseNote[] {
  const notes: ReleaseNote[] = [];
  let pkg = '';
  let current: ReleaseNote | null = null;
  for (const line of markdown.split('\n')) {
    const h1 = /^# (.+)$/.exec(line);
    const h2 = /^## (.+)$/.exec(line);
    const item = /^- (?:[0-9a-f]{7,40}: )?(.+)$/.exec(line);
    if (h1) pkg = h1[1].trim();
    else if (h2) {
      current = { id: `${pkg}@${h2[1].trim()}`, package: pkg, version: h2[1].trim(), updated, changes: [] };
      notes.push(current);
    } else if (item && current) current.changes.push(item[1].trim());
  }
  return notes;
}

/** The Atom 1.0 document of the release notes, newest first. */
export function renderAtom(notes: readonly ReleaseNote[], selfUrl: string): string {
  const sorted = [...notes].sort((a, b) => b.updated.localeCompare(a.updated) || a.id.localeCompare(b.id));
  const updated = sorted[0]?.updated ?? '1970-01-01T00:00:00.000Z';
  const entries = sorted.map(
    (n) => `  <entry>
    <id>urn:marketlens:release:${esc(n.id)}</id>
    <title>${esc(`${n.package} ${n.version}`)}</title>
    <updated>${esc(n.updated)}</updated>
    <category term="${esc(n.package)}"/>
    <content type="html">${esc(`<ul>${n.changes.map((c) => `<li>${esc(c)}</li>`).join('')}</ul>`)}</content>
  </entry>`,
  );
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <id>urn:marketlens:releases</id>
  <title>marketlens releases</title>
  <updated>${esc(updated)}</updated>
  <link rel="self" type="application/atom+xml" href="${esc(selfUrl)}"/>
  <author><name>marketlens</name></author>
${entries.join('\n')}
</feed>
`;
}
