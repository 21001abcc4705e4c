import type { AssetListRow, ScreenerResponse, SignalList } from '@marketlens/contract';
import { api } from '../api.js';
import { h, replace } from '../dom.js';
import { num, pct, price, prob } from '../format.js';
import type { Catalog } from '../i18n/catalog.js';
import { word } from '../i18n/catalogs.js';
import { describeError } from '../messages.js';
import { matchesSearch } from '../search.js';
import { isPro, state } from '../state.js';
import { assetPath } from '../timeframes.js';

/** The tabs of the lists page with their names in the page's language. */
function tabs(t: Catalog) {
  return [
    ['watchlist', t.lists.watchlist],
    ['assets', t.lists.allAssets],
    ['signals', t.lists.signals],
    ['screener', t.lists.screener],
  ] as const;
}

/** A value of a signal control (an action, a trend, a zone, a pattern) in the page's language. */
function controlValue(t: Catalog, value: string): string {
  const w = t.words;
  for (const table of [w.actions, w.trends, w.breakouts, w.fearGreedZones, w.zoneKinds, w.patterns, w.sorts]) {
    if (Object.hasOwn(table, value)) return word(table, value);
  }
  return word({}, value);
}

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
  const t = state.text;
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
        h('th', { scope: 'col' }, t.lists.asset),
        h('th', { scope: 'col' }, t.lists.assetClass),
        h('th', { scope: 'col', class: 'n' }, t.lists.price),
        h('th', { scope: 'col', class: 'n' }, '1h'),
        h('th', { scope: 'col', class: 'n' }, '24h'),
        h('th', { scope: 'col', class: 'n' }, '7d'),
        signedIn && h('th', { scope: 'col' }, t.lists.watch),
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
          h('td', {}, word(t.words.assetClasses, r.asset_class)),
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
                  'aria-label': on ? t.lists.remove(r.name) : t.lists.add(r.name),
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
  const t = state.text;
  const message = h('div', { class: 'message', role: 'alert', 'data-testid': 'list-message' });
  const body = h('div', { class: 'list-body' });
  const nav = h(
    'nav',
    { class: 'tabs', 'aria-label': t.lists.tabs },
    ...tabs(t).map(([id, label]) =>
      h('a', { href: `/app/lists/${id}`, 'aria-current': id === tab ? 'page' : false }, label),
    ),
  );
  replace(root, h('h1', {}, t.lists.title), nav, message, body);
  let stopped = false;
  const fail = (err: unknown) => {
    if (!stopped) message.textContent = describeError(err, t);
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
        replace(body, h('p', {}, `${t.lists.signInForWatchlist} `, h('a', { href: '/app/account' }, t.shell.signIn)));
        return;
      }
      const rows = await api<AssetListRow[]>('/v2/assets/favorites?asset_class=all&limit=500', { fresh: true });
      const favs = new Set(rows.map((r) => r.id));
      replace(
        body,
        rows.length === 0
          ? h('p', {}, t.lists.emptyWatchlist)
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
        query !== '' ? h('p', {}, t.lists.matches(found.length, query)) : null,
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
          items.length === 0 ? h('p', {}, t.lists.noneToday) : ul,
        );
      };
      replace(
        body,
        h('p', {}, t.lists.screened(screener.assets_screened, 'd1')),
        list(
          t.lists.breakouts,
          screener.breakouts,
          (i) =>
            `${word(t.words.breakouts, screener.breakouts[i].direction)} · ${pct(screener.breakouts[i].distance_pct, locale)}`,
        ),
        list(t.lists.oversold, screener.oversold, (i) => `RSI ${num(screener.oversold[i].rsi_14, locale, 1)}`),
        list(
          t.lists.volumeSurges,
          screener.volume_surges,
          (i) => `×${num(screener.volume_surges[i].volume_ratio, locale, 1)}`,
        ),
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
      { class: 'controls', 'aria-label': t.lists.controls },
      h(
        'label',
        {},
        `${t.lists.timeframe} `,
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
          // The page's hint for a control it knows; the server's (English) description for a newer one.
          { class: pro ? '' : 'locked', title: word(t.words.signalControlHints, c.name, c.description) },
          `${word(t.words.signalControls, c.name)} `,
          c.type === 'enum' && c.values !== null
            ? h(
                'select',
                { name: c.name, disabled: !pro, 'aria-describedby': 'pro-note' },
                h(
                  'option',
                  { value: '' },
                  c.default === null ? t.lists.any : t.lists.byDefault(controlValue(t, c.default)),
                ),
                ...c.values.map((v) =>
                  h('option', { value: v, selected: params.get(c.name) === v }, controlValue(t, v)),
                ),
              )
            : h('input', {
                name: c.name,
                disabled: !pro,
                value: params.get(c.name) ?? '',
                placeholder: c.default ?? (c.type === 'range' ? 'min,max' : ''),
                'aria-describedby': 'pro-note',
              }),
          // The tier the control needs, for a caller without it.
          pro ? '' : h('span', { class: 'badge' }, t.words.tiers.pro),
        ),
      ),
      pro ? h('button', { type: 'submit' }, t.lists.apply) : null,
      h('p', { id: 'pro-note', class: 'note' }, pro ? t.lists.controlsApply : t.lists.controlsNeedPro),
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
          h('th', { scope: 'col' }, t.lists.asset),
          h('th', { scope: 'col' }, t.lists.action),
          h('th', { scope: 'col', class: 'n' }, t.lists.confidence),
          h('th', { scope: 'col' }, t.lists.trend),
          h('th', { scope: 'col', class: 'n' }, t.lists.change),
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
            h('td', { class: `action-${r.action}` }, word(t.words.actions, r.action)),
            h('td', { class: 'n' }, prob(r.confidence, locale)),
            h('td', {}, word(t.words.trends, r.trend)),
            h('td', { class: 'n' }, pct(r.change_pct, locale)),
          ),
        ),
      ),
    );
    rowKeys(table);
    replace(
      target,
      controls,
      list.restricted ? h('p', { class: 'note' }, t.lists.freeList(list.limit, list.total)) : null,
      table,
    );
  };

  show().catch(fail);
  return () => {
    stopped = true;
  };
}
