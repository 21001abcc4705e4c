/**
 * The HTTP edge maps storage failures: storage throws its own `StorageUnavailable` (no status, no
 * header), and the error handler answers it 503 `ServiceUnavailable` with `retry-after`.
 */
import { ERROR_CODES } from '@marketlens/contract';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { StorageUnavailable } from '../../storage/errors.js';
import { AppError } from './app-error.js';
import { errorHandler } from './handler.js';

function appThrowing(err: unknown) {
  const app = new Hono();
  app.onError(errorHandler(() => {}));
  app.get('/x', () => {
    throw err;
  });
  return app;
}

describe('errorHandler', () => {
  it('answers a database outage 503 ServiceUnavailable with retry-after, the storage error knowing no HTTP', async () => {
    const err = new StorageUnavailable(new Error('connect ECONNREFUSED'));
    expect(err).not.toBeInstanceOf(AppError);
    expect(Object.keys(err)).not.toContain('status');
    const res = await appThrowing(err).request('/x');
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(await res.json()).toEqual({
      code: ERROR_CODES.ServiceUnavailable.code,
      success: false,
      message: 'The database is unavailable right now; retry later',
    });
  });

  it('answers an error it does not know 500 GeneralError', async () => {
    const res = await appThrowing(new Error('boom')).request('/x');
    expect(res.status).toBe(500);
    expect(((await res.json()) as { code: unknown }).code).toBe(ERROR_CODES.GeneralError.code);
  });
});
