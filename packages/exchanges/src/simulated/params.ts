import type { AssetClass } from '../ports.js';
import type { Asset } from '../universe/assets.js';
import type { TradingSession } from './session.js';

/** Markets shared a common factor: crypto, equities, the US dollar. */
export type FactorGroup = 'crypto' | 'equity' | 'dollar' | 'none';

/** Model parameters of one simulated asset. */
export interface SimParams {
  id: string;
  asset_class: AssetClass;
  /** The price level the walk reverts to (USD, or the fx rate). */
  anchor: number;
  /** Typical daily log-return volatility. */
  sigma: number;
  /** Loading on the group factor, -1..1 (fx pairs quoted in USD load negatively on the dollar). */
  beta: number;
  group: FactorGroup;
  /** Mean-reversion half-life of the log price towards the anchor, days. */
  halfLife: number;
  /** Typical daily traded base amount on the spot market. */
  dailyVolume: number;
  /** Listed spot (`BASE/QUOTE`). */
  spot: string | null;
  /** Listed perpetual (`BASE/QUOTE:SETTLE`). */
  perp: string | null;
  /** Quote currency of the spot pair. */
  spotQuote: string;
  /** Currency the model's prices are in: the quote of an fx pair, else USD (an on-chain pool is priced in dollars). */
  priceCurrency: string;
  /** When the spot market trades; perpetuals trade around the clock. */
  spotSession: TradingSession;
}

const COIN_ANCHORS: Readonly<Record<string, [number, number]>> = {
  // [anchor price, daily sigma]
  bitcoin: [95_000, 0.028],
  ethereum: [3_400, 0.036],
  binancecoin: [650, 0.03],
  solana: [180, 0.048],
  ripple: [2.3, 0.045],
  dogecoin: [0.2, 0.055],
  cardano: [0.7, 0.05],
  tron: [0.25, 0.03],
  'avalanche-2': [30, 0.055],
  chainlink: [18, 0.052],
  'the-open-network': [3.5, 0.045],
  'shiba-inu': [0.000015, 0.06],
  polkadot: [5, 0.05],
  'bitcoin-cash': [450, 0.045],
  litecoin: [95, 0.042],
  near: [4, 0.058],
  uniswap: [9, 0.058],
  'internet-computer': [8, 0.058],
  aptos: [7, 0.06],
  'ethereum-classic': [22, 0.048],
  stellar: [0.35, 0.048],
  monero: [200, 0.038],
  cosmos: [6, 0.052],
  filecoin: [4, 0.058],
  'hedera-hashgraph': [0.2, 0.058],
  arbitrum: [0.6, 0.062],
  optimism: [1.2, 0.062],
  sui: [3.5, 0.065],
  pepe: [0.00001, 0.075],
  'injective-protocol': [20, 0.065],
  'render-token': [5, 0.065],
  aave: [250, 0.055],
  maker: [1_500, 0.05],
  'the-graph': [0.15, 0.06],
  algorand: [0.25, 0.055],
  vechain: [0.03, 0.055],
  tezos: [0.8, 0.05],
  kaspa: [0.1, 0.06],
  'sei-network': [0.3, 0.07],
  celestia: [4, 0.07],
  bonk: [0.00002, 0.08],
  dogwifcoin: [1.5, 0.085],
  floki: [0.0001, 0.08],
  hyperliquid: [30, 0.065],
  'ondo-finance': [1, 0.065],
  'worldcoin-wld': [1.5, 0.07],
  'immutable-x': [1.2, 0.062],
  stacks: [1.5, 0.062],
  mantle: [0.9, 0.05],
  bittensor: [400, 0.065],
};

const STOCK_ANCHORS: Readonly<Record<string, [number, number]>> = {
  'stock-aapl': [230, 0.016],
  'stock-msft': [420, 0.015],
  'stock-nvda': [140, 0.03],
  'stock-tsla': [300, 0.036],
  'stock-amzn': [200, 0.019],
  'stock-googl': [170, 0.018],
  'stock-meta': [580, 0.022],
  'stock-nflx': [700, 0.022],
  'stock-amd': [140, 0.03],
  'stock-intc': [22, 0.025],
  'stock-orcl': [170, 0.02],
  'stock-jpm': [240, 0.014],
  'stock-dis': [110, 0.016],
  'stock-baba': [100, 0.027],
  'stock-spy': [580, 0.009],
  'stock-qqq': [500, 0.012],
  'stock-coin': [250, 0.045],
  'stock-mstr': [350, 0.05],
  'stock-hood': [50, 0.045],
  'stock-pltr': [80, 0.04],
  'stock-crcl': [100, 0.055],
  'stock-gme': [25, 0.045],
};

/** Stocks listed only as tokenized perpetuals on the simulated venue (no spot market). */
export const PERP_ONLY_STOCKS: ReadonlySet<string> = new Set([
  'stock-coin',
  'stock-mstr',
  'stock-hood',
  'stock-pltr',
  'stock-crcl',
  'stock-gme',
]);

