#!/usr/bin/env node
// Writes the README's settings table (README.md, between the settings-table markers) from the one
// table of settings, `SETTINGS` (packages/server/src/config/settings.ts, each group of rows declared
// in its owner's config.ts), as `settingsMarkdown` renders it. Reads the built package (dist/):
// build the server first. src/config/load.test.ts fails while the README differs.
//
//   node packages/server/scripts/settings-table.mjs           check (exit 1 when stale)
//   node packages/server/scripts/settings-table.mjs --write   rewrite the table
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const readme = join(here, '..', '..', '..', 'README.md');
const BEGIN = '<!-- settings-table: begin (generated from SETTINGS by packages/server/scripts/settings-table.mjs) -->';
const END = '<!-- settings-table: end -->';

const { settingsMarkdown } = await import(pathToFileURL(join(here, '..', 'dist', 'index.js')).href);
const text = readFileSync(readme, 'utf8');
const at = text.indexOf(BEGIN);
const end = text.indexOf(END);
if (at < 0 || end < at) {
  console.error(`settings-table: README.md has no place for the table (${BEGIN} ... ${END})`);
  process.exit(1);
}
const current = text.slice(at, end + END.length);
const generated = `${BEGIN}\n${settingsMarkdown()}\n${END}`;
if (process.argv.includes('--write')) {
  writeFileSync(readme, text.replace(current, generated));
  console.log('settings-table: README.md written');
} else if (current !== generated) {
  console.error(
    'settings-table: the README settings table is stale (node packages/server/scripts/settings-table.mjs --write)',
  );
  process.exit(1);
} else console.log('settings-table: README.md is current');
