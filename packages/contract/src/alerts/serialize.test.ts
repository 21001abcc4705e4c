import { describe, expect, it } from 'vitest';
import { PushDeviceSchema } from './devices.js';
import { NotificationSchema } from './responses.js';
import { type AlertSource, alertWire, pushDeviceWire, webhookWire } from './serialize.js';
import { AlertWebhookSchema } from './webhooks.js';

// 2026-11-25T16:00:00.000Z
const T0 = Date.UTC(2026, 10, 25, 16);
const HOUR = 3_600_000;
const ID = '0b6f4c1e-8a44-4a8e-9d55-1f0f3b8c2a10';
const USER = '5a1d2f7e-3c4b-4d8e-9f00-112233445566';

const alert: AlertSource = {
  id: ID,
  user_id: USER,
  asset_id: 'bitcoin',
  kind: 'zone',
  timeframe: 'h4',
  evaluates_as: 'h1',
  target: 59_500,
  direction: 'below',
  zone_low: 59_000,
  zone_high: 60_000,
  reference: 61_000,
  status: 'triggered',
  created_at: T0,
  updated_at: T0 + HOUR,
  armed_at: T0,
  expires_at: T0 + 90 * 24 * HOUR,
  triggered_at: T0 + 2 * HOUR,
  trigger_value: 60_000,
  trigger_candle: T0 + HOUR,
};

describe('alert serializers', () => {
  it('publishes an alert with its zone, live figures and ISO times', () => {
    const asset = { id: 'bitcoin', symbol: 'BTC', name: 'Bitcoin', icon: 'data:,', asset_class: 'coins' as const };
    const out = alertWire(alert, asset, { price: 59_800, value: 59_800, as_of: T0 + 3 * HOUR });
    expect(out).toEqual({
      id: ID,
      kind: 'zone',
      user_id: USER,
      created_at: '2026-11-25T16:00:00.000Z',
      status: 'triggered',
      body: {
        asset_id: 'bitcoin',
        asset,
        kind: 'zone',
        target: 59_500,
        timeframe: 'h4',
        evaluates_as: 'h1',
        direction: 'below',
        zone: { low: 59_000, high: 60_000 },
        reference: 61_000,
        live: { price: 59_800, value: 59_800, as_of: '2026-11-25T19:00:00.000Z' },
        armed_at: '2026-11-25T16:00:00.000Z',
        expires_at: '2027-02-23T16:00:00.000Z',
        updated_at: '2026-11-25T17:00:00.000Z',
        triggered_at: '2026-11-25T18:00:00.000Z',
        trigger_value: 60_000,
        trigger_candle_open: '2026-11-25T17:00:00.000Z',
      },
    });
    expect(NotificationSchema.strict().parse(out)).toEqual(out);
  });

  it('gives a null zone unless both edges are known, and null live figures when the market cannot answer', () => {
    const price = { ...alert, kind: 'price' as const, timeframe: null, evaluates_as: null, zone_low: null };
    const out = alertWire({ ...price, triggered_at: null, trigger_candle: null }, null, {
      price: null,
      value: null,
      as_of: null,
    });
    expect(out.body).toMatchObject({
      asset: null,
      zone: null,
      live: { price: null, value: null, as_of: null },
      triggered_at: null,
      trigger_candle_open: null,
    });
  });

  it('publishes a webhook and a push device without their secrets', () => {
    const stored = {
      id: ID,
      url: 'https://hooks.example.com/ml',
      endpoint: 'https://push.example.net/send/d6f2c1',
      name: null,
      secret: 'whsec_sealed',
      p256dh: 'key',
      auth: 'auth',
      active: false,
      created_at: T0,
      updated_at: T0 + HOUR,
      deactivated_at: T0 + HOUR,
      deactivated_reason: 'gone',
    };
    const times = {
      created_at: '2026-11-25T16:00:00.000Z',
      updated_at: '2026-11-25T17:00:00.000Z',
      deactivated_at: '2026-11-25T17:00:00.000Z',
    };
    const hook = webhookWire(stored);
    expect(hook).toEqual({
      id: ID,
      url: stored.url,
      name: null,
      active: false,
      ...times,
      deactivated_reason: 'gone',
    });
    expect(AlertWebhookSchema.strict().parse(hook)).toEqual(hook);
    const device = pushDeviceWire({ ...stored, active: true, deactivated_at: null, deactivated_reason: null });
    expect(device).toEqual({
      id: ID,
      endpoint: stored.endpoint,
      name: null,
      active: true,
      ...times,
      deactivated_at: null,
      deactivated_reason: null,
    });
    expect(PushDeviceSchema.strict().parse(device)).toEqual(device);
    expect(JSON.stringify([hook, device])).not.toMatch(/whsec_|p256dh|"auth"/);
  });
});
