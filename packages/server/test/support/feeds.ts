import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** An RSS 2.0 document (descriptions carry escaped HTML, as real feeds do). */
export const rss = (title: string, items: { title: string; link: string; guid?: string; date?: string }[]) =>
  `<?xml version="1.0"?><rss version="2.0"><channel><title>${title}</title><link>https://rss.test/</link><description>d</description>${items
    .map(
      (i) =>
        `<item><title>${i.title}</title><link>${i.link}</link>${i.guid ? `<guid>${i.guid}</guid>` : ''}${
          i.date ? `<pubDate>${new Date(i.date).toUTCString()}</pubDate>` : ''
        }<description>&lt;p&gt;About &lt;b&gt;${i.title}&lt;/b&gt; &amp;amp; more&lt;/p&gt;</description></item>`,
    )
    .join('')}</channel></rss>`;

/** An Atom document with a feed icon. */
export const atom = (title: string, entries: { title: string; link: string; id: string; updated: string }[]) =>
  `<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom"><title>${title}</title><id>urn:atom-test</id><updated>2026-01-15T00:00:00Z</updated><icon>https://atom.test/icon.png</icon>${entries
    .map(
      (e) =>
        `<entry><title>${e.title}</title><link href="${e.link}"/><id>${e.id}</id><updated>${e.updated}</updated><summary>${e.title} summary</summary></entry>`,
    )
    .join('')}</feed>`;

/** A local feed server: each path answers what `routes` holds at request time. */
export async function feedServer(routes: Map<string, { status: number; body: string; delayMs?: number }>) {
  const server: Server = createServer((req, res) => {
    const r = routes.get(req.url ?? '');
    if (!r) {
      res.writeHead(404).end();
      return;
    }
    setTimeout(() => res.writeHead(r.status, { 'content-type': 'application/xml' }).end(r.body), r.delayMs ?? 0);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
