/**
 * A zone alert: fires when the price trades into a published support/resistance zone of its window
 * (the zone the target lies in when it is armed).
 */
import { ALERT_KIND_WINDOWS, TARGET_RANGES } from '@marketlens/contract';
import { AppError } from '../../platform/errors/app-error.js';
import { formatPrice } from '../push/notices.js';
import { type AlertKindSpec, analysisWindowOf } from './kind.js';
import { livePrice, priceInBand } from './price-level.js';

export const zoneKind: AlertKindSpec = {
  payload: { target: TARGET_RANGES.zone, timeframes: ALERT_KIND_WINDOWS.zone },
  window: (alert) => ({ timeframe: analysisWindowOf(alert.evaluates_as), warmup: 0 }),
  async arm(arming) {
    const { asset, target, evaluates_as } = arming;
    const reference = await priceInBand(arming);
    const zones = arming.analyze(await arming.closedCandles())?.levels.zones ?? [];
    const hitZone = zones.find((z) => z.low <= target && target <= z.high);
    if (!hitZone) {
      throw new AppError(
        'TargetOutOfRange',
        `target ${target} lies in no published ${evaluates_as} zone of ${asset.id} (${zones.map((z) => `${z.low}-${z.high}`).join(', ') || 'none'})`,
      );
    }
    if (reference >= hitZone.low && reference <= hitZone.high) {
      throw new AppError('TargetOutOfRange', `the price of ${asset.id} is inside that zone already`);
    }
    return {
      reference,
      direction: hitZone.low > reference ? 'above' : 'below',
      zone: { low: hitZone.low, high: hitZone.high },
    };
  },
  evaluate({ alert, candles, first, high, low, hit, touched }) {
    const zl = alert.zone_low ?? alert.target;
    const zh = alert.zone_high ?? alert.target;
    const above = alert.direction === 'above';
    // Approached from below the zone's lower edge is the level touched, from above its upper edge.
    for (let i = first; i < candles.time.length; i++) {
      if (low(i) <= zh && high(i) >= zl) return hit(i, touched(i, above ? zl : zh));
    }
    return null;
  },
  live: livePrice,
  text: (alert, name) => ({
    title: `${name} entered its ${alert.evaluates_as} zone`,
    body: `${name} traded into ${formatPrice(alert.zone_low ?? alert.target)}-${formatPrice(alert.zone_high ?? alert.target)}`,
    caption: null,
  }),
};
