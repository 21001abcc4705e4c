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

/** `POST /v1/push/devices` body: a browser `PushSubscription` as `toJSON()` gives it, and a label. */
export const PushSubscriptionSchema = z
  .object({
    endpoint: z.string().min(1).max(2048).meta({
      format: 'uri',
      description: 'PushSubscription.endpoint: an https URL on port 443 of a public host',
      example: 'https://push.example.net/send/d6f2c1',
    }),
    keys: z.object({
      // The lengths are those the service checks (`checkSubscription`): 65 bytes starting 0x04, and 16 bytes.
      p256dh: z.string().min(1).max(200).meta({
        description: 'P-256 public key of the subscription (an uncompressed point, 65 bytes), base64url',
        pattern: '^B[A-Za-z0-9_-]{86}={0,2}$',
        example: 'BPy1g3pxMoQQdmpyqRQCYp5Uk62z5qI7DPGCGoEmvgFi5tCmqNhgHAgc4MnMDC1uW2UHFIKB49Y5jI0-3lNmmlA',
      }),
      auth: z.string().min(1).max(100).meta({
        description: 'Auth secret (16 bytes), base64url',
        pattern: '^[A-Za-z0-9_-]{22}={0,2}$',
        example: 'ERb36ta3_gyTVUqngJt_wA',
      }),
    }),
    expirationTime: z.number().nullable().optional().meta({ description: 'As the browser reports it; not used' }),
    name: z.string().min(1).max(100).optional().meta({ description: 'A label for the device list' }),
  })
  .meta({ id: 'PushSubscription' });

export const VapidPublicKeySchema = z
  .object({
    public_key: z.string().meta({
      description: 'VAPID application server key (base64url): `applicationServerKey` of pushManager.subscribe',
    }),
  })
  .meta({ id: 'VapidPublicKey' });

/** `{device_id}` of `DELETE /v1/push/devices/{device_id}`. */
export const DeviceIdParams = z.object({ device_id: z.uuid() });
