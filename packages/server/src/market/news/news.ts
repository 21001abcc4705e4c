import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parseFeed } from '@rowanmanning/feed-parser';

/** A news item as published. */
export interface NewsItem {
  id: string;
  source: string;
  title: string;
  description: string;
  url: string;
  date: string;
  icon: string | null;
}

/** What `GET /v1/news/` reads: the newest cached items, never a fetch. */
export interface NewsSource {
  latest(limit: number): NewsItem[];
}

/**
 * The example feed the demo configuration reads: a file on disk, no network. Beside this module
 * in `src/news/`, and copied beside the bundle into `dist/` by tsup.
 */
export const EXAMPLE_NEWS_FEED = fileURLToPath(new URL('./example-feed.xml', import.meta.url));

/** Items kept across all feeds after a refresh, newest first. */
export const NEWS_CACHE_SIZE = 500;
/** A feed document larger than this is refused (a misconfigured URL, not news). */
export const MAX_FEED_BYTES = 5 * 1024 * 1024;
const DESCRIPTION_CHARS = 500;

const isUrl = (s: string) => /^https?:\/\//i.test(s);

/** The text of a feed: over HTTP(S) with a timeout, or from a file (a path or a `file:` URL). */
export async function readFeedDocument(feed: string, timeoutMs: number): Promise<string> {
  if (!isUrl(feed)) {
    const text = await readFile(feed.startsWith('file:') ? fileURLToPath(feed) : feed, 'utf8');
    if (text.length > MAX_FEED_BYTES) throw new Error(`${feed}: larger than ${MAX_FEED_BYTES} bytes`);
    return text;
  }
  const res = await fetch(feed, {
    signal: AbortSignal.timeout(timeoutMs),
    headers: { accept: 'application/rss+xml, application/atom+xml, application/xml;q=0.9, text/xml;q=0.8' },
    redirect: 'follow',
  });
  if (!res.ok) throw new Error(`${feed}: HTTP ${res.status}`);
  const length = Number(res.headers.get('content-length') ?? 0);
  if (length > MAX_FEED_BYTES) throw new Error(`${feed}: larger than ${MAX_FEED_BYTES} bytes`);
  const text = await res.text();
  if (text.length > MAX_FEED_BYTES) throw new Error(`${feed}: larger than ${MAX_FEED_BYTES} bytes`);
  return text;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** Feed descriptions are often HTML: the plain text, whitespace collapsed, at most 500 characters. */
export function plainText(html: string): string {
  const text = html
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
      if (e[0] === '#') {
        const cp = e[1] === 'x' || e[1] === 'X' ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1));
        return Number.isInteger(cp) && cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : ' ';
      }
      return ENTITIES[e.toLowerCase()] ?? m;
    })
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > DESCRIPTION_CHARS ? `${text.slice(0, DESCRIPTION_CHARS - 1).trimEnd()}…` : text;
}

/** The dedupe key of a link: scheme and host lower-cased, fragment dropped. */
function linkKey(url: string): string {
  try {
    const u = new URL(url);
    u.hash = '';
    return u.href;
  } catch {
    return url;
  }
}

const idOf = (key: string) => createHash('sha256').update(key).digest('base64url').slice(0, 22);

/**
 * The items of one feed document. Items without a link or a title are skipped; the id is a
 * hash of the guid (else the link), so it is stable across refreshes; an item without a date
 * takes `firstSeen` (its date when it was first fetched, else `now`).
 */
