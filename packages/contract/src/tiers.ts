/** The account tiers, lowest first: what a caller's requests are gated and budgeted by. */
export const TIERS = ['free', 'pro', 'elite'] as const;
export type TierName = (typeof TIERS)[number];