const FX_ANCHORS: Readonly<Record<string, number>> = {
  'fx-eurusd': 1.08,
  'fx-gbpusd': 1.27,
  'fx-usdjpy': 150,
  'fx-audusd': 0.66,
  'fx-usdcad': 1.37,
  'fx-usdchf': 0.88,
  'fx-nzdusd': 0.6,
  'fx-eurgbp': 0.85,
  'fx-eurjpy': 162,
  'fx-gbpjpy': 190,
};

const EXTERNAL_ANCHORS: Readonly<Record<string, [number, string]>> = {
  'onchain-base-brett': [0.08, 'BRETT/WETH'],
  'onchain-solana-popcat': [0.5, 'POPCAT/SOL'],
};

/** Coins with perpetuals: every non-stable coin. Stablecoins trade spot only. */
function coinParams(asset: Asset): SimParams {
  const sym = asset.symbol;
  if (asset.is_stablecoin) {
    return {
      id: asset.id,
      asset_class: 'coins',
      anchor: 1,
      sigma: 0.0004,
      beta: 0,
      group: 'none',
      halfLife: 1.5,
      dailyVolume: asset.id === 'tether' ? 4e9 : 8e8,
      spot: asset.id === 'tether' ? 'USDT/USD' : `${sym}/USDT`,
      perp: null,
      spotQuote: asset.id === 'tether' ? 'USD' : 'USDT',
      priceCurrency: 'USD',
      spotSession: 'always',
    };
  }
  const [anchor, sigma] = COIN_ANCHORS[asset.id] ?? [1, 0.06];
  // Daily USD volume falls with size: bitcoin about $2bn, long tail tens of millions.
  const usd = asset.id === 'bitcoin' ? 2e9 : asset.id === 'ethereum' ? 1e9 : 2.5e7 + (3e8 * 0.03) / sigma / 10;
  return {
    id: asset.id,
    asset_class: 'coins',
    anchor,
    sigma,
    beta: asset.id === 'bitcoin' ? 0.9 : 0.72,
    group: 'crypto',
    halfLife: 120,
    dailyVolume: usd / anchor,
    spot: `${sym}/USDT`,
    perp: `${sym}/USDT:USDT`,
    spotQuote: 'USDT',
    priceCurrency: 'USD',
    spotSession: 'always',
  };
}

/** The model parameters of an asset of the universe; null for an asset the venue does not list. */
export function simParams(asset: Asset): SimParams | null {
  switch (asset.asset_class) {
    case 'coins':
      return coinParams(asset);
    case 'stocks': {
      const row = STOCK_ANCHORS[asset.id];
      if (row === undefined) return null;
      const [anchor, sigma] = row;
      const index = asset.id === 'stock-spy' || asset.id === 'stock-qqq';
      return {
        id: asset.id,
        asset_class: 'stocks',
        anchor,
        sigma,
        beta: index ? 0.95 : 0.6,
        group: 'equity',
        halfLife: 180,
        dailyVolume: 1.5e8 / anchor,
        spot: PERP_ONLY_STOCKS.has(asset.id) ? null : `${asset.symbol}/USD`,
        perp: `${asset.symbol}X/USDT:USDT`,
        spotQuote: 'USD',
        priceCurrency: 'USD',
        spotSession: 'nyse',
      };
    }
    case 'fx': {
      const anchor = FX_ANCHORS[asset.id];
      if (anchor === undefined) return null;
      const base = asset.symbol.slice(0, 3);
      const quote = asset.symbol.slice(3);
      // The dollar factor: a strong dollar lifts USD/xxx and lowers xxx/USD; crosses barely load.
      const beta = base === 'USD' ? 0.7 : quote === 'USD' ? -0.7 : 0.2;
      return {
        id: asset.id,
        asset_class: 'fx',
        anchor,
        sigma: quote === 'JPY' ? 0.0062 : 0.0048,
        beta,
        group: 'dollar',
        halfLife: 250,
        dailyVolume: 5e9 / (base === 'USD' ? 1 : anchor),
        spot: `${base}/${quote}`,
        perp: quote === 'USD' ? `${base}/USDT:USDT` : null,
        spotQuote: quote,
        priceCurrency: quote,
        spotSession: 'fx',
      };
    }
    case 'external': {
      const row = EXTERNAL_ANCHORS[asset.id];
      if (row === undefined) return null;
      return {
        id: asset.id,
        asset_class: 'external',
        anchor: row[0],
        sigma: 0.09,
        beta: 0.5,
        group: 'crypto',
        halfLife: 120,
        dailyVolume: 5e6 / row[0],
        spot: row[1],
        perp: null,
        spotQuote: row[1].split('/')[1] ?? 'USD',
        priceCurrency: 'USD',
        spotSession: 'always',
      };
    }
  }
}
