import { NewsQuery } from '@marketlens/contract';
import { restTable } from '../../platform/rest-table.js';

export const newsRoutes = restTable('News', {
  'market.news': [
    { get: '/v1/news/', id: 'listNews', query: NewsQuery, ok: ['News items, newest first', 'NewsListEnvelope'] },
    'News, newest first',
    'Items of the configured RSS and Atom feeds, fetched in the background and served from memory; the same story in two feeds (same guid or link) is listed once. Before the first fetch, or with no feeds configured, the list is empty.',
  ],
});
