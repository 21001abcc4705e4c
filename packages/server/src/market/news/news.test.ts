import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { atom, feedServer, rss } from '../../../test/support/feeds.js';
import { EXAMPLE_NEWS_FEED, mergeNews, NewsFeeds, type NewsItem, parseNewsItems, plainText } from './news.js';

const NOW = Date.UTC(2026, 0, 15, 12);

describe('parseNewsItems', () => {
  it('reads RSS 2.0: source from the channel title, HTML descriptions as plain text', () => {
    const items = parseNewsItems(
      rss('RSS Daily', [{ title: 'One', link: 'https://rss.test/1', guid: 'g1', date: '2026-01-14T10:00:00Z' }]),
      'http://x/feed',
      NOW,
    );
    expect(items).toEqual([
      {
        id: expect.any(String),
        source: 'RSS Daily',
        title: 'One',
        description: 'About One & more',
        url: 'https://rss.test/1',
        date: '2026-01-14T10:00:00.000Z',
        icon: null,
      },
    ]);
  });

  it('reads Atom with the feed icon, and dates undated items by first sight', () => {
    const [a] = parseNewsItems(
      atom('Atom Wire', [{ title: 'A', link: 'https://atom.test/a', id: 'urn:a', updated: '2026-01-13T08:00:00Z' }]),
      'http://x/atom',
      NOW,
    );
    expect(a).toMatchObject({ source: 'Atom Wire', url: 'https://atom.test/a', icon: 'https://atom.test/icon.png' });
    expect(a.date).toBe('2026-01-13T08:00:00.000Z');
    const undated = rss('R', [{ title: 'U', link: 'https://rss.test/u' }]);
    const [first] = parseNewsItems(undated, 'f', NOW);
    expect(first.date).toBe(new Date(NOW).toISOString());
    const [again] = parseNewsItems(undated, 'f', NOW + 60_000, (id) => (id === first.id ? first.date : undefined));
    expect(again.date).toBe(first.date);
  });

  it('keeps ids stable: the guid when present, else the link', () => {
    const a = parseNewsItems(rss('R', [{ title: 'T', link: 'https://x/1', guid: 'g' }]), 'f', NOW)[0];
    const b = parseNewsItems(rss('R', [{ title: 'T2', link: 'https://x/2', guid: 'g' }]), 'f', NOW)[0];
    const c = parseNewsItems(rss('R', [{ title: 'T', link: 'https://x/1' }]), 'f', NOW)[0];
    expect(a.id).toBe(b.id);
    expect(a.id).not.toBe(c.id);
  });

  it('reads the shipped example feed, labelled as not real news', () => {
    const items = parseNewsItems(readFileSync(EXAMPLE_NEWS_FEED, 'utf8'), EXAMPLE_NEWS_FEED, NOW);
    expect(items.length).toBeGreaterThan(0);
    for (const i of items) expect(i.source).toBe('Example feed -- not real news');
  });

  it('turns any HTML into bounded plain text without tags', () => {
    // Markup, entities and text of every length up to well past the 500-character limit (an explicit
    // size: fast-check's default keeps strings to about ten characters, which never reach it).
    const fragment = fc.oneof(
      fc.constantFrom(
        '<p>',
        '</p>',
        '<br/>',
        '<a href="https://x.test/?a=1&amp;b=2">',
        '</a>',
        '<script>if (a < b) alert("<b>")</script>',
        '<style>p > b { color: red }</style>',
        '&amp;',
        '&nbsp;',
        '&#233;',
        '&#x1F600;',
        ' \n\t ',
      ),
      fc.string({ maxLength: 60, size: 'max' }),
    );
    const html = fc.array(fragment, { maxLength: 120, size: 'max' }).map((parts) => parts.join(''));
    let cut = 0;
    let whole = 0;
    fc.assert(
      fc.property(html, (s) => {
        const t = plainText(s);
        expect(t.length).toBeLessThanOrEqual(500);
        expect(t).not.toMatch(/<[a-z/][^>]*>/i);
        expect(t).toBe(t.trim());
        if (t.endsWith('…')) cut++;
        else whole++;
      }),
      { numRuns: 200 },
    );
    // Both sides of the limit were exercised: texts cut to it and texts that fit.
    expect(cut).toBeGreaterThan(20);
    expect(whole).toBeGreaterThan(20);
  });

  it('cuts a long text to exactly 500 characters, ending with an ellipsis', () => {
    const t = plainText(`<p>${'word '.repeat(200)}</p>`);
    expect(t).toBe(`${'word '.repeat(99)}word…`);
    expect(t).toHaveLength(500);
  });
});

