import type { ConfigDocument } from '@marketlens/contract';
import { api } from './api.js';
import type { Catalog } from './i18n/catalog.js';
import { CATALOGS } from './i18n/catalogs.js';
import { type Locale, pickLocale } from './locale.js';

/** The signed-in account as `/v1/auth/me` answers it. */
export interface Me {
  user: { id: string; email: string; created_at: string };
  tier: string;
  tier_expires_at: string | null;
}

/** What every page reads: the config document, the account (null when signed out) and the language. */
export interface AppState {
  config: ConfigDocument | null;
  me: Me | null;
  locale: Locale;
  /** The page's text in that language. */
  text: Catalog;
}

/** The page's state, filled by {@link refreshState}. */
const locale = pickLocale(navigator.languages ?? ['en']);
export const state: AppState = { config: null, me: null, locale, text: CATALOGS[locale] };

/**
 * Reads the config document and the account again (after sign-in, sign-out, an ended session or a
 * server restart). The config is read fresh: it depends on the caller.
 */
export async function refreshState(): Promise<void> {
  // Both at once; the account is kept only when the config says the caller is signed in.
  const me = api<Me>('/v1/auth/me', { fresh: true }).catch(() => null);
  state.config = await api<ConfigDocument>('/v2/config', { fresh: true });
  state.me = state.config.caller.state === 'anonymous' ? null : await me;
}

/** Whether the caller has Pro or better (from the config document's caller block). */
export function isPro(): boolean {
  return state.config?.caller.is_pro === true;
}
