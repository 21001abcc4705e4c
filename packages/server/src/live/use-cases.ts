import { createHash } from 'node:crypto';
import {
  ERROR_CODES,
  type ErrorResponse,
  STREAM_SUBSCRIPTION_CAP,
  type StreamSubscription,
  TIMEFRAMES,
} from '@marketlens/contract';
import type { Timeframe } from '@marketlens/exchanges';
import { checkAnalysisAccess, tierOf } from '../analysis/analysis.js';
import { apiKeyRecord } from '../auth/tiers.js';
import { isDisabled, liveSession } from '../auth/users.js';
import { requireAsset } from '../market/assets.js';
import { marketOf } from '../market/market.js';
import type { Actor, AppDeps } from '../platform/deps.js';
import { AppError } from '../platform/errors/app-error.js';
import { CHART_DEPTH, DEFAULT_TIMEFRAME } from '../platform/product-rules.js';
import { type CredentialCheck, liveOf } from './live.js';
import type { NodeOutput, SseStream } from './stream.js';

/** The credential a stream was opened with, checked again while it is open. */
export type StreamCredential = { kind: 'session'; token: string } | { kind: 'api_key'; key: string };

const refusal = (name: 'InvalidSession' | 'InvalidApiKey' | 'AccountDisabled', message: string): ErrorResponse => ({
  success: false,
  code: ERROR_CODES[name].code,
  message,
});

/** The check of a credential while its stream is open: a session signed out or expired, a key revoked or expired. */
function credentialCheck(deps: AppDeps, credential: StreamCredential): CredentialCheck {
  if (credential.kind === 'session') {
    return async () =>
      (await liveSession(deps.storage, credential.token, deps.now())) === null
        ? refusal('InvalidSession', 'The session expired or was signed out; the stream ends')
        : null;
  }
  return async () => {
    const record = await apiKeyRecord(deps.storage, credential.key, deps.now());
    if (record === null) return refusal('InvalidApiKey', 'The API key was revoked or expired; the stream ends');
    const owner = await deps.storage.users.byId(record.user_id);
    return owner !== null && isDisabled(owner)
      ? refusal('AccountDisabled', 'The operator disabled this account; the stream ends')
      : null;
  };
}

/**
 * `follow` as subscriptions: each `asset:timeframe` (a bare asset follows `d1`) resolved to its
 * asset id (a ticker is accepted, as by the analysis), duplicates dropped, in the order given.
 */
function parseFollow(deps: AppDeps, follow: string): { subscriptions: StreamSubscription[]; assets: string[] } {
  const market = marketOf(deps);
  const seen = new Set<string>();
  const subscriptions: StreamSubscription[] = [];
  for (const raw of follow.split(',')) {
    const item = raw.trim();
    if (item === '') continue;
    const colon = item.lastIndexOf(':');
    const name = colon < 0 ? item : item.slice(0, colon);
    const tf = colon < 0 ? DEFAULT_TIMEFRAME : item.slice(colon + 1);
    if (!(TIMEFRAMES as readonly string[]).includes(tf)) {
      throw new AppError('InvalidRequest', `Invalid query: follow: unknown timeframe '${tf}'`);
    }
    const asset = requireAsset(deps, name, market);
    const key = `${asset.id}:${tf}`;
    if (seen.has(key)) continue;
    seen.add(key);
    subscriptions.push({ asset_id: asset.id, timeframe: tf as Timeframe });
  }
  return { subscriptions, assets: [...new Set(subscriptions.map((s) => s.asset_id))] };
}

/**
 * The live stream (`GET /v2/stream`). Every rule is here and is checked before the stream starts:
 * the assets exist and are analysed (not stablecoins), each timeframe passes the analysis gate of
 * the caller's tier and client (402, code 1004), and the subscriptions fit the tier's cap
 * (`StreamSubscriptionLimitExceeded`). A session also receives its user's alert and sync events.
 */
export function liveUseCases(deps: AppDeps) {
  return {
    /** The subscriptions `follow` names for `actor`, checked; throws the contract's error otherwise. */
    subscriptions(actor: Actor, follow: string): StreamSubscription[] {
      const { subscriptions } = parseFollow(deps, follow);
      const cap = STREAM_SUBSCRIPTION_CAP[tierOf(actor.caller)];
      if (subscriptions.length > cap) {
        throw new AppError(
          'StreamSubscriptionLimitExceeded',
          `${subscriptions.length} subscriptions asked; the ${tierOf(actor.caller)} tier follows at most ${cap} on one stream`,
        );
      }
      const market = marketOf(deps);
      for (const s of subscriptions) {
        const asset = requireAsset(deps, s.asset_id, market);
        if (asset.is_stablecoin) {
          throw new AppError('StablecoinNotAnalyzed', `${asset.id} is a stablecoin; it is not analysed`);
        }
        checkAnalysisAccess(asset, { timeframe: s.timeframe, limit: CHART_DEPTH.free }, actor.caller, actor.client);
      }
      return subscriptions;
    },

    /**
     * Opens a stream: checks what it follows ({@link subscriptions}), then returns the stream, which
     * replays the retained events after `lastEventId` first. `credential` is what the request was
     * authenticated with; the stream ends with an `error` event once it no longer holds. `output`
     * is the request's Node response, written to directly (absent under `app.request`).
     */
    open(
      actor: Actor,
      follow: string,
      credential: StreamCredential,
      lastEventId?: string,
      output?: NodeOutput,
    ): SseStream {
      const subscriptions = this.subscriptions(actor, follow);
      const caller = actor.caller;
      const userId = caller.kind === 'session' ? caller.user.id : null;
      const secret = credential.kind === 'session' ? credential.token : credential.key;
      return liveOf(deps).open(
        {
          subscriptions,
          userId,
          check: credentialCheck(deps, credential),
          credentialKey: `${credential.kind}:${createHash('sha256').update(secret).digest('hex')}`,
        },
        lastEventId,
        output,
      );
    },
  };
}

/** The live use cases of one app. */
export type LiveUseCases = ReturnType<typeof liveUseCases>;
