import { describe, expect, it } from 'vitest';
import { resolveClientIp } from './client-ip.js';

describe('resolveClientIp', () => {
  it('uses the socket when no proxy is trusted', () => {
    expect(resolveClientIp('198.51.100.1', '1.2.3.4', [])).toBe('198.51.100.1');
  });
  it('ignores X-Forwarded-For from an untrusted peer', () => {
    expect(resolveClientIp('198.51.100.1', '1.2.3.4', ['10.0.0.1'])).toBe('198.51.100.1');
  });
  it('takes the rightmost untrusted hop behind a trusted proxy', () => {
    expect(resolveClientIp('10.0.0.1', 'spoofed, 1.2.3.4, 10.0.0.2', ['10.0.0.1', '10.0.0.2'])).toBe('1.2.3.4');
  });
});
