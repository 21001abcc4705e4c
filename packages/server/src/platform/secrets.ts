/**
 * Connection credentials at rest: AES-256-GCM with a 32-byte key from configuration
 * (`MARKETLENS_SECRET_KEY`, base64) or, for the embedded default, a key file generated once in the
 * data directory (mode 0600). A blob is `base64(version | iv | tag | ciphertext)`; the connection id
 * is the additional authenticated data, so a blob copied onto another connection does not open.
 * Nothing here logs, and no error message carries a credential. Infrastructure, not a feature: the
 * accounts' connection credentials and the alerts' webhook secrets are both sealed with it, under the
 * app's key ({@link credentialsKeyOf}).
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import type { VenueCredentials } from '@marketlens/exchanges';
import type { AppDeps } from './deps.js';

/** Key length of AES-256. */
export const CREDENTIALS_KEY_BYTES = 32;
/** The first byte of every blob: the format version. */
const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** File name of the generated key in the data directory. */
export const KEY_FILE_NAME = 'credentials.key';

/** Thrown when a blob does not open: wrong key, tampered, truncated or of an unknown version. */
export class CredentialsDecryptError extends Error {
  override readonly name = 'CredentialsDecryptError';
}

/** Reads a base64 key; throws unless it decodes to exactly 32 bytes. */
export function parseCredentialsKey(base64: string): Buffer {
  const text = base64.trim();
  const key = Buffer.from(text, 'base64');
  // Buffer.from ignores characters outside the alphabet; a round trip catches a malformed value.
  if (key.length !== CREDENTIALS_KEY_BYTES || key.toString('base64').replace(/=+$/, '') !== text.replace(/=+$/, '')) {
    throw new Error(`MARKETLENS_SECRET_KEY must be ${CREDENTIALS_KEY_BYTES} bytes, base64-encoded`);
  }
  return key;
}

/**
 * The key file at `path`: read when it exists, else created with a random key (mode 0600, created
 * exclusively so two processes starting together agree on one key).
 */
export function loadOrCreateKeyFile(path: string): Buffer {
  try {
    return parseCredentialsKey(readFileSync(path, 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  try {
    writeFileSync(path, `${randomBytes(CREDENTIALS_KEY_BYTES).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    chmodSync(path, 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return parseCredentialsKey(readFileSync(path, 'utf8'));
}

function checkKey(key: Uint8Array): void {
  if (key.length !== CREDENTIALS_KEY_BYTES) throw new Error(`credentials key must be ${CREDENTIALS_KEY_BYTES} bytes`);
}

/** Encrypts credentials for the connection `connectionId`. */
export function encryptCredentials(key: Uint8Array, connectionId: string, credentials: VenueCredentials): string {
  checkKey(key);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(connectionId, 'utf8'));
  const body = Buffer.concat([cipher.update(JSON.stringify(credentials), 'utf8'), cipher.final()]);
  return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), body]).toString('base64');
}

/** Opens a blob of {@link encryptCredentials}; throws {@link CredentialsDecryptError} when it does not. */
export function decryptCredentials(key: Uint8Array, connectionId: string, blob: string): VenueCredentials {
  checkKey(key);
  const raw = Buffer.from(blob, 'base64');
  if (raw.length < 1 + IV_BYTES + TAG_BYTES || raw[0] !== VERSION) {
    throw new CredentialsDecryptError('stored credentials are of an unknown format');
  }
  const iv = raw.subarray(1, 1 + IV_BYTES);
  const tag = raw.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES);
  const body = raw.subarray(1 + IV_BYTES + TAG_BYTES);
  let text: string;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv);
    decipher.setAAD(Buffer.from(connectionId, 'utf8'));
    decipher.setAuthTag(tag);
    text = Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
  } catch {
    throw new CredentialsDecryptError('stored credentials do not open with the configured key');
  }
  const parsed: unknown = JSON.parse(text);
  const out: VenueCredentials = {};
  if (parsed !== null && typeof parsed === 'object') {
    for (const [k, v] of Object.entries(parsed as Record<string, unknown>)) {
      if ((k === 'apiKey' || k === 'secret' || k === 'password' || k === 'walletAddress') && typeof v === 'string') {
        out[k] = v;
      }
    }
  }
  return out;
}

/**
 * The credentials key of an app: the configured one, else one random key for the app's life,
 * kept on its deps (never persisted).
 */
export function credentialsKeyOf(deps: AppDeps): Uint8Array {
  deps.credentialsKey ??= randomBytes(CREDENTIALS_KEY_BYTES);
  return deps.credentialsKey;
}

/**
 * Decrypts a stored blob with the credentials key, or, when it does not open, with the key before
 * a rotation (`previousCredentialsKey`); throws `CredentialsDecryptError` when neither opens it.
 */
export function openCredentials(deps: AppDeps, id: string, blob: string): VenueCredentials {
  try {
    return decryptCredentials(credentialsKeyOf(deps), id, blob);
  } catch (err) {
    const previous = deps.previousCredentialsKey;
    if (previous === undefined || !(err instanceof CredentialsDecryptError)) throw err;
    return decryptCredentials(previous, id, blob);
  }
}
