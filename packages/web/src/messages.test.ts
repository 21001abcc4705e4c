import { describe, expect, it } from 'vitest';
import { ApiError, BAD_ANSWER, UNREACHABLE } from './api.js';
import { en } from './i18n/en.js';
import { es } from './i18n/es.js';
import { describeError } from './messages.js';

describe('describeError', () => {
  it("keeps the API's message and says what a code means for the reader", () => {
    expect(
      describeError(new ApiError(402, 1004, 'Timeframe h1 requires Pro'), en, { tierFor: 'The h1 timeframe' }),
    ).toBe('The h1 timeframe needs the Pro plan. Timeframe h1 requires Pro.');
    expect(describeError(new ApiError(401, 'InvalidSession', 'Session token is invalid or expired'), en)).toBe(
      'Your session has ended; sign in again. (Session token is invalid or expired)',
    );
    expect(describeError(new ApiError(400, 'UnknownAsset', "Unknown asset 'x'"), en)).toBe(
      "No such asset. Unknown asset 'x'",
    );
    // A code without a sentence of its own: the API's message as it is (in English).
    expect(describeError(new ApiError(404, 'PromotionNotFound', 'No such promotion'), en)).toBe('No such promotion');
    expect(describeError(new ApiError(429, 'RateLimited', 'Too many requests'), en)).toBe(
      'Too many requests for now; wait a moment. (Too many requests)',
    );
  });

  it("leads with a sentence in the page's language, the API's (English) message after it", () => {
    expect(
      describeError(new ApiError(402, 1004, 'Timeframe h1 requires Pro'), es, { tierFor: es.asset.theTimeframe('h1') }),
    ).toBe('La temporalidad h1 requiere el plan Pro. (Timeframe h1 requires Pro)');
    expect(describeError(new ApiError(402, 'SignalControlsRestricted', 'Controls need Pro'), es)).toBe(
      'Esto requiere el plan Pro. (Controls need Pro)',
    );
    expect(describeError(new ApiError(404, 'PromotionNotFound', 'No such promotion'), es)).toBe(
      'El servidor rechazó la solicitud. (No such promotion)',
    );
  });

  it('says plainly when the server could not be reached or answered what the page cannot read', () => {
    const away = new ApiError(0, UNREACHABLE, 'The server cannot be reached.');
    expect(away.unreachable).toBe(true);
    expect(describeError(away, en)).toBe('The server cannot be reached. The page will retry when it is back.');
    expect(describeError(away, es)).toBe(es.errors.unreachable);
    expect(describeError(new ApiError(502, BAD_ANSWER, 'no JSON'), es)).toBe(
      'El servidor respondió 502 en un formato que la página no puede leer.',
    );
    expect(describeError(new Error('boom'), en)).toBe('Something went wrong in the page: boom');
  });
});
