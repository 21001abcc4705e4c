import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  cachedBody,
  codedVariant,
  MIN_COMPRESSED_BYTES,
  negotiate,
  noneMatch,
  preferredCoding,
  variantOf,
} from './cached-body.js';

const json = JSON.stringify({ success: true, data: Array.from({ length: 200 }, (_, i) => ({ i, name: `row ${i}` })) });

describe('cachedBody', () => {
  it('holds the UTF-8 bytes and a strong tag that is a hash of exactly them', () => {
    const body = cachedBody('{"a":"é"}');
    expect(Buffer.from(body.bytes).toString('utf8')).toBe('{"a":"é"}');
    expect(body.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(cachedBody('{"a":"é"}').etag).toBe(body.etag);
    expect(cachedBody('{"a":"e"}').etag).not.toBe(body.etag);
  });
});

describe('variantOf', () => {
  it('sends the identity until the coded variant is made, off the request path, then that variant', async () => {
    const body = cachedBody(json);
    expect(variantOf(body, 'gzip')).toBe(body);
    expect(variantOf(body, 'gzip')).toBe(body);
    const gzip = await codedVariant(body, 'gzip');
    expect(variantOf(body, 'gzip')).toBe(gzip);
    expect(variantOf(body, null)).toBe(body);
    expect(body.coded.br).toBeUndefined();
  });

  it('compresses once per coding, to bytes that decode to the identity bytes, under their own tag', async () => {
    const body = cachedBody(json);
    const [gzip, br] = await Promise.all([codedVariant(body, 'gzip'), codedVariant(body, 'br')]);
    expect(gunzipSync(gzip.bytes).equals(Buffer.from(body.bytes))).toBe(true);
    expect(brotliDecompressSync(br.bytes).equals(Buffer.from(body.bytes))).toBe(true);
    expect(gzip.bytes.byteLength).toBeLessThan(body.bytes.byteLength);
    expect([gzip.coding, br.coding]).toEqual(['gzip', 'br']);
    expect(new Set([body.etag, gzip.etag, br.etag]).size).toBe(3);
    expect(gzip.etag).toBe(`${body.etag.slice(0, -1)}-gzip"`);
    expect(await codedVariant(body, 'gzip')).toBe(gzip);
    expect(variantOf(body, 'br')).toBe(br);
  });

  it('sends a tiny body as it is', async () => {
    const body = cachedBody('x'.repeat(MIN_COMPRESSED_BYTES - 1));
    expect(variantOf(body, 'gzip')).toBe(body);
    expect(await codedVariant(body, 'br')).toBe(body);
    expect(body.coded).toEqual({});
  });

  it('keeps the identity when the coding would not make the body smaller', async () => {
    const random = Buffer.from(Array.from({ length: 2048 }, (_, i) => (i * 7919 + 13) % 251)).toString('base64');
    const body = cachedBody(random.slice(0, 1100));
    const gzip = await codedVariant(body, 'gzip');
    expect(gzip.bytes.byteLength).toBeLessThanOrEqual(body.bytes.byteLength);
    if (gzip !== body) expect(gzip.coding).toBe('gzip');
  });
});

describe('preferredCoding', () => {
  it('sends the identity without Accept-Encoding, or with an empty one', () => {
    expect(preferredCoding(undefined)).toBeNull();
    expect(preferredCoding('')).toBeNull();
    expect(preferredCoding('identity')).toBeNull();
    expect(preferredCoding('deflate, zstd')).toBeNull();
  });

  it('picks the highest qvalue, brotli on a tie', () => {
    expect(preferredCoding('gzip, deflate, br')).toBe('br');
    expect(preferredCoding('gzip')).toBe('gzip');
    expect(preferredCoding('x-gzip')).toBe('gzip');
    expect(preferredCoding('GZIP;Q=0.9, br;q=0.5')).toBe('gzip');
    expect(preferredCoding('br;q=0.2, gzip;q=0.1')).toBe('br');
    expect(preferredCoding('*')).toBe('br');
    expect(preferredCoding('gzip;q=0.5, *;q=0.8')).toBe('br');
  });

  it('honours q=0 refusals', () => {
    expect(preferredCoding('br;q=0, gzip')).toBe('gzip');
    expect(preferredCoding('gzip;q=0, br;q=0')).toBeNull();
    expect(preferredCoding('*;q=0')).toBeNull();
    expect(preferredCoding('*, br;q=0')).toBe('gzip');
    expect(preferredCoding('br;q=0.000, gzip;q=0.001')).toBe('gzip');
  });

  it('prefers the identity only when the client rates it above every coding', () => {
    expect(preferredCoding('gzip;q=0.5')).toBe('gzip');
    expect(preferredCoding('gzip;q=0.5, identity')).toBeNull();
    expect(preferredCoding('gzip, identity;q=0')).toBe('gzip');
  });

  it('lists every accepted coding, best first', () => {
    expect(negotiate('gzip;q=0.9, br;q=0.5').accepted).toEqual(['gzip', 'br']);
    expect(negotiate('gzip, identity').accepted).toEqual(['gzip']);
    expect(negotiate('gzip;q=0.5, identity')).toEqual({ preferred: null, accepted: ['gzip'] });
    expect(negotiate(undefined)).toEqual({ preferred: null, accepted: [] });
  });

  it('ignores malformed elements', () => {
    expect(preferredCoding('br;q=2, gzip;q=abc')).toBeNull();
    expect(preferredCoding('br;q=1.5, gzip;q=0.3')).toBe('gzip');
    expect(preferredCoding(' , ;q=1, gzip')).toBe('gzip');
  });
});

describe('noneMatch', () => {
  const tag = '"abc"';
  it('matches the same tag, alone or in a list, weak or strong, and *', () => {
    expect(noneMatch('"abc"', tag)).toBe(true);
    expect(noneMatch('W/"abc"', tag)).toBe(true);
    expect(noneMatch('"x", "abc"', tag)).toBe(true);
    expect(noneMatch('"x",W/"abc" ,"y"', tag)).toBe(true);
    expect(noneMatch('"a,b", "abc"', tag)).toBe(true);
    expect(noneMatch('*', tag)).toBe(true);
    expect(noneMatch(' * ', tag)).toBe(true);
  });

  it('does not match other tags, an absent header or a malformed one', () => {
    expect(noneMatch(undefined, tag)).toBe(false);
    expect(noneMatch('', tag)).toBe(false);
    expect(noneMatch('"abcd"', tag)).toBe(false);
    expect(noneMatch('"ab"', tag)).toBe(false);
    expect(noneMatch('abc', tag)).toBe(false);
    expect(noneMatch('"x", abc, "abc"', tag)).toBe(false);
    expect(noneMatch('"abc', tag)).toBe(false);
    expect(noneMatch('w/"abc"', tag)).toBe(false);
    expect(noneMatch('"x", *', tag)).toBe(false);
  });
});
