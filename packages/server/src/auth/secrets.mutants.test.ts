/**
 * Passwords and secrets against their documented formats: `scrypt$N$r$p$salt$hash` with the
 * parameters it names (so a hash made with other parameters still verifies), anything else refused,
 * bearer secrets as prefix + 32 random bytes, and their stored digest as SHA-256 hex. Expected
 * values are recomputed here with node:crypto, not read from earlier output. Written against the
 * survivors of `MUTATION_MODULES=auth pnpm mutation:server` (docs/testing.md).
 */
import { createHash, randomBytes, scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashPassword, newSecret, secretHash, verifyPassword } from './secrets.js';

/** A stored hash in the documented format, made here with the given scrypt parameters. */
function storedHash(password: string, N: number, r: number, p: number, keylen: number): string {
  const salt = randomBytes(16);
  const key = scryptSync(password, salt, keylen, { N, r, p, maxmem: 256 * N * r });
  return ['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

describe('hashPassword', () => {
  it('writes scrypt$16384$8$1$salt$hash: 16 random salt bytes and the 64-byte scrypt key of that salt', async () => {
    const stored = await hashPassword('correct horse 1');
    const parts = stored.split('$');
    expect(parts.slice(0, 4)).toEqual(['scrypt', '16384', '8', '1']);
    expect(parts).toHaveLength(6);
    const salt = Buffer.from(parts[4], 'base64url');
    expect(salt).toHaveLength(16);
    const key = scryptSync('correct horse 1', salt, 64, { N: 16384, r: 8, p: 1 });
    expect(parts[5]).toBe(key.toString('base64url'));
    // a fresh salt each time
    expect((await hashPassword('correct horse 1')).split('$')[4]).not.toBe(parts[4]);
  });
});

describe('verifyPassword', () => {
  it('accepts the password a hash was made from and refuses any other', async () => {
    const stored = await hashPassword('correct horse 1');
    expect(await verifyPassword('correct horse 1', stored)).toBe(true);
    expect(await verifyPassword('correct horse 2', stored)).toBe(false);
    expect(await verifyPassword('', stored)).toBe(false);
  });

  it('derives with the parameters the hash names, so older or other parameters still verify', async () => {
    for (const [N, r, p, keylen] of [
      [1024, 8, 1, 64],
      [2048, 4, 2, 32],
    ] as const) {
      const stored = storedHash('old password', N, r, p, keylen);
      expect(await verifyPassword('old password', stored)).toBe(true);
      expect(await verifyPassword('old passwore', stored)).toBe(false);
    }
  });

  it('refuses a hash that is not scrypt$N$r$p$salt$hash, even for the right password', async () => {
    const good = storedHash('pw', 1024, 8, 1, 64);
    expect(await verifyPassword('pw', good)).toBe(true);
    const [, N, r, p, salt, key] = good.split('$');
    for (const bad of [
      ['bcrypt', N, r, p, salt, key].join('$'),
      ['', N, r, p, salt, key].join('$'),
      [N, r, p, salt, key].join('$'),
      `${good}$extra`,
      `${good}$`,
      '',
    ]) {
      expect(await verifyPassword('pw', bad)).toBe(false);
    }
  });
});

describe('newSecret and secretHash', () => {
  it('is the prefix and 32 random bytes in base64url', () => {
    for (const prefix of ['mls_', 'mlk_', 'mlv_']) {
      const s = newSecret(prefix);
      expect(s.startsWith(prefix)).toBe(true);
      const body = s.slice(prefix.length);
      expect(body).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(body, 'base64url')).toHaveLength(32);
    }
    expect(newSecret('mls_')).not.toBe(newSecret('mls_'));
  });

  it('stores the SHA-256 digest in hex', () => {
    // the FIPS 180-2 test vector for "abc"
    expect(secretHash('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    const s = newSecret('mls_');
    expect(secretHash(s)).toBe(createHash('sha256').update(s).digest('hex'));
  });
});
