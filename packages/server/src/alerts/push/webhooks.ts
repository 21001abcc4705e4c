/**
 * Alert webhooks: a signed HTTPS callback that receives what a push device receives, for a user
 * without a browser. The URL passes the rules push endpoints pass (https on 443, no internal name or
 * address; the transport checks every resolved address again when it sends); the signing secret is
 * made here, answered once, and kept encrypted with the credentials key.
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import {
  type AlertWebhook,
  MAX_ALERT_WEBHOOKS,
  type RegisterAlertWebhook,
  type RegisteredAlertWebhook,
  WEBHOOK_SIGNATURE_HEADER,
  webhookWire,
} from '@marketlens/contract';
import type { AppDeps } from '../../platform/deps.js';
import { AppError } from '../../platform/errors/app-error.js';
import { credentialsKeyOf, encryptCredentials, openCredentials } from '../../platform/secrets.js';
import type { AlertWebhookRecord } from '../../storage/webhooks-types.js';
import { isInternalHost } from './addresses.js';

/** Prefix of a signing secret, so a leaked one is recognisable in logs and scanners. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/**
 * Checks a webhook URL before it is stored: https on port 443 (http and other ports only when
 * `push.allowInsecureEndpoints`, as for push endpoints), no credentials in it, and not a name or
 * address inside the operator's network. A public name that resolves inward is refused when a
 * delivery is sent.
 */
export function checkWebhookUrl(deps: AppDeps, raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid('url must be an absolute URL');
  }
  const insecureOk = deps.config.push?.allowInsecureEndpoints === true;
  if (url.protocol !== 'https:' && !(insecureOk && url.protocol === 'http:')) throw invalid('url must be https');
  if (url.username || url.password) throw invalid('url must not carry credentials');
  if (!insecureOk && url.port !== '') throw invalid('url must use the https port (443)');
  if (!insecureOk && isInternalHost(url.hostname)) {
    throw invalid('url must be a public address, not a local, private, link-local or metadata one');
  }
  url.hash = '';
  return url;
}

function invalid(message: string): AppError {
  return new AppError('InvalidWebhook', `Invalid webhook: ${message}`);
}

/**
 * Registers a webhook for the user's alerts and answers its signing secret, the only time it is
 * shown. The same URL again is that webhook with a new secret, active again; at most
 * {@link MAX_ALERT_WEBHOOKS} per account.
 */
export async function registerWebhook(
  deps: AppDeps,
  userId: string,
  input: RegisterAlertWebhook,
): Promise<RegisteredAlertWebhook> {
  const url = checkWebhookUrl(deps, input.url);
  const id = (await deps.storage.alertWebhooks.idOfUrl(userId, url.href)) ?? randomUUID();
  const secret = `${WEBHOOK_SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;
  const now = deps.now();
  const held = await deps.storage.alertWebhooks.byId(id);
  const record: AlertWebhookRecord = {
    id,
    user_id: userId,
    url: url.href,
    name: input.name ?? null,
    // The credentials cipher with the webhook id as associated data: a blob copied onto another row does not open.
    secret: encryptCredentials(credentialsKeyOf(deps), id, { secret }),
    created_at: held?.created_at ?? now,
    updated_at: now,
    active: true,
    deactivated_at: null,
    deactivated_reason: null,
  };
  if (!(await deps.storage.alertWebhooks.register(record, MAX_ALERT_WEBHOOKS))) {
    throw new AppError(
      'WebhookLimitExceeded',
      `An account holds at most ${MAX_ALERT_WEBHOOKS} webhooks; delete one first`,
    );
  }
  return { ...webhookWire(record), secret, signature_header: WEBHOOK_SIGNATURE_HEADER };
}

export async function listWebhooks(deps: AppDeps, userId: string): Promise<AlertWebhook[]> {
  return (await deps.storage.alertWebhooks.listByUser(userId)).map(webhookWire);
}

export async function removeWebhook(deps: AppDeps, userId: string, id: string): Promise<void> {
  if (!(await deps.storage.alertWebhooks.remove(userId, id))) {
    throw new AppError('WebhookNotFound', `No webhook '${id}' on this account`);
  }
}

/** The signing secret of a stored webhook. */
export function webhookSecret(deps: AppDeps, w: AlertWebhookRecord): string {
  const { secret } = openCredentials(deps, w.id, w.secret);
  if (!secret) throw new Error(`webhook ${w.id} has no secret`);
  return secret;
}

/**
 * The `marketlens-signature` value of a delivery: `t=<unix seconds>,v1=<hex>`, where v1 is
 * HMAC-SHA256 keyed with the secret over `<t>.<body>`. The time is inside the MAC so a receiver can
 * refuse an old delivery replayed at it; every attempt is signed anew.
 */
export function webhookSignature(secret: string, unixSeconds: number, body: string): string {
  const mac = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}
