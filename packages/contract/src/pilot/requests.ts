/** Request schemas of the pilot routes. */
import { z } from 'zod';

/** `GET /pilot/spectate/track-record` query. */
export const PilotTrackRecordQuery = z.object({
  before_trade: z.coerce
    .number()
    .int()
    .min(1)
    .max(Number.MAX_SAFE_INTEGER)
    .optional()
    .meta({ description: 'Page backwards: trades with an index below this' }),
});
