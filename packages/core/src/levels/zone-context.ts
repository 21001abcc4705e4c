/** A price band: any object with a `low` and a `high` edge (`low <= high`). */
export interface PriceBand {
  low: number;
  high: number;
}

/** How far a zone lies from the price: measured to its near edge, signed (negative below). */
export interface ZoneDistance {
  /** `(edge - price) / price * 100`: negative for a zone below (edge = its high), positive above (edge = its low). */
  distance_pct: number;
  /** `(edge - price) / ATR`, signed like `distance_pct`; null without a positive ATR. */
  distance_atr: number | null;
}

/** Where a price stands among non-overlapping zones (see {@link zoneContext}). */
export interface ZoneContext<Z extends PriceBand> {
  /** The zone whose band holds the price (`low <= price <= high`), or null. Neither support nor resistance. */
  inside: Z | null;
  /** The nearest zone entirely below the price (`high < price`): the support. */
  below: (Z & ZoneDistance) | null;
  /** The nearest zone entirely above the price (`low > price`): the resistance. */
  above: (Z & ZoneDistance) | null;
}

function distanceTo<Z extends PriceBand>(zone: Z, edge: number, price: number, atr: number | null): Z & ZoneDistance {
  const d = edge - price;
  return {
    ...zone,
    distance_pct: price === 0 ? 0 : (d / Math.abs(price)) * 100,
    distance_atr: atr !== null && atr > 0 ? d / atr : null,
  };
}

/**
 * The one definition of "the zone the price is in, the nearest zone below, the nearest zone
 * above", shared by the analysis's levels, the screeners, the signal list and the overview.
 *
 * - `inside`: a zone with `low <= price <= high` (edges included). When several hold the price
 *   (only supplied zones can overlap), the one whose middle is nearest the price, then the lower.
 *   A zone that holds the price is neither a support nor a resistance: it is where the price is.
 * - `below` (support): among zones with `high < price`, the one with the highest `high`.
 * - `above` (resistance): among zones with `low > price`, the one with the lowest `low`.
 *
 * Distances run from the price to the zone's near edge (the top of a support, the bottom of a
 * resistance: how far the price must move to reach the zone), in % of the price and in ATRs,
 * negative below and positive above. Zones with a non-finite edge are ignored, and a non-finite
 * price has no context (all null); a non-finite or non-positive `atr` gives `distance_atr: null`. Linear in the number of zones; the input is
 * not modified and need not be sorted.
 */
export function zoneContext<Z extends PriceBand>(
  zones: readonly Z[],
  price: number,
  atr: number | null | undefined,
): ZoneContext<Z> {
  const a = typeof atr === 'number' && Number.isFinite(atr) && atr > 0 ? atr : null;
  if (!Number.isFinite(price)) return { inside: null, below: null, above: null };
  let inside: Z | null = null;
  let below: Z | null = null;
  let above: Z | null = null;
  for (const z of zones) {
    if (!Number.isFinite(z.low) || !Number.isFinite(z.high)) continue;
    if (z.low <= price && price <= z.high) {
      if (inside === null) inside = z;
      else {
        const dz = Math.abs((z.low + z.high) / 2 - price);
        const di = Math.abs((inside.low + inside.high) / 2 - price);
        if (dz < di || (dz === di && z.low < inside.low)) inside = z;
      }
    } else if (z.high < price) {
      if (below === null || z.high > below.high) below = z;
    } else if (above === null || z.low < above.low) above = z;
  }
  return {
    inside,
    below: below === null ? null : distanceTo(below, below.high, price, a),
    above: above === null ? null : distanceTo(above, above.low, price, a),
  };
}
