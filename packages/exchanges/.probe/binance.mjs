import { mk, tryCall, close, M, setResponder } from './probe.mjs';
const markets = [
  M({ id: 'BTCUSDT', base: 'BTC', quote: 'USDT', type: 'spot', extra: { lowercaseId: 'btcusdt' } }),
  M({ id: 'BTCUSDT', base: 'BTC', quote: 'USDT', settle: 'USDT', type: 'swap', extra: { lowercaseId: 'btcusdt' } }),
];
const ex = mk('binance', { apiKey: 'k', secret: 's' }, markets);
await tryCall('positions', () => ex.fetchPositions());
await tryCall('balance spot', () => ex.fetchBalance());
await tryCall('balance future', () => ex.fetchBalance({ type: 'future' }));
await tryCall('mytrades spot', () => ex.fetchMyTrades('BTC/USDT', 1700000000000, 10));
await tryCall('mytrades swap', () => ex.fetchMyTrades('BTC/USDT:USDT', 1700000000000, 10));
await tryCall('openorders swap', () => ex.fetchOpenOrders('BTC/USDT:USDT'));
await tryCall('openorders swap all', () => ex.fetchOpenOrders(undefined, undefined, undefined, { type: 'future' }));
await tryCall('funding hist', () => ex.fetchFundingHistory(undefined, 1700000000000, 100));
await tryCall('ohlcv', () => ex.fetchOHLCV('BTC/USDT', '1h', 1700000000000, 10));
await tryCall('ticker', () => ex.fetchTicker('BTC/USDT'));
await tryCall('fundingrate', () => ex.fetchFundingRate('BTC/USDT:USDT'));
close();
