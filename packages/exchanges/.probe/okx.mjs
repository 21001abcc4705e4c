import { mk, tryCall, close, M } from './probe.mjs';
const markets = [
  M({ id: 'BTC-USDT', base: 'BTC', quote: 'USDT', type: 'spot', info: { instType: 'SPOT' } }),
  M({ id: 'BTC-USDT-SWAP', base: 'BTC', quote: 'USDT', settle: 'USDT', type: 'swap', contractSize: 0.01, info: { instType: 'SWAP' } }),
];
const ex = mk('okx', { apiKey: 'k', secret: 's', password: 'p' }, markets);
await tryCall('positions', () => ex.fetchPositions());
await tryCall('balance', () => ex.fetchBalance());
await tryCall('balance funding', () => ex.fetchBalance({ type: 'funding' }));
await tryCall('mytrades', () => ex.fetchMyTrades(undefined, 1700000000000, 10));
await tryCall('openorders', () => ex.fetchOpenOrders());
await tryCall('openorders trig', () => ex.fetchOpenOrders(undefined, undefined, undefined, { trigger: true }));
await tryCall('openorders cond', () => ex.fetchOpenOrders(undefined, undefined, undefined, { ordType: 'conditional' }));
await tryCall('funding hist', () => ex.fetchFundingHistory(undefined, 1700000000000, 100));
await tryCall('ohlcv', () => ex.fetchOHLCV('BTC/USDT', '1h', 1700000000000, 10));
await tryCall('ticker', () => ex.fetchTicker('BTC/USDT'));
await tryCall('fundingrate', () => ex.fetchFundingRate('BTC/USDT:USDT'));
close();
