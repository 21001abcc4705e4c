/** Wire schema of a Web Push device: a browser subscription that receives the user's alert notices. */
import { z } from 'zod';

export const PushDeviceSchema = z
  .object({
    id: z.uuid(),
    endpoint: z.string().meta({ description: 'The push service URL of the subscription' }),
    name: z.string().nullable(),
    active: z.boolean().meta({ description: 'false once the push service answered 404/410 (subscription gone)' }),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
    deactivated_at: z.iso.datetime().nullable(),
    deactivated_reason: z.string().nullable(),
  })
  .meta({ id: 'PushDevice' });
export type PushDevice = z.output<typeof PushDeviceSchema>;
