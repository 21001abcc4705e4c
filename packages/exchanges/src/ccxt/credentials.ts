import { VenueError } from '../errors.js';
import { type CredentialField, type VenueCredentials, type VenueProfile, venueProfile } from './venues.js';

/** An EVM account address: `0x` and 40 hex digits (checksummed or not). */
const WALLET_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** Space through tilde: what an API key, secret or passphrase may contain. */
const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;

/** Printable ASCII and line breaks: an HMAC secret, or a PEM private key. */
const SECRET_TEXT = /^[\x20-\x7e\r\n]+$/;

/** True when `value` looks like an EVM wallet address (`0x` + 40 hex digits). */
export function isWalletAddress(value: string): boolean {
  return WALLET_ADDRESS.test(value);
}

/**
 * Checks a connection's credentials before anything is sent to the venue: every field the venue
 * requires must be a non-blank string, and a wallet address must be `0x` + 40 hex digits.
 * Returns the trimmed fields the venue uses; throws `VenueError('invalid_credentials')` with
 * `Invalid credentials: <missing fields>` otherwise.
 */
export function checkCredentials(profile: VenueProfile, credentials: VenueCredentials): VenueCredentials {
  const missing: CredentialField[] = [];
  const out: VenueCredentials = {};
  for (const field of profile.credentials) {
    const value = credentials[field];
    if (typeof value !== 'string' || value.trim() === '') missing.push(field);
    else out[field] = value.trim();
  }
  if (missing.length > 0) {
    throw new VenueError('invalid_credentials', `Invalid credentials: ${missing.join(', ')}`, { venue: profile.id });
  }
  // The key and passphrase travel in HTTP headers and the secret is signing material (a PEM key spans
  // lines): anything else would fail inside the HTTP client, or sign with a key the venue never issued.
  // Refuse it here, naming the field only.
  const unprintable = profile.credentials.filter((f) => {
    const value = out[f];
    return value !== undefined && !(f === 'secret' ? SECRET_TEXT : PRINTABLE_ASCII).test(value);
  });
  if (unprintable.length > 0) {
    throw new VenueError(
      'invalid_credentials',
      `Invalid credentials: ${unprintable.join(', ')} (only printable ASCII characters)`,
      { venue: profile.id },
    );
  }
  const wallet = out.walletAddress;
  if (wallet !== undefined && !isWalletAddress(wallet)) {
    throw new VenueError(
      'invalid_credentials',
      'Invalid credentials: walletAddress (expected 0x followed by 40 hexadecimal digits)',
      { venue: profile.id },
    );
  }
  return out;
}

/**
 * `checkCredentials` by venue id: for a connection form, before anything is sent. Throws
 * `VenueError('not_supported')` for a venue not served through ccxt.
 */
export function checkVenueCredentials(venue: string, credentials: VenueCredentials): VenueCredentials {
  return checkCredentials(venueProfile(venue), credentials);
}
