import { mk, tryCall, close, M } from './probe.mjs';
const markets = [
  M({ id: 'XXBTZUSD', base: 'BTC', quote: 'USD', baseId: 'XXBT', quoteId: 'ZUSD', type: 'spot', info: { altname: 'XBTUSD', wsname: 'XBT/USD' }, extra: { altname: 'XBTUSD' } }),
];
const ex = mk('kraken', { apiKey: 'k', secret: 'c2VjcmV0' }, markets);
await tryCall('positions', () => ex.fetchPositions());
await tryCall('balance', () => ex.fetchBalance());
await tryCall('mytrades', () => ex.fetchMyTrades(undefined, 1700000000000, 10));
await tryCall('openorders', () => ex.fetchOpenOrders());
await tryCall('ohlcv', () => ex.fetchOHLCV('BTC/USD', '1h', 1700000000000, 10));
await tryCall('ticker', () => ex.fetchTicker('BTC/USD'));
close();
