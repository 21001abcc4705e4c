import type {
  ApiKey,
  CalibrationBucket,
  Notification,
  PositionAnalysis,
  RecordStats,
  ServiceTrackRecord,
  Session,
  UserConnection,
} from '@marketlens/contract';
import { ApiError, api } from '../api.js';
import { type Child, h, replace } from '../dom.js';
import { num, price, prob } from '../format.js';
import type { Catalog } from '../i18n/catalog.js';
import { word } from '../i18n/catalogs.js';
import { describeError } from '../messages.js';
import { enablePush } from '../push.js';
import { refreshState, state } from '../state.js';

const SVG = 'http://www.w3.org/2000/svg';

function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number>,
): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

/**
 * The reliability diagram: each calibration bucket's hit rate (y) against its mean confidence (x),
 * beside the diagonal a calibrated signal follows; a bucket with no resolved plan is left out.
 */
export function reliabilityDiagram(buckets: readonly CalibrationBucket[], t: Catalog, locale: string): SVGSVGElement {
  const size = 220;
  const pad = 28;
  const scale = (v: number) => pad + v * (size - 2 * pad);
  const root = svg('svg', { viewBox: `0 0 ${size} ${size}`, width: size, height: size, role: 'img' });
  root.setAttribute('aria-label', t.account.diagramLabel);
  root.append(
    svg('rect', { x: pad, y: pad, width: size - 2 * pad, height: size - 2 * pad, fill: 'none', stroke: '#3a4457' }),
    svg('line', {
      x1: scale(0),
      y1: scale(1),
      x2: scale(1),
      y2: scale(0),
      stroke: '#5b6a82',
      'stroke-dasharray': '4 3',
    }),
  );
  for (const b of buckets) {
    if (b.hit_rate === null || b.mean_confidence === null) continue;
    const dot = svg('circle', {
      cx: scale(b.mean_confidence),
      cy: scale(1 - b.hit_rate),
      r: Math.min(9, 3 + Math.sqrt(b.resolved)),
      fill: '#4f8cff',
    });
    const title = svg('title', {});
    title.textContent = t.account.diagramDot(prob(b.mean_confidence, locale), b.hits, b.resolved);
    dot.append(title);
    root.append(dot);
  }
  return root;
}

function form(
  label: string,
  fields: Child[],
  submit: string,
  onSubmit: (data: FormData) => Promise<void>,
  testid: string,
): HTMLFormElement {
  const out = h('p', { class: 'form-message', role: 'alert' });
  const f = h(
    'form',
    { class: 'form', 'aria-label': label, 'data-testid': testid },
    ...fields,
    h('button', { type: 'submit' }, submit),
    out,
  );
  f.addEventListener('submit', (e) => {
    e.preventDefault();
    out.textContent = '';
    onSubmit(new FormData(f)).catch((err: unknown) => {
      out.textContent = describeError(err, state.text);
    });
  });
  return f;
}

function field(name: string, label: string, type: string, extra: Record<string, string | boolean> = {}): HTMLElement {
  const id = `f-${name}-${Math.random().toString(36).slice(2, 7)}`;
  return h('p', { class: 'field' }, h('label', { for: id }, label), h('input', { id, name, type, ...extra }));
}

const text = (data: FormData, name: string) => {
  const v = data.get(name);
  return typeof v === 'string' ? v : '';
};

