import { describe, expect, it } from 'vitest';
import { VenueError } from '../errors.js';
import { checkVenueCredentials } from './credentials.js';
import { retryAfterMs, toVenueError, venueMessage } from './errors.js';
import { VENUE_PROFILES } from './venues.js';

const ccxt = await import('ccxt');
const binance = VENUE_PROFILES.binance;

describe('venueMessage', () => {
  it('picks the human text out of a venue JSON body', () => {
    expect(
      venueMessage('binance {"code":-2015,"msg":"Invalid API-key, IP, or permissions for action."}', 'binance'),
    ).toBe('Invalid API-key, IP, or permissions for action.');
    expect(venueMessage('bybit {"retCode":10003,"retMsg":"API key is invalid.","result":{}}', 'bybit')).toBe(
      'API key is invalid.',
    );
    expect(venueMessage('kraken {"error":["EAPI:Invalid key"]}', 'kraken')).toBe('EAPI:Invalid key');
    expect(venueMessage('okx {"code":"1","data":[{"sCode":"51000","sMsg":"Parameter error"}],"msg":""}', 'okx')).toBe(
      'Parameter error',
    );
  });

  it('drops the request line ccxt puts in HTTP-level messages', () => {
    expect(
      venueMessage(
        'coinbase GET http://127.0.0.1:1/https%3A%2F%2Fapi.coinbase.com%2Fx 401 Unauthorized Unauthorized',
        'coinbase',
      ),
    ).toBe('Unauthorized');
    expect(venueMessage('binance GET https://api.binance.com/api/v3/account 503 Service Unavailable ', 'binance')).toBe(
      '503 Service Unavailable',
    );
  });

  it('keeps plain text and clips long text', () => {
    expect(venueMessage('hyperliquid something odd', 'hyperliquid')).toBe('something odd');
    expect(venueMessage(`x ${'a'.repeat(500)}`, 'x').length).toBe(300);
  });
});

describe('retryAfterMs', () => {
  it('reads seconds or an HTTP date', () => {
    expect(retryAfterMs({ 'Retry-After': '7' })).toBe(7000);
    expect(retryAfterMs({ 'retry-after': new Date(10_000).toUTCString() }, 4000)).toBe(6000);
    expect(retryAfterMs({ 'retry-after': 'soon' })).toBeUndefined();
    expect(retryAfterMs(undefined)).toBeUndefined();
  });
});

describe('toVenueError maps ccxt classes (subclasses included) to stable codes', () => {
  const cases: [new (m: string) => Error, string, boolean][] = [
    [ccxt.AuthenticationError, 'authentication_failed', false],
    [ccxt.PermissionDenied, 'authentication_failed', false],
    [ccxt.AccountSuspended, 'authentication_failed', false],
    [ccxt.RateLimitExceeded, 'rate_limited', true],
    [ccxt.DDoSProtection, 'rate_limited', true],
    [ccxt.RequestTimeout, 'timeout', true],
    [ccxt.OnMaintenance, 'maintenance', true],
    [ccxt.ExchangeNotAvailable, 'network', true],
    [ccxt.NetworkError, 'network', true],
    [ccxt.InvalidNonce, 'network', true],
    [ccxt.BadSymbol, 'unknown_market', false],
    [ccxt.BadRequest, 'bad_request', false],
    [ccxt.ArgumentsRequired, 'bad_request', false],
    [ccxt.NotSupported, 'not_supported', false],
    [ccxt.ExchangeError, 'bad_request', false],
    [ccxt.BadResponse, 'network', true],
  ];
  for (const [ErrorClass, code, retryable] of cases) {
    it(`${ErrorClass.name} -> ${code}`, () => {
      const mapped = toVenueError(new ErrorClass('binance {"code":-1,"msg":"venue says no"}'), binance);
      expect(mapped).toBeInstanceOf(VenueError);
      expect(mapped).toMatchObject({ code, retryable, venue: 'binance' });
      expect(mapped.cause).toBeInstanceOf(ErrorClass);
    });
  }

  it('writes venue-specific messages', () => {
    expect(toVenueError(new ccxt.AuthenticationError('binance {"msg":"bad"}'), binance).message).toBe(
      'Binance rejected the API key: bad',
    );
    expect(toVenueError(new ccxt.AuthenticationError('hyperliquid nope'), VENUE_PROFILES.hyperliquid).message).toBe(
      'Hyperliquid rejected the wallet address: nope',
    );
  });

  it('reads maintenance from the words when the class does not say it', () => {
    expect(
      toVenueError(new ccxt.ExchangeNotAvailable('okx System maintenance in progress'), VENUE_PROFILES.okx).code,
    ).toBe('maintenance');
    expect(
      toVenueError(
        new ccxt.ExchangeError('bybit {"retMsg":"System error. Please try again later."}'),
        VENUE_PROFILES.bybit,
      ).code,
    ).toBe('network');
  });

  it('carries Retry-After on rate limits only', () => {
    const headers = { 'retry-after': '3' };
    expect(toVenueError(new ccxt.RateLimitExceeded('x'), binance, headers).retryAfterMs).toBe(3000);
    expect(toVenueError(new ccxt.RequestTimeout('x'), binance, headers).retryAfterMs).toBeUndefined();
  });

  it('passes VenueErrors through and rethrows bugs untouched', () => {
    const own = new VenueError('timeout', 'x');
    expect(toVenueError(own, binance)).toBe(own);
    const bug = new TypeError('undefined is not a function');
    expect(() => toVenueError(bug, binance)).toThrow(bug);
  });
});

describe('checkVenueCredentials', () => {
  it('lists missing fields per venue and checks wallet addresses', () => {
    expect(() => checkVenueCredentials('okx', { apiKey: 'a' })).toThrow('Invalid credentials: secret, password');
    expect(() => checkVenueCredentials('hyperliquid', { walletAddress: '0xabc' })).toThrow(
      /^Invalid credentials: walletAddress/,
    );
    expect(
      checkVenueCredentials('hyperliquid', { walletAddress: ` 0x${'Ab'.repeat(20)} `, apiKey: 'ignored' }),
    ).toEqual({
      walletAddress: `0x${'Ab'.repeat(20)}`,
    });
    expect(() => checkVenueCredentials('ftx', {})).toThrow(VenueError);
  });

  it('refuses characters an HTTP header cannot carry, naming the field and never echoing the value', () => {
    for (const bad of ['\u{1F642}', 'caf\u00e9', 'tab\there', 'nul\u0000']) {
      let thrown: unknown;
      try {
        checkVenueCredentials('bybit', { apiKey: 'key-1', secret: bad });
      } catch (e) {
        thrown = e;
      }
      expect(thrown).toBeInstanceOf(VenueError);
      expect((thrown as VenueError).message).toBe('Invalid credentials: secret (only printable ASCII characters)');
    }
    expect(() => checkVenueCredentials('bybit', { apiKey: 'key\r\nX-Injected: 1', secret: 's' })).toThrow(
      'Invalid credentials: apiKey (only printable ASCII characters)',
    );
    const pem = '-----BEGIN EC PRIVATE KEY-----\nMHcCAQEE\n-----END EC PRIVATE KEY-----';
    expect(checkVenueCredentials('coinbase', { apiKey: 'organizations/o/apiKeys/k', secret: pem })).toMatchObject({
      secret: pem,
    });
    expect(checkVenueCredentials('okx', { apiKey: 'k', secret: 's', password: 'pass phrase!~' })).toEqual({
      apiKey: 'k',
      secret: 's',
      password: 'pass phrase!~',
    });
  });
});
