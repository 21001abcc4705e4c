/**
 * The alert kinds, one file each. The service reads a kind only through this table: adding one is
 * its file here plus its entry in the contract (`NOTIFICATION_KINDS`, `TARGET_RANGES`,
 * `ALERT_KIND_WINDOWS`); the storage's check of the kind column follows the contract's list
 * (migration 18). The type makes the table hold exactly the contract's kinds.
 */
import type { NotificationKind } from '@marketlens/contract';
import { breakoutKind } from './breakout.js';
import type { AlertKindSpec } from './kind.js';
import { percentChangeKind } from './percent-change.js';
import { priceKind } from './price.js';
import { rsiKind } from './rsi.js';
import { smartZoneKind } from './smart-zone.js';
import { zoneKind } from './zone.js';

export const ALERT_KIND_REGISTRY: Readonly<Record<NotificationKind, AlertKindSpec>> = {
  price: priceKind,
  zone: zoneKind,
  breakout: breakoutKind,
  rsi: rsiKind,
  smart_zone: smartZoneKind,
  percent_change: percentChangeKind,
};

/** The kind `kind` (a stored or parsed kind, so always one of the table's). */
export function alertKindOf(kind: NotificationKind): AlertKindSpec {
  return ALERT_KIND_REGISTRY[kind];
}
