import { ALERT_KIND_TIMEFRAMES, NOTIFICATION_KINDS } from '@marketlens/contract';
import { describe, expect, it } from 'vitest';
import { harness } from '../../../test/support/harness.js';
import { OPENAPI_PATH } from '../../app.js';
import { ALERT_KINDS } from '../../platform/product-rules.js';

interface Branch {
  title: string;
  properties: { timeframe?: { enum?: string[]; type?: string } };
}

describe('the alert kinds’ timeframes in the OpenAPI document', () => {
  it('are the ones the service enforces', () => {
    for (const kind of NOTIFICATION_KINDS) {
      const enforced = ALERT_KINDS.find((k) => k.kind === kind)?.timeframes.map((t) => t.value);
      expect([kind, [...ALERT_KIND_TIMEFRAMES[kind]].sort()]).toEqual([kind, [...(enforced ?? ['missing'])].sort()]);
    }
  });

  it('are stated per kind on the create and update body', async () => {
    const doc = (await (await harness().request(OPENAPI_PATH)).json()) as {
      paths: Record<string, { post: { requestBody: { content: Record<string, { schema: { $ref?: string } }> } } }>;
      components: {
        schemas: Record<string, { anyOf: Branch[]; properties: { timeframe: { description: string } } }>;
      };
    };
    const ref = doc.paths['/v1/notifications'].post.requestBody.content['application/json'].schema.$ref;
    expect(ref).toBe('#/components/schemas/NotificationPayload');
    const payload = doc.components.schemas.NotificationPayload;
    const timeframes = new Map(payload.anyOf.map((b) => [b.title, b.properties.timeframe]));
    expect(timeframes.get('price')).toEqual({ type: 'null' });
    expect(timeframes.get('zone')?.enum?.sort()).toEqual(['15m', '1d', '1h', 'd1', 'h1', 'm15']);
    expect(timeframes.get('rsi')?.enum).not.toContain('h12');
    expect(timeframes.get('percent_change')?.enum).toContain('h12');
    expect(payload.properties.timeframe.description).toContain('smart_zone: one of m5, m15, m30, h1, h4, d1, w1');
    expect(payload.properties.timeframe.description).toContain('price: none');
  });
});