/** Signed out: sign up (verify when the server asks for it) and sign in. */
function signedOut(root: HTMLElement, rerender: () => void): void {
  const a = state.text.account;
  const credentials = async (path: string, data: FormData) => {
    const body = { email: text(data, 'email'), password: text(data, 'password') };
    const result = await api<Session | { email: string; verification: 'pending' }>(path, {
      method: 'POST',
      body,
      headers: { 'x-session-cookie': '1' },
    });
    if ('verification' in result) {
      replace(root, h('h1', {}, a.checkEmail), h('p', { role: 'status' }, a.verificationSent(result.email)));
      return;
    }
    await refreshState();
    rerender();
  };
  replace(
    root,
    h('h1', {}, a.title),
    h(
      'div',
      { class: 'cols' },
      h(
        'section',
        { class: 'panel', 'aria-labelledby': 'in-h' },
        h('h2', { id: 'in-h' }, a.signIn),
        form(
          a.signIn,
          [
            field('email', a.email, 'email', { required: true, autocomplete: 'username' }),
            field('password', a.password, 'password', { required: true, autocomplete: 'current-password' }),
          ],
          a.signIn,
          (d) => credentials('/v1/auth/login', d),
          'login',
        ),
      ),
      h(
        'section',
        { class: 'panel', 'aria-labelledby': 'up-h' },
        h('h2', { id: 'up-h' }, a.createAccount),
        form(
          a.signUp,
          [
            field('email', a.email, 'email', { required: true, autocomplete: 'email' }),
            field('password', a.newPassword, 'password', {
              required: true,
              minlength: '8',
              autocomplete: 'new-password',
            }),
          ],
          a.signUp,
          (d) => credentials('/v1/auth/signup', d),
          'signup',
        ),
      ),
    ),
  );
}

/** A section filled by `load`, showing the API's message when it fails. */
function section(title: string, id: string, load: (body: HTMLElement) => Promise<void>): HTMLElement {
  const body = h('div', { class: 'section-body' }, h('p', {}, state.text.account.loading));
  const s = h(
    'section',
    { class: 'panel', 'aria-labelledby': `${id}-h`, 'data-testid': id },
    h('h2', { id: `${id}-h` }, title),
    body,
  );
  load(body).catch((err: unknown) => replace(body, h('p', { role: 'alert' }, describeError(err, state.text))));
  return s;
}

function alertsSection(): HTMLElement {
  const t = state.text;
  const a = t.account;
  return section(a.alerts, 'alerts', async (body) => {
    const list = await api<Notification[]>('/v1/notifications', { fresh: true });
    const refresh = () => (body.parentElement as HTMLElement).replaceWith(alertsSection());
    const status = h('p', { role: 'status', 'data-testid': 'push-status' });
    replace(
      body,
      h(
        'ul',
        { class: 'plain rows', 'data-testid': 'alert-list' },
        ...list.map((n) => {
          const asset = n.body.asset?.name ?? n.body.asset_id;
          const kind = word(t.words.alertKinds, n.kind);
          const alertStatus = word(t.words.alertStatuses, n.status);
          const target = String(n.body.target);
          return h(
            'li',
            {},
            n.body.timeframe
              ? a.alertRowOn(asset, kind, target, n.body.timeframe, alertStatus)
              : a.alertRow(asset, kind, target, alertStatus),
            ' ',
            h(
              'button',
              {
                type: 'button',
                'aria-label': a.deleteAlert(kind, n.body.asset_id),
                onclick: () => {
                  api(`/v1/notifications/${n.id}`, { method: 'DELETE' })
                    .then(refresh)
                    .catch((err: unknown) => {
                      status.textContent = describeError(err, t);
                    });
                },
              },
              a.delete,
            ),
          );
        }),
      ),
      list.length === 0 ? h('p', {}, a.noAlerts) : null,
      form(
        a.createAlertForm,
        [
          field('asset_id', a.assetId, 'text', { required: true, value: 'bitcoin' }),
          h(
            'p',
            { class: 'field' },
            h('label', { for: 'alert-kind' }, a.kind),
            h(
              'select',
              { id: 'alert-kind', name: 'kind' },
              ...(state.config?.alerts.kinds ?? []).map((k) =>
                h('option', { value: k.kind }, word(t.words.alertKinds, k.kind)),
              ),
            ),
          ),
          field('target', a.target, 'number', { required: true, step: 'any' }),
          field('timeframe', a.alertTimeframe, 'text', { placeholder: 'h1' }),
        ],
        a.createAlert,
        async (d) => {
          const tf = text(d, 'timeframe');
          await api('/v1/notifications', {
            method: 'POST',
            body: {
              asset_id: text(d, 'asset_id'),
              kind: text(d, 'kind'),
              target: Number(text(d, 'target')),
              ...(tf ? { timeframe: tf } : {}),
            },
          });
          refresh();
        },
        'alert-form',
      ),
      h(
        'button',
        {
          type: 'button',
          'data-testid': 'enable-push',
          onclick: () => {
            status.textContent = a.push.waiting;
            delete status.dataset.state;
            enablePush(t)
              .then((outcome) => {
                status.textContent = outcome.text;
                status.dataset.state = outcome.state;
              })
              .catch((err: unknown) => {
                status.textContent = describeError(err, t);
                status.dataset.state = 'error';
              });
          },
        },
        a.enablePush,
      ),
      status,
    );
  });
}

