import { describe, expect, it } from 'vitest';
import { ApiError, UNREACHABLE } from './api.js';
import { describeError } from './messages.js';

describe('describeError', () => {
  it("keeps the API's message and says what a code means for the reader", () => {
    expect(describeError(new ApiError(402, 1004, 'Timeframe h1 requires Pro'), { tierFor: 'The h1 timeframe' })).toBe(
      'The h1 timeframe needs the Pro plan. Timeframe h1 requires Pro.',
    );
    expect(describeError(new ApiError(401, 'InvalidSession', 'Session token is invalid or expired'))).toBe(
      'Your session has ended; sign in again. (Session token is invalid or expired)',
    );
    expect(describeError(new ApiError(400, 'UnknownAsset', "Unknown asset 'x'"))).toBe(
      "No such asset. Unknown asset 'x'",
    );
    expect(describeError(new ApiError(429, 'RateLimited', 'Too many requests'))).toBe('Too many requests');
  });

  it('says plainly when the server could not be reached', () => {
    const away = new ApiError(0, UNREACHABLE, 'The server cannot be reached.');
    expect(away.unreachable).toBe(true);
    expect(describeError(away)).toBe('The server cannot be reached.');
    expect(describeError(new Error('boom'))).toBe('boom');
  });
});
