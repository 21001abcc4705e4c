import { ExchangeIdParams } from '@marketlens/contract';
import { restTable } from '../../platform/rest-table.js';

export const exchangeRoutes = restTable('Exchanges', {
  'market.exchanges': [
    { get: '/v1/exchanges', id: 'listExchanges', ok: ['Exchanges', 'ExchangeListEnvelope'] },
    'Exchange catalog',
    'Every venue marketlens can read. Volumes are live for the venue the server reads market data from.',
  ],
  'market.exchange': [
    {
      get: '/v1/exchanges/{exchange_id}',
      id: 'getExchange',
      params: ExchangeIdParams,
      ok: ['The exchange', 'ExchangeDetailEnvelope'],
      errors: [404, 503],
    },
    'One exchange with pair counts and tickers',
    'Unknown exchange: 404 `UnknownExchange`. Pair counts are the markets the venue lists (a ccxt venue: its loaded markets) and tickers those of its tracked markets; a ccxt venue the server does not read market data from is read for this answer (at most once a minute), 503 `ServiceUnavailable` when it cannot be. `futures_open_interest_usd` is null where the venue does not report open interest; unknown is null, never 0.',
  ],
});
