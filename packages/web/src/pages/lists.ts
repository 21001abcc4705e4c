import type { AssetListRow, ScreenerResponse, SignalList } from '@marketlens/contract';
import { api } from '../api.js';
import { h, replace } from '../dom.js';
import { pct, price, prob, words } from '../format.js';
import { describeError } from '../messages.js';
import { matchesSearch } from '../search.js';
import { isPro, state } from '../state.js';
import { assetPath } from '../timeframes.js';

const TABS = [
  ['watchlist', 'Watchlist'],
  ['assets', 'All assets'],
  ['signals', 'Signals'],
  ['screener', 'Screener'],
] as const;

/**
 * Up and down arrows move the focus between the rows' links of a list (Home and End to its ends);
 * Tab still leaves the list. The rows are links, so Enter opens the asset page.
 */
export function rowKeys(list: HTMLElement): void {
  list.addEventListener('keydown', (event) => {
    const links = [...list.querySelectorAll<HTMLAnchorElement>('a.row-link')];
    const at = links.indexOf(document.activeElement as HTMLAnchorElement);
    if (at < 0) return;
    let next = at;
    if (event.key === 'ArrowDown') next = Math.min(links.length - 1, at + 1);
    else if (event.key === 'ArrowUp') next = Math.max(0, at - 1);
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = links.length - 1;
    else return;
    event.preventDefault();
    links[next]?.focus();
  });
}

function assetLink(id: string, text: string): HTMLAnchorElement {
  return h('a', { class: 'row-link', href: assetPath(id) }, text);
}

/** A table of assets with their price and changes, each row linking to its page. */
function assetTable(rows: AssetListRow[], favorites: Set<string>, onToggle: (id: string, on: boolean) => void) {
  const locale = state.locale;
  const signedIn = state.me !== null;
  const table = h(
    'table',
    { class: 'table list', 'data-testid': 'asset-list' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', { scope: 'col' }, 'Asset'),
        h('th', { scope: 'col' }, 'Class'),
        h('th', { scope: 'col', class: 'n' }, 'Price'),
        h('th', { scope: 'col', class: 'n' }, '1h'),
        h('th', { scope: 'col', class: 'n' }, '24h'),
        h('th', { scope: 'col', class: 'n' }, '7d'),
        signedIn && h('th', { scope: 'col' }, 'Watch'),
      ),
    ),
    h(
      'tbody',
      {},
      ...rows.map((r) => {
        const on = favorites.has(r.id);
        return h(
          'tr',
          { 'data-asset': r.id },
          h('td', {}, assetLink(r.id, `${r.name} (${r.symbol})`)),
          h('td', {}, r.asset_class),
          h('td', { class: 'n' }, price(r.price, locale)),
          h('td', { class: 'n' }, pct(r.change_1h_pct, locale)),
          h('td', { class: 'n' }, pct(r.change_24h_pct, locale)),
          h('td', { class: 'n' }, pct(r.change_7d_pct, locale)),
          signedIn &&
            h(
              'td',
              {},
              h(
                'button',
                {
                  type: 'button',
                  class: 'fav',
                  'aria-pressed': on ? 'true' : 'false',
                  'aria-label': `${on ? 'Remove' : 'Add'} ${r.name} ${on ? 'from' : 'to'} the watchlist`,
                  onclick: () => onToggle(r.id, !on),
                },
                on ? '★' : '☆',
              ),
            ),
        );
      }),
    ),
  );
  rowKeys(table);
  return table;
}