const item = (id: string, url: string, date: string): NewsItem => ({
  id,
  source: 's',
  title: id,
  description: '',
  url,
  date,
  icon: null,
});

describe('mergeNews', () => {
  it('dedupes by id and by link (fragment ignored), newest first', () => {
    const merged = mergeNews([
      [item('a', 'https://x/a', '2026-01-01T00:00:00.000Z'), item('b', 'https://x/b', '2026-01-03T00:00:00.000Z')],
      [item('a', 'https://y/a', '2026-01-02T00:00:00.000Z'), item('c', 'https://x/b#top', '2026-01-04T00:00:00.000Z')],
    ]);
    expect(merged.map((i) => i.id)).toEqual(['b', 'a']);
  });

  it('is sorted newest first, without duplicates, for any input', () => {
    const arbItem = fc
      .record({ id: fc.constantFrom('a', 'b', 'c', 'd', 'e'), u: fc.constantFrom('1', '2', '3', '4'), t: fc.nat(1e9) })
      .map(({ id, u, t }) => item(id, `https://x/${u}`, new Date(1.7e12 + t * 1000).toISOString()));
    fc.assert(
      fc.property(fc.array(fc.array(arbItem, { maxLength: 8 }), { maxLength: 4 }), (lists) => {
        const m = mergeNews(lists);
        expect(new Set(m.map((i) => i.id)).size).toBe(m.length);
        expect(new Set(m.map((i) => i.url)).size).toBe(m.length);
        for (let k = 1; k < m.length; k++) expect(m[k - 1].date >= m[k].date).toBe(true);
      }),
    );
  });
});

describe('NewsFeeds', () => {
  const routes = new Map<string, { status: number; body: string; delayMs?: number }>();
  let srv: Awaited<ReturnType<typeof feedServer>>;
  beforeAll(async () => {
    srv = await feedServer(routes);
  });
  afterAll(() => srv.close());

  it('merges RSS and Atom feeds, and a failing feed keeps its previous items', async () => {
    routes.set('/rss', {
      status: 200,
      body: rss('R', [
        { title: 'r1', link: 'https://n/1', guid: 'r1', date: '2026-01-10T00:00:00Z' },
        { title: 'r2', link: 'https://n/shared', guid: 'r2', date: '2026-01-12T00:00:00Z' },
      ]),
    });
    routes.set('/atom', {
      status: 200,
      body: atom('A', [
        { title: 'a1', link: 'https://n/a1', id: 'urn:a1', updated: '2026-01-11T00:00:00Z' },
        { title: 'dup', link: 'https://n/shared', id: 'urn:dup', updated: '2026-01-14T00:00:00Z' },
      ]),
    });
    const errors: string[] = [];
    const news = new NewsFeeds({
      feeds: [srv.url('/rss'), srv.url('/atom')],
      refreshMs: 60_000,
      // Ample for a loopback answer on a loaded machine; the slow feed below never answers in time.
      timeoutMs: 2_000,
      now: () => NOW,
      onError: (feed) => errors.push(feed),
    });
    expect(news.latest(10)).toEqual([]);
    await news.refresh();
    expect(news.latest(10).map((i) => i.title)).toEqual(['r2', 'a1', 'r1']);

    routes.set('/rss', { status: 500, body: 'down' });
    routes.set('/atom', { status: 200, body: 'not xml at all <' });
    await news.refresh();
    expect(news.latest(10).map((i) => i.title)).toEqual(['r2', 'a1', 'r1']);
    expect(errors).toEqual([srv.url('/rss'), srv.url('/atom')]);

    // A feed slower than the timeout fails like any other (this one answers after the test ends).
    routes.set('/rss', { status: 200, body: rss('R', []), delayMs: 120_000 });
    await news.refresh();
    expect(errors).toHaveLength(4);
    expect(news.latest(2).map((i) => i.title)).toEqual(['r2', 'a1']);
  });

  it('reads file paths, runs on an interval and stops', async () => {
    const news = new NewsFeeds({ feeds: [EXAMPLE_NEWS_FEED], refreshMs: 10, timeoutMs: 100 });
    news.start();
    // Poll rather than sleep a fixed time: a busy CI machine may take longer than one interval.
    for (let i = 0; i < 200 && news.latest(100).length < 3; i++) await new Promise((r) => setTimeout(r, 25));
    expect(news.latest(100).length).toBe(3);
    await news.stop();
  });
});
