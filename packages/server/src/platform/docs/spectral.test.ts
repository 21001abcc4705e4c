import { type ISpectralDiagnostic, Spectral } from '@stoplight/spectral-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { harness } from '../../../test/support/harness.js';
import { OPENAPI_PATH } from '../../app.js';
import { SPECTRAL_RULESET } from './spectral-ruleset.js';

/** Spectral's severities, by their number in a diagnostic. */
const SEVERITY = ['error', 'warning', 'info', 'hint'] as const;

const describeFinding = (d: ISpectralDiagnostic) =>
  `${SEVERITY[d.severity]} ${d.code} at ${d.path.join('.') || '(root)'}: ${d.message}`;

let text: string;

beforeAll(async () => {
  text = await (await harness().request(OPENAPI_PATH)).text();
});

describe('OpenAPI document under Spectral (spectral:oas)', () => {
  it('has no errors and no warnings', async () => {
    const spectral = new Spectral();
    spectral.setRuleset(SPECTRAL_RULESET);
    const findings = (await spectral.run(text)).filter((d) => d.severity <= 1);
    expect(findings.map(describeFinding).join('\n')).toBe('');
  }, 60_000);

  it('would report a finding (the ruleset is live)', async () => {
    const spectral = new Spectral();
    spectral.setRuleset(SPECTRAL_RULESET);
    const doc = JSON.parse(text) as { paths: Record<string, Record<string, { description?: string }>> };
    delete doc.paths['/v1/devices'].get.description;
    const codes = (await spectral.run(JSON.stringify(doc))).map((d) => d.code);
    expect(codes).toContain('operation-description');
  }, 60_000);
});
