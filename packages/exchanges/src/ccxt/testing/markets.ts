import type { CcxtMarket } from '../client.js';

/** The facts of a test market; the rest of the ccxt market structure is filled in. */
export interface MarketSpec {
  id: string;
  base: string;
  quote: string;
  /** Settlement currency; set for derivatives. */
  settle?: string;
  type: 'spot' | 'swap' | 'future';
  symbol?: string;
  baseId?: string;
  quoteId?: string;
  settleId?: string;
  contractSize?: number;
  inverse?: boolean;
  amountPrecision?: number;
  pricePrecision?: number;
  info?: Record<string, unknown>;
  /** Venue-specific market fields ccxt adds (Hyperliquid `baseName`, Kraken `altname`). */
  extra?: Record<string, unknown>;
}

/**
 * A ccxt market structure as `loadMarkets` would build it, for `setMarkets` in tests: the unified
 * symbol (`BASE/QUOTE`, `BASE/QUOTE:SETTLE`), type flags, linear/inverse, contract size.
 */
export function ccxtMarket(spec: MarketSpec): CcxtMarket {
  const spot = spec.type === 'spot';
  const settle = spec.settle ?? (spot ? undefined : spec.quote);
  const inverse = !spot && (spec.inverse ?? settle === spec.base);
  const market = {
    id: spec.id,
    lowercaseId: spec.id.toLowerCase(),
    symbol: spec.symbol ?? (spot ? `${spec.base}/${spec.quote}` : `${spec.base}/${spec.quote}:${settle}`),
    base: spec.base,
    quote: spec.quote,
    settle,
    baseId: spec.baseId ?? spec.base,
    quoteId: spec.quoteId ?? spec.quote,
    settleId: spec.settleId ?? settle,
    type: spec.type,
    spot,
    margin: false,
    swap: spec.type === 'swap',
    future: spec.type === 'future',
    option: false,
    index: undefined,
    active: true,
    contract: !spot,
    linear: spot ? undefined : !inverse,
    inverse: spot ? undefined : inverse,
    subType: spot ? undefined : inverse ? 'inverse' : 'linear',
    taker: 0.001,
    maker: 0.001,
    contractSize: spot ? undefined : (spec.contractSize ?? 1),
    expiry: undefined,
    expiryDatetime: undefined,
    strike: undefined,
    optionType: undefined,
    precision: { amount: spec.amountPrecision ?? 0.001, price: spec.pricePrecision ?? 0.01 },
    limits: { amount: {}, price: {}, cost: {}, leverage: {} },
    created: undefined,
    info: spec.info ?? {},
    ...(spec.extra ?? {}),
  };
  return market as unknown as CcxtMarket;
}
