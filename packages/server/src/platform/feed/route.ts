import type { Hono } from 'hono';
import type { AppEnv } from '../deps.js';
import { before, type Step } from '../pipeline.js';
import { renderAtom } from './atom.js';
import notes from './release-notes.json' with { type: 'json' };

export const RELEASE_FEED_PATH = '/releases.atom';

/** The release feed, generated from the changesets changelog by `scripts/release-notes.mjs`. */
export function registerReleaseFeed(app: Hono<AppEnv>, platform: Step): void {
  app.get(
    RELEASE_FEED_PATH,
    before(platform, (c) => {
      c.header('content-type', 'application/atom+xml; charset=utf-8');
      c.header('cache-control', 'public, max-age=300');
      return c.body(renderAtom(notes, new URL(RELEASE_FEED_PATH, c.req.url).href));
    }),
  );
}