function keysSection(shown = ''): HTMLElement {
  const t = state.text;
  const a = t.account;
  return section(a.keys, 'keys', async (body) => {
    const keys = await api<ApiKey[]>('/v1/users/api_keys', { fresh: true });
    const secret = h('p', { class: 'secret', role: 'status', 'data-testid': 'new-key' }, shown);
    const refresh = (next = '') => (body.parentElement as HTMLElement).replaceWith(keysSection(next));
    replace(
      body,
      secret,
      h(
        'table',
        { class: 'table', 'data-testid': 'key-list' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            h('th', { scope: 'col' }, a.name),
            h('th', { scope: 'col' }, a.prefix),
            h('th', { scope: 'col' }, a.keyState),
            h('th', { scope: 'col' }, a.action),
          ),
        ),
        h(
          'tbody',
          {},
          ...keys.map((k) =>
            h(
              'tr',
              {},
              h('td', {}, k.name ?? '–'),
              h('td', {}, h('code', {}, k.prefix)),
              h('td', {}, k.is_active ? a.active : a.inactive),
              h(
                'td',
                {},
                k.is_active &&
                  h(
                    'button',
                    {
                      type: 'button',
                      'aria-label': a.revokeKey(k.name ?? k.prefix),
                      onclick: () => {
                        api(`/v1/users/api_keys/${k.id}`, { method: 'DELETE' })
                          .then(() => refresh())
                          .catch((err: unknown) => {
                            secret.textContent = describeError(err, t);
                          });
                      },
                    },
                    a.revoke,
                  ),
              ),
            ),
          ),
        ),
      ),
      form(
        a.createKeyForm,
        [
          field('name', a.name, 'text', { required: true }),
          field('expires_in_days', a.expiresInDays, 'number', { min: '1', max: '365' }),
        ],
        a.createKey,
        async (d) => {
          const days = text(d, 'expires_in_days');
          const created = await api<{ key: string }>('/v1/users/api_keys', {
            method: 'POST',
            body: { name: text(d, 'name'), ...(days ? { expires_in_days: Number(days) } : {}) },
          });
          refresh(a.newKey(created.key));
        },
        'key-form',
      ),
    );
  });
}

function connectionsSection(): HTMLElement {
  const t = state.text;
  const a = t.account;
  return section(a.connections, 'connections', async (body) => {
    const list = await api<UserConnection[]>('/v1/connections/user', { fresh: true });
    replace(
      body,
      list.length === 0
        ? h('p', {}, a.noConnections)
        : h(
            'ul',
            { class: 'plain rows' },
            ...list.map((c) =>
              h(
                'li',
                {},
                a.connectionRow(c.exchange_id, word(t.words.syncStatuses, c.sync.status)),
                c.sync.last_success_at ? a.lastSync(new Date(c.sync.last_success_at).toLocaleString(state.locale)) : '',
                c.sync.last_error ? ` · ${c.sync.last_error}` : '',
              ),
            ),
          ),
    );
  });
}

