import { createSimulatedVenue } from '@marketlens/exchanges';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { atom, feedServer, rss } from '../../../test/support/feeds.js';
import { harness } from '../../../test/support/harness.js';
import { createApp } from '../../app.js';
import { DEFAULT_CONFIG } from '../../platform/deps.js';
import { createSqliteStorage } from '../../storage/sqlite/sqlite-storage.js';
import { NewsFeeds } from '../news/news.js';

const NOW = Date.UTC(2026, 0, 15, 12);
const routes = new Map<string, { status: number; body: string }>();
let srv: Awaited<ReturnType<typeof feedServer>>;
let news: NewsFeeds;
let app: ReturnType<typeof createApp>;
let session: Record<string, string>;

interface Body {
  success: boolean;
  code: number | string;
  data: { id: string; title: string; date: string; url: string; source: string; icon?: string | null }[];
}

const get = async (path: string, headers: Record<string, string> = session) => {
  const res = await app.request(path, { headers }, { incoming: { socket: { remoteAddress: '203.0.113.9' } } });
  return { status: res.status, body: (await res.json()) as Body };
};

beforeAll(async () => {
  srv = await feedServer(routes);
  const day = (d: number) => new Date(Date.UTC(2026, 0, d, 9)).toISOString();
  routes.set('/rss.xml', {
    status: 200,
    body: rss(
      'RSS Source',
      Array.from({ length: 60 }, (_, i) => ({
        title: `rss ${i}`,
        link: `https://rss.test/${i}`,
        guid: `rss-${i}`,
        date: new Date(Date.UTC(2025, 10, 1) + i * 3_600_000).toISOString(),
      })),
    ),
  });
  routes.set('/atom.xml', {
    status: 200,
    body: atom('Atom Source', [
      { title: 'newest', link: 'https://atom.test/newest', id: 'urn:n', updated: day(14) },
      { title: 'same story', link: 'https://rss.test/59', id: 'urn:dup', updated: day(13) },
      ...Array.from({ length: 60 }, (_, i) => ({
        title: `atom ${i}`,
        link: `https://atom.test/${i}`,
        id: `urn:atom-${i}`,
        updated: new Date(Date.UTC(2025, 9, 1) + i * 3_600_000).toISOString(),
      })),
    ]),
  });
  news = new NewsFeeds({ feeds: [srv.url('/rss.xml'), srv.url('/atom.xml')], refreshMs: 60_000, timeoutMs: 500 });
  const storage = createSqliteStorage(':memory:');
  const now = () => NOW;
  app = createApp(
    { storage, config: DEFAULT_CONFIG, now, market: createSimulatedVenue({ now }), news },
    { logError: () => {} },
  );
  const res = await app.request(
    '/v1/auth/signup',
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'news@example.com', password: 'password-123' }),
    },
    { incoming: { socket: { remoteAddress: '203.0.113.9' } } },
  );
  const b = (await res.json()) as { data: { session_token: string } };
  session = { 'x-session-token': b.data.session_token };
});

afterAll(() => srv.close());

describe('GET /v1/news/', () => {
  it('answers an empty list before the first fetch', async () => {
    const { status, body } = await get('/v1/news/');
    expect([status, body.success, body.data]).toEqual([200, true, []]);
  });

  it('serves 5 items by default, newest first, one copy of a story in two feeds', async () => {
    await news.refresh();
    const { status, body } = await get('/v1/news/');
    expect(status).toBe(200);
    expect(body.data.map((i) => i.title)).toEqual(['newest', 'rss 59', 'rss 58', 'rss 57', 'rss 56']);
    expect(body.data[1].source).toBe('RSS Source');
    const all = (await get('/v1/news/?limit=100')).body.data;
    expect(all).toHaveLength(100);
    expect(all.filter((i) => i.url === 'https://rss.test/59')).toHaveLength(1);
    for (let k = 1; k < all.length; k++) expect(all[k - 1].date >= all[k].date).toBe(true);
  });

  it('bounds limit to 1..100 and ignores _asset_id', async () => {
    expect((await get('/v1/news/?limit=1')).body.data).toHaveLength(1);
    for (const bad of ['0', '101', '-1', 'x', '2.5']) {
      const { status, body } = await get(`/v1/news/?limit=${bad}`);
      expect([bad, status, body.success, body.code]).toEqual([bad, 400, false, 'InvalidRequest']);
    }
    const a = await get('/v1/news/?limit=3&_asset_id=bitcoin');
    const b = await get('/v1/news/?limit=3');
    expect(a.body.data).toEqual(b.body.data);
  });

  it('keeps serving the previous items when every feed fails', async () => {
    const before = (await get('/v1/news/?limit=10')).body.data;
    routes.set('/rss.xml', { status: 500, body: '' });
    routes.set('/atom.xml', { status: 200, body: '<html>not a feed' });
    await news.refresh();
    expect((await get('/v1/news/?limit=10')).body.data).toEqual(before);
  });

  it('needs a session (news is not one of the API-key routes)', async () => {
    expect((await get('/v1/news/', {})).status).toBe(401);
  });

  it('serves an empty list on an app without a news source', async () => {
    const h = harness();
    const { token } = await h.signup();
    const res = await h.request('/v1/news/?limit=100', { headers: { 'x-session-token': token } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as Body).data).toEqual([]);
  });
});
