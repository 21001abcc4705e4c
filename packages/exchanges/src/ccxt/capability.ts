/**
 * Whether a venue offers a ccxt method: `native` (the venue has an endpoint for it), `emulated`
 * (ccxt builds it from other endpoints, e.g. a ticker taken from the all-tickers list), or `none`.
 * ccxt's `has` map is tri-state (`true`, `'emulated'`, `false`/absent); this keeps all three.
 */
export type Capability = 'native' | 'emulated' | 'none';

/** A ccxt `has` value as a {@link Capability}. */
export function capability(value: boolean | 'emulated' | undefined | null): Capability {
  if (value === true) return 'native';
  if (value === 'emulated') return 'emulated';
  return 'none';
}

/** True when the method can be called at all (native or emulated). */
export function available(value: boolean | 'emulated' | undefined | null): boolean {
  return capability(value) !== 'none';
}
