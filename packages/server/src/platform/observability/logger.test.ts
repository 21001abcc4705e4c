import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, REDACTED } from './logger.js';

/** A destination that keeps each written line. */
function sink() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(
        ...String(chunk)
          .split('\n')
          .filter((l) => l.length > 0),
      );
      done();
    },
  });
  return { stream, lines };
}

const SECRETS = {
  headers: {
    authorization: 'Bearer s3cr3t-a',
    'x-api-key': 'mlk_s3cr3t-b',
    'x-session-token': 'mls_s3cr3t-c',
    cookie: 'sid=s3cr3t-d',
    accept: 'application/json',
  },
  password: 's3cr3t-e',
  secret: 's3cr3t-f',
  token: 's3cr3t-g',
  body: { password: 's3cr3t-h', token: 's3cr3t-i', email: 'a@example.com' },
  req: { headers: { authorization: 'Bearer s3cr3t-j' } },
};

describe('createLogger', () => {
  it('writes JSON lines with the secret headers and fields censored and the rest kept', () => {
    const { stream, lines } = sink();
    createLogger({ format: 'json', destination: stream }).info(SECRETS, 'signed in');
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]);
    expect(line).toMatchObject({
      level: 30,
      msg: 'signed in',
      headers: {
        authorization: REDACTED,
        'x-api-key': REDACTED,
        'x-session-token': REDACTED,
        cookie: REDACTED,
        accept: 'application/json',
      },
      password: REDACTED,
      secret: REDACTED,
      token: REDACTED,
      body: { password: REDACTED, token: REDACTED, email: 'a@example.com' },
      req: { headers: { authorization: REDACTED } },
    });
    expect(lines[0]).not.toContain('s3cr3t');
  });

  it('keeps the level asked for, and writes nothing when silent', () => {
    const warn = sink();
    const logger = createLogger({ format: 'json', level: 'warn', destination: warn.stream });
    logger.info('dropped');
    logger.warn('kept');
    expect(warn.lines.map((l) => JSON.parse(l).msg)).toEqual(['kept']);
    const silent = sink();
    createLogger({ format: 'silent', destination: silent.stream }).fatal({ password: 'x' }, 'nothing');
    expect(silent.lines).toEqual([]);
  });

  it('writes readable lines when pretty, censored the same way', () => {
    const { stream, lines } = sink();
    createLogger({ format: 'pretty', destination: stream }).warn({ route: '/v2/config', password: 's3cr3t' }, 'slow');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\d\d:\d\d:\d\d\.\d{3} WARN {2}slow route=\/v2\/config password=\[Redacted\]$/);
  });
});
