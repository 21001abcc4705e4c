import { mk, tryCall, close, M } from './probe.mjs';
const markets = [
  M({ id: 'BTCUSDT', base: 'BTC', quote: 'USDT', type: 'spot', info: {} }),
  M({ id: 'BTCUSDT', base: 'BTC', quote: 'USDT', settle: 'USDT', type: 'swap', info: {} }),
];
const ex = mk('bybit', { apiKey: 'k', secret: 's' }, markets);
await tryCall('positions', () => ex.fetchPositions());
await tryCall('balance', () => ex.fetchBalance());
await tryCall('mytrades', () => ex.fetchMyTrades(undefined, 1700000000000, 10));
await tryCall('mytrades spot', () => ex.fetchMyTrades(undefined, 1700000000000, 10, { type: 'spot' }));
await tryCall('openorders', () => ex.fetchOpenOrders());
await tryCall('openorders trig', () => ex.fetchOpenOrders(undefined, undefined, undefined, { trigger: true }));
await tryCall('funding hist', () => ex.fetchFundingHistory(undefined, 1700000000000, 100));
await tryCall('ohlcv', () => ex.fetchOHLCV('BTC/USDT', '1h', 1700000000000, 10));
await tryCall('ticker', () => ex.fetchTicker('BTC/USDT'));
await tryCall('fundingrate', () => ex.fetchFundingRate('BTC/USDT:USDT'));
close();
