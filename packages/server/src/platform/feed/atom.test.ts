import { describe, expect, it } from 'vitest';
import { harness } from '../../../test/support/harness.js';
import { parseChangelog, renderAtom } from './atom.js';

describe('release feed', () => {
  it('parses a changesets changelog', () => {
    const md =
      '# @marketlens/core\n\n## 0.2.0\n\n### Minor Changes\n\n- abc1234: Faster <RSI> & friends\n\n## 0.1.0\n\n- First\n';
    const notes = parseChangelog(md, '2026-01-01T00:00:00.000Z');
    expect(notes.map((n) => [n.id, n.changes])).toEqual([
      ['@marketlens/core@0.2.0', ['Faster <RSI> & friends']],
      ['@marketlens/core@0.1.0', ['First']],
    ]);
    const xml = renderAtom(notes, 'http://x/releases.atom');
    expect(xml).toContain('<feed xmlns="http://www.w3.org/2005/Atom">');
    expect(xml).toContain('&amp;lt;RSI&amp;gt;');
    expect(xml).toContain('<category term="@marketlens/core"/>');
  });

  it('is served at /releases.atom', async () => {
    const r = await harness().request('/releases.atom');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/application\/atom\+xml/);
    expect(await r.text()).toContain('<title>marketlens releases</title>');
  });
});
