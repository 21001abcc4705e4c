/** A timeframe button's state: whether it needs a tier the caller lacks, which, and the label saying so. */
export interface TimeframeChoice {
  value: string;
  gated: boolean;
  /** The tier that unlocks it, as the page names it (empty when not gated). */
  tier: string;
  label: string;
}

/**
 * The timeframe switcher's choices from `/v2/config`'s `analysis.timeframes`: a timeframe that
 * needs Pro for this caller is labelled with the tier that unlocks it (`proName`: the page's name
 * of the tier in its language).
 */
export function timeframeChoices(
  timeframes: readonly { value: string; needs_pro: boolean }[],
  proName = 'Pro',
): TimeframeChoice[] {
  return timeframes.map((t) => ({
    value: t.value,
    gated: t.needs_pro,
    tier: t.needs_pro ? proName : '',
    label: t.needs_pro ? `${t.value} · ${proName}` : t.value,
  }));
}

/** The app's path of an asset page, with the timeframe when it is not the default. */
export function assetPath(assetId: string, timeframe?: string, defaultTimeframe = 'd1'): string {
  const base = `/app/asset/${encodeURIComponent(assetId)}`;
  return timeframe === undefined || timeframe === defaultTimeframe
    ? base
    : `${base}?timeframe=${encodeURIComponent(timeframe)}`;
}

/** The page a path of the app names. */
export type Route =
  | { page: 'asset'; assetId: string; timeframe: string | null }
  | { page: 'lists'; tab: string }
  | { page: 'account' }
  | { page: 'verify'; token: string | null }
  | { page: 'home' };

/** Reads the app's route from a location (`/app/asset/bitcoin?timeframe=h1`, `/app/lists/signals`). */
export function parseRoute(pathname: string, search: string): Route {
  const rest = pathname.replace(/^\/app\/?/, '');
  const parts = rest.split('/').filter((p) => p !== '');
  const query = new URLSearchParams(search);
  if (parts[0] === 'asset' && parts[1] !== undefined) {
    let assetId = parts[1];
    try {
      assetId = decodeURIComponent(parts[1]);
    } catch {
      // A malformed escape is passed on as written; the API answers it as an unknown asset.
    }
    return { page: 'asset', assetId, timeframe: query.get('timeframe') };
  }
  if (parts[0] === 'lists') return { page: 'lists', tab: parts[1] ?? 'watchlist' };
  if (parts[0] === 'account') return { page: 'account' };
  if (parts[0] === 'verify') return { page: 'verify', token: query.get('token') };
  return { page: 'home' };
}
