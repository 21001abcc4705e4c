import { describe, expect, it } from 'vitest';
import { AppError, ERROR_CODES } from './app-error.js';

describe('error table', () => {
  it('holds the contract codes', () => {
    expect(ERROR_CODES.GeneralError.code).toBe(1);
    expect(ERROR_CODES.AnalysisTimeframeRestricted).toMatchObject({ code: 1004, status: 402 });
    expect(ERROR_CODES.AnalysisHistoryDepthRestricted).toMatchObject({ code: 1005, status: 402 });
    expect(ERROR_CODES.NotificationLimitExceeded).toMatchObject({ code: 'NotificationLimitExceeded', status: 402 });
    expect(ERROR_CODES.SignalControlsRestricted).toMatchObject({ code: 'SignalControlsRestricted', status: 402 });
  });

  it('has one code per entry', () => {
    const codes = Object.values(ERROR_CODES).map((e) => e.code);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('AppError carries code, status and headers', () => {
    const e = new AppError('RateLimited', 'slow down', { 'retry-after': '3' });
    expect([e.code, e.status, e.headers['retry-after']]).toEqual(['RateLimited', 429, '3']);
  });
});
