import './styles.css';
import { ApiError, prefetch } from './api.js';
import { h, replace } from './dom.js';
import { word } from './i18n/catalogs.js';
import { describeError } from './messages.js';
import { renderAccountPage, renderVerifyPage } from './pages/account.js';
import { assetReads, renderAssetPage } from './pages/asset.js';
import { renderListsPage } from './pages/lists.js';
import { refreshState, state } from './state.js';
import { parseRoute } from './timeframes.js';

const main = document.getElementById('main') as HTMLElement;
const who = document.getElementById('who') as HTMLElement;
const status = document.getElementById('status') as HTMLElement;
let cleanup: () => void = () => undefined;

/** Shows a page-wide notice (the server away, a session ended), or clears it. */
function notice(text: string): void {
  status.textContent = text;
  status.hidden = text === '';
}

function showWho(): void {
  const t = state.text;
  replace(
    who,
    state.me === null
      ? h('a', { href: '/app/account' }, t.shell.signIn)
      : t.shell.who(state.me.user.email, word(t.words.tiers, state.me.tier)),
  );
}

/** The page's frame (index.html, written in English) in the browser's language. */
function localizeShell(): void {
  const t = state.text.shell;
  document.documentElement.lang = state.locale;
  const set = (id: string, text: string) => {
    const el = document.getElementById(id);
    if (el !== null) el.textContent = text;
  };
  set('skip', t.skip);
  set('nav-lists', t.lists);
  set('nav-account', t.account);
  set('search-label', t.searchLabel);
  document.getElementById('main-nav')?.setAttribute('aria-label', t.mainNav);
  document.getElementById('search')?.setAttribute('placeholder', t.searchPlaceholder);
}

/** Renders the page the location names. */
function render(): void {
  cleanup();
  showWho();
  const route = parseRoute(location.pathname, location.search);
  const query = new URLSearchParams(location.search).get('q') ?? '';
  const search = document.getElementById('search') as HTMLInputElement | null;
  if (search !== null && search.value === '' && query !== '') search.value = query;
  switch (route.page) {
    case 'asset':
      cleanup = renderAssetPage(main, route.assetId, route.timeframe, navigate);
      break;
    case 'lists':
      cleanup = renderListsPage(main, route.tab, query, navigate);
      break;
    case 'account':
      cleanup = renderAccountPage(main, render);
      break;
    case 'verify':
      cleanup = renderVerifyPage(main, route.token);
      break;
    default:
      cleanup = renderListsPage(main, state.me === null ? 'assets' : 'watchlist', query, navigate);
  }
}

/** Moves to a path of the app without reloading. */
function navigate(path: string): void {
  history.pushState(null, '', path);
  render();
  main.focus({ preventScroll: true });
}

document.addEventListener('click', (event) => {
  const link = (event.target as Element | null)?.closest?.('a');
  if (link === null || link === undefined || event.defaultPrevented || event.button !== 0) return;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const url = new URL(link.href, location.href);
  if (url.origin !== location.origin || !url.pathname.startsWith('/app')) return;
  event.preventDefault();
  navigate(url.pathname + url.search);
});
window.addEventListener('popstate', render);
document.getElementById('search-form')?.addEventListener('submit', (event) => {
  event.preventDefault();
  const q = (document.getElementById('search') as HTMLInputElement).value.trim();
  navigate(`/app/lists/assets${q === '' ? '' : `?q=${encodeURIComponent(q)}`}`);
});

/**
 * Reads the state once; while the server cannot be reached, says so and tries again, so the page
 * comes back by itself after a restart. An ended session is said once, then the page goes on
 * signed out (the server has removed the cookie).
 */
async function start(attempt = 0, keep = ''): Promise<void> {
  try {
    await refreshState();
    notice(keep);
    render();
  } catch (err) {
    if (err instanceof ApiError && err.code === 'InvalidSession') {
      await start(attempt, describeError(err, state.text));
      return;
    }
    notice(describeError(err, state.text));
    replace(
      main,
      h('h1', {}, 'marketlens'),
      h('p', { role: 'alert', 'data-testid': 'start-message' }, describeError(err, state.text)),
    );
    setTimeout(() => void start(attempt + 1), Math.min(10_000, 1_000 * 2 ** attempt));
  }
}

localizeShell();

// An asset page's reads start with the app, beside the config: the chart need not wait for it.
const first = parseRoute(location.pathname, location.search);
if (first.page === 'asset') {
  const reads = assetReads(first.assetId, first.timeframe ?? 'd1');
  prefetch(reads.candles);
  prefetch(reads.analysis);
}
void start();
