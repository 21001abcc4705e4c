import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CredentialsSchema, EMAIL_PATTERN, EmailAddressSchema, PasswordResetConfirmSchema } from './session.js';

/** The `email` property of a schema's JSON Schema, as the OpenAPI document publishes it. */
function publishedEmail(schema: z.ZodType): { pattern?: string; format?: string } {
  const doc = z.toJSONSchema(schema) as { $defs?: Record<string, { properties: { email: object } }> };
  const [def] = Object.values(doc.$defs ?? {});
  return (def?.properties.email ?? {}) as { pattern?: string; format?: string };
}

const ADDRESSES = [
  'ada@example.com',
  'ada.lovelace+ml@mail.example.co.uk',
  "o'neil@example.ie",
  'a`b@example.com',
  'ada@localhost',
  'ada@example',
  '"quoted"@example.com',
  'ada..b@example.com',
  '.ada@example.com',
  'ada@-example.com',
  'ada@exa_mple.com',
  'ada@example.c',
  'ümlaut@example.com',
];

describe('the email address rule', () => {
  it('is published as the pattern the server applies, not as format: email', () => {
    for (const schema of [CredentialsSchema, EmailAddressSchema]) {
      const published = publishedEmail(schema);
      expect(published.format).toBeUndefined();
      expect(published.pattern).toBe(EMAIL_PATTERN.source);
      const documented = new RegExp(published.pattern ?? '');
      for (const email of ADDRESSES) {
        const applied = schema.safeParse({ email, password: 'password-123' }).success;
        expect(documented.test(email), email).toBe(applied);
      }
    }
  });

  it('refuses the RFC-valid addresses it does not take (a backtick, a dotless domain), and takes the usual ones', () => {
    const takes = (email: string) => CredentialsSchema.safeParse({ email, password: 'password-123' }).success;
    expect(takes('ada@example.com')).toBe(true);
    expect(takes("o'neil@example.ie")).toBe(true);
    expect(takes('a`b@example.com')).toBe(false);
    expect(takes('ada@localhost')).toBe(false);
  });

  it('a reset confirmation takes a token and a password of the sign-up rule', () => {
    expect(PasswordResetConfirmSchema.safeParse({ token: 'mlr_x', password: 'password-123' }).success).toBe(true);
    expect(PasswordResetConfirmSchema.safeParse({ token: 'mlr_x', password: 'short' }).success).toBe(false);
    expect(PasswordResetConfirmSchema.safeParse({ token: '', password: 'password-123' }).success).toBe(false);
  });
});
