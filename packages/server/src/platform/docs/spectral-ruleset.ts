import type { RulesetDefinition } from '@stoplight/spectral-core';
import { oas } from '@stoplight/spectral-rulesets';

/**
 * The Spectral ruleset the served OpenAPI document is linted with: `spectral:oas` (its recommended
 * rules), with the few rules that are wrong for this API turned off, each with its reason.
 */
export const SPECTRAL_RULESET: RulesetDefinition = {
  extends: [[oas as RulesetDefinition, 'recommended']],
  rules: {
    // The contract's collection paths keep their trailing slash (`GET /v2/assets/`, `/v1/news/`):
    // clients call them so, and Redocly's `no-path-trailing-slash` is off for the same reason.
    'path-keys-no-trailing-slash': 'off',
  },
};
