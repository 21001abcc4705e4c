/** Wire schema of the signed-in account (`/v1/auth/me`, MCP `get_account_info`). */
import { z } from 'zod';

export const MeSchema = z
  .object({
    user: z.object({ id: z.uuid(), email: z.string(), created_at: z.iso.datetime() }),
    tier: z
      .enum(['free', 'pro', 'elite'])
      .nullable()
      .meta({ description: 'Effective tier; null when it cannot be read' }),
    tier_expires_at: z.iso.datetime().nullable().meta({ description: 'When the grant that raises the tier ends' }),
  })
  .meta({ id: 'Me' });

/** MCP `get_account_info`: the account and its favorite asset ids. */
export const AccountInfoSchema = MeSchema.extend({
  favorites: z.array(z.string()).meta({ description: 'Favorite asset ids, in the order the user keeps them' }),
});