/** The assessment of a position against the published zones, as the API words it (descriptive, no advice). */
export function positionAssessment(a: PositionAnalysis): HTMLElement {
  const locale = state.locale;
  const t = state.text;
  const l = t.account;
  const support = a.nearest_levels?.support ?? null;
  const resistance = a.nearest_levels?.resistance ?? null;
  return h(
    'dl',
    { class: 'facts' },
    h('dt', {}, l.thesis),
    h('dd', {}, word(t.words.thesis, a.thesis_status)),
    h('dt', {}, l.unrealizedR),
    h('dd', {}, num(a.unrealized_r, locale)),
    h('dt', {}, l.remainingRR),
    h('dd', {}, num(a.remaining_rr, locale)),
    h('dt', {}, l.entryVsPlan),
    h('dd', {}, a.entry_vs_plan_pct === null ? '–' : `${num(a.entry_vs_plan_pct, locale)} %`),
    h('dt', {}, l.nearestSupport),
    h('dd', {}, support === null ? '–' : `${price(support.low, locale)}–${price(support.high, locale)}`),
    h('dt', {}, l.nearestResistance),
    h('dd', {}, resistance === null ? '–' : `${price(resistance.low, locale)}–${price(resistance.high, locale)}`),
    h('dt', {}, l.warnings),
    h('dd', {}, a.warnings.length === 0 ? l.none : a.warnings.map((w) => word(t.words.warnings, w)).join(', ')),
  );
}

function positionsSection(): HTMLElement {
  const t = state.text;
  const a = t.account;
  return section(a.positions, 'positions', async (body) => {
    const data = await api<{
      positions: {
        id: string;
        pair: string;
        side: string;
        current_price: number | null;
        unrealized_pnl: number | null;
      }[];
    }>('/v2/positions', { fresh: true });
    const list = data.positions ?? [];
    replace(
      body,
      list.length === 0
        ? h('p', {}, a.noPositions)
        : h(
            'ul',
            { class: 'plain rows' },
            ...list.map((p) => {
              const out = h('div', { class: 'assessment' });
              return h(
                'li',
                {},
                a.positionRow(
                  p.pair,
                  word(t.words.directions, p.side),
                  price(p.current_price, state.locale),
                  num(p.unrealized_pnl, state.locale),
                ),
                ' ',
                h(
                  'button',
                  {
                    type: 'button',
                    onclick: () => {
                      api<PositionAnalysis>(`/v2/positions/${p.id}/analysis`)
                        .then((a) => {
                          replace(out, positionAssessment(a));
                        })
                        .catch((err: unknown) => {
                          out.textContent = describeError(err, t);
                        });
                    },
                  },
                  a.analysePosition,
                ),
                out,
              );
            }),
          ),
    );
  });
}

function trackRecordSection(): HTMLElement {
  const t = state.text;
  const a = t.account;
  return section(a.trackRecord, 'track', async (body) => {
    const record = await api<ServiceTrackRecord>('/v2/track-record');
    const c = record.total.counts as Record<string, number>;
    replace(
      body,
      h(
        'p',
        {},
        a.trackSummary(
          c.tp_hit ?? 0,
          c.stopped_out ?? 0,
          c.time_stopped ?? 0,
          num(record.total.mean_realized_r, state.locale),
          `${num(record.cost_pct, state.locale)} %`,
        ),
      ),
      reliabilityDiagram(record.total.calibration, t, state.locale),
      h(
        'p',
        { class: 'note' },
        record.total.calibration.some((b) => b.resolved > 0) ? a.diagramNote : a.nothingResolved,
      ),
      auditTable(record, t, state.locale),
      h(
        'p',
        { class: 'note', 'data-testid': 'backtest-share' },
        record.backtest.status === 'pending'
          ? a.backtestPending
          : a.backtestShare(record.backtest.calls, record.backtest.analyses),
      ),
    );
  });
}

