import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CredentialsDecryptError,
  decryptCredentials,
  encryptCredentials,
  loadOrCreateKeyFile,
  parseCredentialsKey,
} from './secrets.js';

const key = randomBytes(32);
const creds = { apiKey: 'AKIA-live-key-123', secret: 's3cr3t-value-XYZ', password: 'pass-phrase' };
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('credentials at rest', () => {
  it('round-trips, with a fresh iv each time and no plaintext in the blob', () => {
    const a = encryptCredentials(key, 'conn-1', creds);
    const b = encryptCredentials(key, 'conn-1', creds);
    expect(a).not.toBe(b);
    expect(decryptCredentials(key, 'conn-1', a)).toEqual(creds);
    const raw = Buffer.from(a, 'base64');
    expect(raw[0]).toBe(1);
    for (const v of Object.values(creds)) {
      expect(a.includes(v)).toBe(false);
      expect(raw.includes(Buffer.from(v))).toBe(false);
    }
  });

  it('detects tampering, a wrong key, another connection and unknown versions', () => {
    const blob = encryptCredentials(key, 'conn-1', creds);
    const raw = Buffer.from(blob, 'base64');
    for (const i of [1, 14, 30, raw.length - 1]) {
      const t = Buffer.from(raw);
      t[i] ^= 0x01;
      expect(() => decryptCredentials(key, 'conn-1', t.toString('base64'))).toThrow(CredentialsDecryptError);
    }
    expect(() => decryptCredentials(randomBytes(32), 'conn-1', blob)).toThrow(CredentialsDecryptError);
    expect(() => decryptCredentials(key, 'conn-2', blob)).toThrow(CredentialsDecryptError);
    const v2 = Buffer.from(raw);
    v2[0] = 2;
    expect(() => decryptCredentials(key, 'conn-1', v2.toString('base64'))).toThrow(/unknown format/);
    expect(() => decryptCredentials(key, 'conn-1', 'AAAA')).toThrow(CredentialsDecryptError);
    // The error never carries the secret.
    try {
      decryptCredentials(randomBytes(32), 'conn-1', blob);
    } catch (e) {
      expect(String(e)).not.toContain(creds.secret);
    }
  });

  it('reads a 32-byte base64 key and refuses anything else', () => {
    expect(parseCredentialsKey(key.toString('base64')).equals(key)).toBe(true);
    expect(() => parseCredentialsKey(randomBytes(16).toString('base64'))).toThrow(/32 bytes/);
    expect(() => parseCredentialsKey('not base64 at all!!')).toThrow(/32 bytes/);
    expect(() => encryptCredentials(randomBytes(16), 'c', creds)).toThrow(/32 bytes/);
  });

  it('generates the key file once, mode 0600, and reads it back', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ml-key-'));
    dirs.push(dir);
    const path = join(dir, 'credentials.key');
    const first = loadOrCreateKeyFile(path);
    expect(first.length).toBe(32);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(loadOrCreateKeyFile(path).equals(first)).toBe(true);
    expect(readFileSync(path, 'utf8').trim()).toBe(first.toString('base64'));
    writeFileSync(path, 'garbage');
    expect(() => loadOrCreateKeyFile(path)).toThrow(/32 bytes/);
  });
});
