import { describe, expect, it } from 'vitest';
import { ErrorResponseSchema } from './envelope.js';
import { ERROR_CODES, errorNameOf } from './errors.js';

describe('error table', () => {
  it('gives every error a distinct code, a status of 400 or more and a meaning', () => {
    const rows = Object.entries(ERROR_CODES);
    expect(new Set(rows.map(([, r]) => r.code)).size).toBe(rows.length);
    for (const [name, row] of rows) {
      expect(row.status).toBeGreaterThanOrEqual(400);
      expect(row.meaning.length).toBeGreaterThan(10);
      expect(errorNameOf(row.code)).toBe(name);
      if (typeof row.code === 'string') expect(row.code).toBe(name);
    }
  });

  it('publishes every code in ErrorResponse, and only those', () => {
    for (const row of Object.values(ERROR_CODES)) {
      expect(ErrorResponseSchema.safeParse({ success: false, code: row.code, message: 'm' }).success).toBe(true);
    }
    for (const code of [0, 2, 1006, 'Nope', '']) {
      expect(ErrorResponseSchema.safeParse({ success: false, code, message: 'm' }).success).toBe(false);
    }
  });
});