export function parseNewsItems(
  xml: string,
  feed: string,
  now: number,
  firstSeen: (id: string) => string | undefined = () => undefined,
): NewsItem[] {
  const parsed = parseFeed(xml);
  const source = parsed.title?.trim() || (isUrl(feed) ? new URL(feed).hostname : 'news');
  const feedIcon = parsed.image?.url ?? null;
  const out: NewsItem[] = [];
  for (const item of parsed.items) {
    const url = item.url?.trim();
    const title = item.title ? plainText(item.title) : '';
    if (!url || !title) continue;
    const id = idOf(item.id?.trim() || linkKey(url));
    const date = item.published ?? item.updated;
    out.push({
      id,
      source,
      title,
      description: plainText(item.description ?? item.content ?? ''),
      url,
      date: date && !Number.isNaN(date.getTime()) ? date.toISOString() : (firstSeen(id) ?? new Date(now).toISOString()),
      icon: item.image?.url ?? feedIcon,
    });
  }
  return out;
}

/** Newest first; items seen twice (same id, or same link) are kept once, the first feed's copy. */
export function mergeNews(lists: Iterable<readonly NewsItem[]>, max = NEWS_CACHE_SIZE): NewsItem[] {
  const ids = new Set<string>();
  const links = new Set<string>();
  const all: NewsItem[] = [];
  for (const list of lists) {
    for (const item of list) {
      const link = linkKey(item.url);
      if (ids.has(item.id) || links.has(link)) continue;
      ids.add(item.id);
      links.add(link);
      all.push(item);
    }
  }
  // ISO date-times of the same form sort as strings; the id breaks ties so the order is stable.
  all.sort((a, b) => (a.date === b.date ? (a.id < b.id ? -1 : 1) : a.date < b.date ? 1 : -1));
  return all.slice(0, max);
}

export interface NewsFeedsOptions {
  feeds: readonly string[];
  refreshMs: number;
  timeoutMs: number;
  now?: () => number;
  /** Where a failed feed is reported; the previous items of that feed stay served. */
  onError?: (feed: string, err: unknown) => void;
}

/**
 * The news cache: each configured feed is fetched in the background every `refreshMs`; a feed
 * that fails keeps its previous items, so a flaky source never empties the list.
 */
export class NewsFeeds implements NewsSource {
  readonly #options: NewsFeedsOptions;
  readonly #byFeed = new Map<string, NewsItem[]>();
  #merged: NewsItem[] = [];
  #timer: ReturnType<typeof setInterval> | undefined;
  #inFlight: Promise<void> | undefined;

  constructor(options: NewsFeedsOptions) {
    this.#options = options;
  }

  latest(limit: number): NewsItem[] {
    return this.#merged.slice(0, limit);
  }

  /** Fetches every feed once (concurrent calls share the refresh under way). */
  refresh(): Promise<void> {
    this.#inFlight ??= this.#refresh().finally(() => {
      this.#inFlight = undefined;
    });
    return this.#inFlight;
  }

  async #refresh(): Promise<void> {
    const { feeds, timeoutMs, onError } = this.#options;
    const now = (this.#options.now ?? Date.now)();
    const previousDates = new Map<string, string>();
    for (const items of this.#byFeed.values()) for (const i of items) previousDates.set(i.id, i.date);
    await Promise.all(
      feeds.map(async (feed) => {
        try {
          const xml = await readFeedDocument(feed, timeoutMs);
          this.#byFeed.set(
            feed,
            parseNewsItems(xml, feed, now, (id) => previousDates.get(id)),
          );
        } catch (err) {
          onError?.(feed, err);
        }
      }),
    );
    this.#merged = mergeNews(feeds.map((f) => this.#byFeed.get(f) ?? []));
  }

  /** Refreshes now and then every `refreshMs`; the timer does not keep the process alive. */
  start(): void {
    if (this.#timer !== undefined || this.#options.feeds.length === 0) return;
    void this.refresh();
    this.#timer = setInterval(() => void this.refresh(), this.#options.refreshMs);
    this.#timer.unref?.();
  }

  /** Stops the interval job; a refresh under way finishes but is not repeated. */
  async stop(): Promise<void> {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#inFlight;
  }
}

/** Feeds from `MARKETLENS_NEWS_FEEDS`: a comma list of URLs or file paths. */
export function parseFeedList(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}