/** The lists page: the watchlist, all assets (with search), the signal list and the screener. */
export function renderListsPage(root: HTMLElement, tab: string, query: string, navigate: (path: string) => void) {
  const message = h('div', { class: 'message', role: 'alert', 'data-testid': 'list-message' });
  const body = h('div', { class: 'list-body' });
  const nav = h(
    'nav',
    { class: 'tabs', 'aria-label': 'Lists' },
    ...TABS.map(([id, label]) =>
      h('a', { href: `/app/lists/${id}`, 'aria-current': id === tab ? 'page' : false }, label),
    ),
  );
  replace(root, h('h1', {}, 'Lists'), nav, message, body);
  let stopped = false;
  const fail = (err: unknown) => {
    if (!stopped) message.textContent = describeError(err);
  };

  const favoritesOf = async (): Promise<Set<string>> => {
    if (state.me === null) return new Set();
    const rows = await api<AssetListRow[]>('/v2/assets/favorites?asset_class=all&limit=500', { fresh: true });
    return new Set(rows.map((r) => r.id));
  };
  const toggle = async (id: string, on: boolean) => {
    try {
      if (on) await api('/v2/assets/favorites', { method: 'POST', body: { asset_id: id } });
      else await api(`/v2/assets/favorites/${encodeURIComponent(id)}`, { method: 'DELETE' });
      await show();
    } catch (err) {
      fail(err);
    }
  };

  const show = async () => {
    message.textContent = '';
    if (tab === 'watchlist') {
      if (state.me === null) {
        replace(body, h('p', {}, 'Sign in to keep a watchlist. ', h('a', { href: '/app/account' }, 'Sign in')));
        return;
      }
      const rows = await api<AssetListRow[]>('/v2/assets/favorites?asset_class=all&limit=500', { fresh: true });
      const favs = new Set(rows.map((r) => r.id));
      replace(
        body,
        rows.length === 0
          ? h('p', {}, 'Your watchlist is empty: add assets from All assets.')
          : assetTable(rows, favs, (id, on) => void toggle(id, on)),
      );
    } else if (tab === 'assets') {
      const [rows, favs] = await Promise.all([
        api<AssetListRow[]>('/v2/assets/?asset_class=all&limit=500'),
        favoritesOf(),
      ]);
      const found = rows.filter((r) => matchesSearch(r, query));
      replace(
        body,
        query !== '' ? h('p', {}, `${found.length} assets match “${query}”.`) : null,
        assetTable(found, favs, (id, on) => void toggle(id, on)),
      );
    } else if (tab === 'signals') {
      await showSignals(body);
    } else {
      const screener = await api<ScreenerResponse>('/v2/assets/screener?asset_class=all');
      const locale = state.locale;
      const list = (
        title: string,
        items: { asset: { id: string; name: string; symbol: string } }[],
        detail: (i: number) => string,
      ) => {
        const ul = h(
          'ul',
          { class: 'plain rows' },
          ...items.map((it, i) =>
            h('li', {}, assetLink(it.asset.id, `${it.asset.name} (${it.asset.symbol})`), ' ', detail(i)),
          ),
        );
        rowKeys(ul);
        return h(
          'section',
          { class: 'panel' },
          h('h2', {}, title),
          items.length === 0 ? h('p', {}, 'None today.') : ul,
        );
      };
      replace(
        body,
        h('p', {}, `${screener.assets_screened} assets screened on d1.`),
        list(
          'Breakouts',
          screener.breakouts,
          (i) => `${screener.breakouts[i].direction} · ${pct(screener.breakouts[i].distance_pct, locale)}`,
        ),
        list('Oversold', screener.oversold, (i) => `RSI ${screener.oversold[i].rsi_14.toFixed(1)}`),
        list('Volume surges', screener.volume_surges, (i) => `×${screener.volume_surges[i].volume_ratio.toFixed(1)}`),
      );
    }
  };

  const showSignals = async (target: HTMLElement) => {
    const config = state.config;
    const pro = isPro();
    const params = new URLSearchParams(location.search);
    const timeframe = params.get('timeframe') ?? 'd1';
    const controls = h(
      'form',
      { class: 'controls', 'aria-label': 'Signal list controls' },
      h(
        'label',
        {},
        'Timeframe ',
        h(
          'select',
          {
            name: 'timeframe',
            onchange: (e: Event) => navigate(`/app/lists/signals?timeframe=${(e.target as HTMLSelectElement).value}`),
          },
          ...(config?.signals.timeframes ?? ['d1']).map((t) => h('option', { value: t, selected: t === timeframe }, t)),
        ),
      ),
      ...(config?.signals.controls ?? []).map((c) =>
        h(
          'label',
          { class: pro ? '' : 'locked', title: c.description },
          `${words(c.name)} `,
          c.type === 'enum' && c.values !== null
            ? h(
                'select',
                { name: c.name, disabled: !pro, 'aria-describedby': 'pro-note' },
                h('option', { value: '' }, c.default === null ? 'any' : `${c.default} (default)`),
                ...c.values.map((v) => h('option', { value: v, selected: params.get(c.name) === v }, words(v))),
              )
            : h('input', {
                name: c.name,
                disabled: !pro,
                value: params.get(c.name) ?? '',
                placeholder: c.default ?? (c.type === 'range' ? 'min,max' : ''),
                'aria-describedby': 'pro-note',
              }),
          // The tier the control needs, for a caller without it.
          pro ? '' : h('span', { class: 'badge' }, 'Pro'),
        ),
      ),
      pro ? h('button', { type: 'submit' }, 'Apply') : null,
      h(
        'p',
        { id: 'pro-note', class: 'note' },
        pro ? 'Controls apply as you type and press Enter.' : 'The controls need the Pro plan.',
      ),
    );
    controls.addEventListener('submit', (e) => {
      e.preventDefault();
      const data = new URLSearchParams();
      for (const [k, v] of new FormData(controls)) if (typeof v === 'string' && v !== '') data.set(k, v);
      navigate(`/app/lists/signals?${data}`);
    });
    const q = new URLSearchParams(location.search);
    if (!q.has('timeframe')) q.set('timeframe', timeframe);
    const list = await api<SignalList>(`/v2/assets/signals?${q}`);
    const locale = state.locale;
    const table = h(
      'table',
      { class: 'table list', 'data-testid': 'signal-list' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { scope: 'col' }, 'Asset'),
          h('th', { scope: 'col' }, 'Action'),
          h('th', { scope: 'col', class: 'n' }, 'Confidence'),
          h('th', { scope: 'col' }, 'Trend'),
          h('th', { scope: 'col', class: 'n' }, 'Change'),
        ),
      ),
      h(
        'tbody',
        {},
        ...list.rows.map((r) =>
          h(
            'tr',
            {},
            h('td', {}, assetLink(r.asset.id, `${r.asset.name} (${r.asset.symbol})`)),
            h('td', { class: `action-${r.action}` }, r.action),
            h('td', { class: 'n' }, prob(r.confidence, locale)),
            h('td', {}, r.trend),
            h('td', { class: 'n' }, pct(r.change_pct, locale)),
          ),
        ),
      ),
    );
    rowKeys(table);
    replace(
      target,
      controls,
      list.restricted ? h('p', { class: 'note' }, `The free list: the top ${list.limit} of ${list.total}.`) : null,
      table,
    );
  };

  show().catch(fail);
  return () => {
    stopped = true;
  };
}
