import { describe, expect, it } from 'vitest';
import { CATALOG } from './catalog.js';
import { manifest } from './manifest.js';

// The tools' texts are tested over their operations' answers in tools/*.test.ts; the tools over the
// server's backend (real use cases) in @marketlens/server, src/mcp/mcp-tools.test.ts.

describe('catalog', () => {
  it('describes the server and its tools in the manifest', () => {
    const m = manifest('https://example.test/');
    expect(m.endpoint).toBe('https://example.test/mcp');
    expect(m.authorization.protected_resource_metadata).toBe(
      'https://example.test/.well-known/oauth-protected-resource/mcp',
    );
    expect(m.tools.map((t) => t.name)).toEqual(CATALOG.map((t) => t.name));
    expect(
      manifest('https://example.test', {
        runs: (id) => id.startsWith('analysis.') || id.startsWith('market.'),
      }).tools.every((t) => !t.name.includes('position')),
    ).toBe(true);
  });
});