/** A mean with its interval, `0.12 [-0.30, 0.51]`; a dash when unknown, the mean alone without its ends. */
function withInterval(
  v: { mean: number; low: number | null; high: number | null } | null,
  show: (x: number) => string,
): string {
  if (v === null) return '–';
  return v.low === null || v.high === null ? show(v.mean) : `${show(v.mean)} [${show(v.low)}, ${show(v.high)}]`;
}

/**
 * The audit of the live record and the backtest side by side: calls, hit rate against the
 * break-even hit rate, expected against realized R (90 % intervals), the worst drawdown in R and
 * the period, as `GET /v2/track-record` states them.
 */
export function auditTable(record: ServiceTrackRecord, t: Catalog, locale: string): HTMLTableElement {
  const a = t.account;
  const r = (x: number) => num(x, locale);
  const day = (iso: string | null) => (iso === null ? '' : iso.slice(0, 10));
  const row = (name: string, s: RecordStats) =>
    h(
      'tr',
      {},
      h('th', { scope: 'row' }, name),
      h('td', {}, String(s.count)),
      h(
        'td',
        {},
        withInterval(s.hit_rate, (x) => prob(x, locale)),
      ),
      h('td', {}, prob(s.break_even_hit_rate, locale)),
      h('td', {}, withInterval(s.expected_r, r)),
      h('td', {}, withInterval(s.realized_r, r)),
      h('td', {}, s.count === 0 ? '–' : `${r(s.max_drawdown_r)} R`),
      h('td', {}, s.from === null ? '–' : `${day(s.from)} – ${day(s.to)}`),
    );
  return h(
    'table',
    { class: 'table', 'data-testid': 'track-audit' },
    h('caption', { class: 'table-caption' }, a.auditCaption),
    h('thead', {}, h('tr', {}, ...a.auditColumns.map((c) => h('th', { scope: 'col' }, c)))),
    h('tbody', {}, row(a.auditLive, record.live.stats), row(a.auditBacktest, record.backtest.total)),
  );
}

/** The account page: sign-up and sign-in, or the account with its connections, positions, alerts, keys and track record. */
export function renderAccountPage(root: HTMLElement, rerender: () => void): () => void {
  const me = state.me;
  if (me === null) {
    signedOut(root, rerender);
    return () => undefined;
  }
  const t = state.text;
  const out = h('p', { role: 'status' });
  replace(
    root,
    h('h1', {}, t.account.title),
    h(
      'p',
      { 'data-testid': 'me' },
      t.account.signedInAs(me.user.email, word(t.words.tiers, me.tier)),
      h(
        'button',
        {
          type: 'button',
          onclick: () => {
            api('/v1/auth/logout', { method: 'POST' })
              .catch((err: unknown) => {
                if (!(err instanceof ApiError && err.code === 'InvalidSession'))
                  out.textContent = describeError(err, t);
              })
              .then(refreshState)
              .then(rerender)
              .catch((err: unknown) => {
                out.textContent = describeError(err, t);
              });
          },
        },
        t.account.signOut,
      ),
    ),
    out,
    h('div', { class: 'cols' }, alertsSection(), keysSection()),
    h('div', { class: 'cols' }, connectionsSection(), positionsSection()),
    trackRecordSection(),
  );
  return () => undefined;
}

/** `/app/verify?token=`: redeems the mailed link, then offers sign-in. */
export function renderVerifyPage(root: HTMLElement, token: string | null): () => void {
  const t = state.text;
  const msg = h('p', { role: 'status' }, t.account.verifying);
  replace(root, h('h1', {}, t.account.verifyTitle), msg);
  if (token === null) msg.textContent = t.account.noToken;
  else
    api<{ user: { email: string } }>(`/v1/auth/verify?token=${encodeURIComponent(token)}`)
      .then((v) => replace(msg, t.account.verified(v.user.email), h('a', { href: '/app/account' }, t.account.signIn)))
      .catch((err: unknown) => {
        msg.textContent = describeError(err, t);
      });
  return () => undefined;
}
