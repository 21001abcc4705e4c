import { describe, expect, it } from 'vitest';
import { CampaignSchema, PromotionSchema } from './responses.js';
import { campaignWire, promotionWire } from './serialize.js';

describe('promotion serializers', () => {
  it('publishes a promotion without its bookkeeping', () => {
    const promotion = {
      id: 'promo-1',
      connection_id: 'bybit',
      partner_name: 'Bybit',
      title: 'Pro for a month',
      description: 'Trade on Bybit',
      promotional_value: '30 days of Pro',
      bonus_description: '',
      referral_url: 'https://example.com/r',
      icon: 'data:,',
      theme: { primary_color: '#f7a600', background_color: '#0b1020', text_color: '#ffffff' },
      steps: [{ title: 'Sign up', description: 'Through the link', action_url: null }],
      validations: [{ field: 'uid' as const, label: 'UID', pattern: '[0-9]{5,20}', message: 'digits' }],
    };
    const out = promotionWire({ ...promotion, created_at: 1 } as typeof promotion);
    expect(out).toEqual(promotion);
    expect(PromotionSchema.strict().parse(out)).toEqual(out);
  });

  it('publishes a campaign with its registration close as an ISO date-time and unset prizes as null', () => {
    const out = campaignWire({
      id: 'spring-cup',
      url: 'https://example.com/c',
      video_url: 'https://example.com/v.mp4',
      web_banner_video_position: 'center',
      registration_close: Date.UTC(2027, 2, 1, 12, 30),
      exchange_icon_url: 'https://example.com/i.png',
      exchange_icon_alt: 'Bybit',
      prize_amount: '1 BTC',
      prize_banner_label: null,
      prize_icon_url: null,
    });
    expect(out).toMatchObject({
      registration_close: '2027-03-01T12:30:00.000Z',
      prize_amount: '1 BTC',
      prize_banner_label: null,
      prize_icon_url: null,
    });
    expect(CampaignSchema.strict().parse(out)).toEqual(out);
  });
});
