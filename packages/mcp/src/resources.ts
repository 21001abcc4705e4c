/**
 * MCP resources: each asset's analysis per timeframe (`marketlens://analysis/{asset_id}/{timeframe}`,
 * a resource template), the user's positions (`marketlens://positions`) and the service's track
 * record (`marketlens://track-record`). A read answers the JSON the REST route answers in `data`,
 * through the same backend methods the tools use (so it is gated and charged as the tool is).
 */
import {
  CHART_DEPTH,
  DEFAULT_TIMEFRAME,
  TIMEFRAME_ALIASES,
  TIMEFRAMES,
  type Timeframe,
  timeframeOf,
} from '@marketlens/contract';
import type { ReadResourceResult, Resource, ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import type { Backend, Followed } from './backend.js';
import { ToolError } from './errors.js';

export const RESOURCE_SCHEME = 'marketlens:';
export const ANALYSIS_TEMPLATE = 'marketlens://analysis/{asset_id}/{timeframe}';
export const POSITIONS_URI = 'marketlens://positions';
export const TRACK_RECORD_URI = 'marketlens://track-record';
const JSON_TYPE = 'application/json';

/** Analyses `resources/list` names at most (the rest are reached through the template). */
export const LISTED_ANALYSES = 20;

/** The spelling a person writes of a wire timeframe (`d1` is `1d`), the one resource URIs use. */
export function spelledTimeframe(tf: Timeframe): string {
  return Object.entries(TIMEFRAME_ALIASES).find(([, wire]) => wire === tf)?.[0] ?? tf;
}

/** The analysis URI of an asset id and a timeframe, in the canonical spelling (`.../bitcoin/1d`). */
export function analysisUri(assetId: string, tf: Timeframe): string {
  return `marketlens://analysis/${encodeURIComponent(assetId)}/${spelledTimeframe(tf)}`;
}

/** What a resource URI names. */
export type ResourceRef = { kind: 'analysis'; followed: Followed } | { kind: 'positions' } | { kind: 'track-record' };

/**
 * What `uri` names, or a `NotFound` error: a URI of another scheme, another path, or an analysis
 * URI whose timeframe is not one the analysis serves (`InvalidRequest`, listing them).
 */
export function parseResourceUri(uri: string): ResourceRef {
  if (uri === POSITIONS_URI) return { kind: 'positions' };
  if (uri === TRACK_RECORD_URI) return { kind: 'track-record' };
  const m = /^marketlens:\/\/analysis\/([^/?#]+)\/([^/?#]+)$/.exec(uri);
  if (m === null) {
    throw new ToolError(
      'NotFound',
      `No resource ${uri.slice(0, 200)}: marketlens serves ${ANALYSIS_TEMPLATE}, ${POSITIONS_URI} and ${TRACK_RECORD_URI}`,
    );
  }
  let assetId: string;
  try {
    assetId = decodeURIComponent(m[1]).trim();
  } catch {
    throw new ToolError('InvalidRequest', `The asset of ${uri.slice(0, 200)} is not valid percent-encoding`);
  }
  const tf = timeframeOf(m[2], TIMEFRAMES);
  if (tf === null) {
    throw new ToolError(
      'InvalidRequest',
      `Unknown timeframe '${m[2].slice(0, 20)}': one of ${TIMEFRAMES.map(spelledTimeframe).join(', ')}`,
    );
  }
  if (assetId === '' || assetId.length > 128)
    throw new ToolError('InvalidRequest', 'The asset id is empty or too long');
  return { kind: 'analysis', followed: { asset_id: assetId, timeframe: tf } };
}

/** The analysis resource template. */
export const ANALYSIS_RESOURCE_TEMPLATE: ResourceTemplate = {
  uriTemplate: ANALYSIS_TEMPLATE,
  name: 'analysis',
  title: 'Asset analysis',
  description:
    'The analysis of an asset on a timeframe: indicators, support and resistance, the published trade plan (zones), the Buy/Hold/Sell signal, Fear & Greed and the regime, as GET /v2/analysis/{asset_id} answers it at its defaults. asset_id is an id such as bitcoin (a ticker such as BTC is accepted); timeframe is 1d (free) or 5m, 15m, 30m, 1h, 4h, 1w (Pro). Subscribe to be told when its candle closes.',
  mimeType: JSON_TYPE,
};

/** The resource templates the backend can serve. */
export function resourceTemplatesOf(_backend: Backend): ResourceTemplate[] {
  return [ANALYSIS_RESOURCE_TEMPLATE];
}

/**
 * `resources/list`: a bounded list. The analyses of the user's watchlist (favorites, or, without
 * any, the most traded coins) on the free timeframe, at most {@link LISTED_ANALYSES}; then the
 * positions and the track record. Every other analysis is reached through the template.
 */
export async function listResources(backend: Backend): Promise<Resource[]> {
  const favorites = backend.runs('market.favorites')
    ? await backend.run('market.favorites', {
        asset_class: 'all',
        sort: 'volume',
        sort_dir: 'desc',
        limit: LISTED_ANALYSES,
      })
    : [];
  const rows =
    favorites.length > 0
      ? favorites
      : await backend.run('market.assets', {
          asset_class: 'coins',
          sort: 'volume',
          sort_dir: 'desc',
          limit: LISTED_ANALYSES + 5,
        });
  const source = favorites.length > 0 ? 'a favorite' : 'among the most traded coins';
  const resources: Resource[] = rows
    .filter((r) => !r.is_stablecoin)
    .slice(0, LISTED_ANALYSES)
    .map((r) => ({
      uri: analysisUri(r.id, DEFAULT_TIMEFRAME),
      name: `analysis/${r.id}/${spelledTimeframe(DEFAULT_TIMEFRAME)}`,
      title: `${r.name} (${r.symbol}) analysis, ${spelledTimeframe(DEFAULT_TIMEFRAME)}`,
      description: `The ${spelledTimeframe(DEFAULT_TIMEFRAME)} analysis of ${r.name} (${source}): zones, trade plan, signal.`,
      mimeType: JSON_TYPE,
    }));
  if (backend.runs('accounts.positions')) {
    resources.push({
      uri: POSITIONS_URI,
      name: 'positions',
      title: 'Your open positions',
      description:
        'Every open position on your connected exchanges (read-only), priced or not, with the portfolio totals, as GET /v2/positions answers.',
      mimeType: JSON_TYPE,
    });
  }
  resources.push({
    uri: TRACK_RECORD_URI,
    name: 'track-record',
    title: "The service's track record",
    description:
      'How every trade plan the service published ended, by timeframe and asset class, as the public GET /v2/track-record answers.',
    mimeType: JSON_TYPE,
  });
  return resources;
}

/** The JSON of what `ref` names, read through the backend (gates and charges as the tools). */
export async function readResourceData(backend: Backend, ref: ResourceRef): Promise<Record<string, unknown>> {
  switch (ref.kind) {
    case 'analysis':
      return backend.run('analysis.get', {
        asset_id: ref.followed.asset_id,
        timeframe: ref.followed.timeframe,
        limit: CHART_DEPTH.free,
      });
    case 'positions':
      if (!backend.runs('accounts.positions')) {
        throw new ToolError('NotFound', 'Positions are not served here (no account)');
      }
      return backend.run('accounts.positions', {});
    case 'track-record':
      return backend.run('analysis.trackRecord', {});
  }
}

/** `resources/read` of `uri`: one JSON text content. */
export async function readResource(backend: Backend, uri: string): Promise<ReadResourceResult> {
  const data = await readResourceData(backend, parseResourceUri(uri));
  return { contents: [{ uri, mimeType: JSON_TYPE, text: JSON.stringify(data) }] };
}
