import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from './errors.js';

/** `docs/errors.md` of the repository: the error table as users read it, generated from `ERROR_CODES`. */
const DOC = join(dirname(fileURLToPath(import.meta.url)), '../../../docs/errors.md');

function errorsMarkdown(): string {
  const rows = Object.entries(ERROR_CODES).map(
    ([name, row]) =>
      `| \`${row.code}\` | ${typeof row.code === 'number' ? name : ''} | ${row.status} | ${row.meaning} |`,
  );
  return [
    '# Error codes',
    '',
    'Every failure of the service is answered with one `code`: in REST an `ErrorResponse`',
    '(`{ "success": false, "code", "message" }`) with the HTTP status below, and in an MCP tool result with',
    '`isError: true` as `structuredContent.code`. Branch on `code`, never on `message`. A code keeps its meaning once',
    'published. The three numeric codes are the original contract’s; every other code is its own stable name.',
    '',
    'This file is generated from `ERROR_CODES` of `@marketlens/contract` (`UPDATE_DOCS=1 pnpm vitest run packages/contract`);',
    'a test fails when the two differ.',
    '',
    '| code | name | status | meaning |',
    '| --- | --- | --- | --- |',
    ...rows,
    '',
  ].join('\n');
}

describe('docs/errors.md', () => {
  it('is the error table of the contract', () => {
    const expected = errorsMarkdown();
    if (process.env.UPDATE_DOCS === '1') writeFileSync(DOC, expected);
    expect(readFileSync(DOC, 'utf8')).toBe(expected);
  });
});
