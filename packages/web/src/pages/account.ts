import type {
  ApiKey,
  CalibrationBucket,
  Notification,
  PositionAnalysis,
  ServiceTrackRecord,
  Session,
  UserConnection,
} from '@marketlens/contract';
import { ApiError, api } from '../api.js';
import { type Child, h, replace } from '../dom.js';
import { num, price, prob, words } from '../format.js';
import { describeError } from '../messages.js';
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
export function reliabilityDiagram(buckets: readonly CalibrationBucket[]): SVGSVGElement {
  const size = 220;
  const pad = 28;
  const scale = (v: number) => pad + v * (size - 2 * pad);
  const root = svg('svg', { viewBox: `0 0 ${size} ${size}`, width: size, height: size, role: 'img' });
  root.setAttribute('aria-label', 'Reliability diagram: hit rate against confidence');
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
    title.textContent = `confidence ${(b.mean_confidence * 100).toFixed(0)} %: ${b.hits} of ${b.resolved} hit target 1`;
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
      out.textContent = describeError(err);
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
  const credentials = async (path: string, data: FormData) => {
    const body = { email: text(data, 'email'), password: text(data, 'password') };
    const result = await api<Session | { email: string; verification: 'pending' }>(path, {
      method: 'POST',
      body,
      headers: { 'x-session-cookie': '1' },
    });
    if ('verification' in result) {
      replace(
        root,
        h('h1', {}, 'Check your email'),
        h('p', { role: 'status' }, `A verification link is on its way to ${result.email}. Follow it, then sign in.`),
      );
      return;
    }
    await refreshState();
    rerender();
  };
  replace(
    root,
    h('h1', {}, 'Account'),
    h(
      'div',
      { class: 'cols' },
      h(
        'section',
        { class: 'panel', 'aria-labelledby': 'in-h' },
        h('h2', { id: 'in-h' }, 'Sign in'),
        form(
          'Sign in',
          [
            field('email', 'Email', 'email', { required: true, autocomplete: 'username' }),
            field('password', 'Password', 'password', { required: true, autocomplete: 'current-password' }),
          ],
          'Sign in',
          (d) => credentials('/v1/auth/login', d),
          'login',
        ),
      ),
      h(
        'section',
        { class: 'panel', 'aria-labelledby': 'up-h' },
        h('h2', { id: 'up-h' }, 'Create an account'),
        form(
          'Sign up',
          [
            field('email', 'Email', 'email', { required: true, autocomplete: 'email' }),
            field('password', 'Password (8 characters or more)', 'password', {
              required: true,
              minlength: '8',
              autocomplete: 'new-password',
            }),
          ],
          'Sign up',
          (d) => credentials('/v1/auth/signup', d),
          'signup',
        ),
      ),
    ),
  );
}

/** A section filled by `load`, showing the API's message when it fails. */
function section(title: string, id: string, load: (body: HTMLElement) => Promise<void>): HTMLElement {
  const body = h('div', { class: 'section-body' }, h('p', {}, 'Loading…'));
  const s = h(
    'section',
    { class: 'panel', 'aria-labelledby': `${id}-h`, 'data-testid': id },
    h('h2', { id: `${id}-h` }, title),
    body,
  );
  load(body).catch((err: unknown) => replace(body, h('p', { role: 'alert' }, describeError(err))));
  return s;
}

/** base64url to bytes (a VAPID public key for PushManager.subscribe). */
function fromBase64Url(s: string): Uint8Array<ArrayBuffer> {
  const b = atob(s.replace(/-/g, '+').replace(/_/g, '/'));
  const out = new Uint8Array(new ArrayBuffer(b.length));
  for (let i = 0; i < b.length; i++) out[i] = b.charCodeAt(i);
  return out;
}

/** Subscribes this browser to Web Push and registers it as a device of the account. */
async function enablePush(): Promise<string> {
  if (!('serviceWorker' in navigator) || !('PushManager' in window)) return 'This browser has no Web Push.';
  const { public_key } = await api<{ public_key: string }>('/v1/devices/vapid_public_key');
  const registration = await navigator.serviceWorker.register('/app/sw.js', { scope: '/app/' });
  await navigator.serviceWorker.ready;
  let subscription: PushSubscription;
  try {
    subscription = await registration.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: fromBase64Url(public_key),
    });
  } catch (err) {
    return `The browser refused a push subscription: ${err instanceof Error ? err.message : String(err)}`;
  }
  await api('/v1/devices', {
    method: 'POST',
    body: { ...subscription.toJSON(), name: navigator.userAgent.slice(0, 60) },
  });
  return 'Push notifications are on for this browser.';
}

function alertsSection(): HTMLElement {
  return section('Alerts', 'alerts', async (body) => {
    const list = await api<Notification[]>('/v1/notifications', { fresh: true });
    const refresh = () => (body.parentElement as HTMLElement).replaceWith(alertsSection());
    const status = h('p', { role: 'status' });
    replace(
      body,
      h(
        'ul',
        { class: 'plain rows', 'data-testid': 'alert-list' },
        ...list.map((n) =>
          h(
            'li',
            {},
            `${n.body.asset?.name ?? n.body.asset_id} · ${words(n.kind)} ${n.body.target}${n.body.timeframe ? ` on ${n.body.timeframe}` : ''} · ${n.status} `,
            h(
              'button',
              {
                type: 'button',
                'aria-label': `Delete the ${words(n.kind)} alert on ${n.body.asset_id}`,
                onclick: () => {
                  api(`/v1/notifications/${n.id}`, { method: 'DELETE' })
                    .then(refresh)
                    .catch((err: unknown) => {
                      status.textContent = describeError(err);
                    });
                },
              },
              'Delete',
            ),
          ),
        ),
      ),
      list.length === 0 ? h('p', {}, 'No alerts yet.') : null,
      form(
        'Create an alert',
        [
          field('asset_id', 'Asset id', 'text', { required: true, value: 'bitcoin' }),
          h(
            'p',
            { class: 'field' },
            h('label', { for: 'alert-kind' }, 'Kind'),
            h(
              'select',
              { id: 'alert-kind', name: 'kind' },
              ...(state.config?.alerts.kinds ?? []).map((k) => h('option', { value: k.kind }, words(k.kind))),
            ),
          ),
          field('target', 'Target', 'number', { required: true, step: 'any' }),
          field('timeframe', 'Timeframe (not for price)', 'text', { placeholder: 'h1' }),
        ],
        'Create alert',
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
          onclick: () => {
            enablePush()
              .then((m) => {
                status.textContent = m;
              })
              .catch((err: unknown) => {
                status.textContent = describeError(err);
              });
          },
        },
        'Enable push notifications',
      ),
      status,
    );
  });
}

function keysSection(shown = ''): HTMLElement {
  return section('API keys', 'keys', async (body) => {
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
            h('th', { scope: 'col' }, 'Name'),
            h('th', { scope: 'col' }, 'Prefix'),
            h('th', { scope: 'col' }, 'State'),
            h('th', { scope: 'col' }, 'Action'),
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
              h('td', {}, k.is_active ? 'active' : 'revoked or expired'),
              h(
                'td',
                {},
                k.is_active &&
                  h(
                    'button',
                    {
                      type: 'button',
                      'aria-label': `Revoke key ${k.name ?? k.prefix}`,
                      onclick: () => {
                        api(`/v1/users/api_keys/${k.id}`, { method: 'DELETE' })
                          .then(() => refresh())
                          .catch((err: unknown) => {
                            secret.textContent = describeError(err);
                          });
                      },
                    },
                    'Revoke',
                  ),
              ),
            ),
          ),
        ),
      ),
      form(
        'Create an API key',
        [
          field('name', 'Name', 'text', { required: true }),
          field('expires_in_days', 'Expires in days (1–365, optional)', 'number', { min: '1', max: '365' }),
        ],
        'Create key',
        async (d) => {
          const days = text(d, 'expires_in_days');
          const created = await api<{ key: string }>('/v1/users/api_keys', {
            method: 'POST',
            body: { name: text(d, 'name'), ...(days ? { expires_in_days: Number(days) } : {}) },
          });
          refresh(`Your new key, shown only now: ${created.key}`);
        },
        'key-form',
      ),
    );
  });
}

function connectionsSection(): HTMLElement {
  return section('Connections', 'connections', async (body) => {
    const list = await api<UserConnection[]>('/v1/connections/user', { fresh: true });
    replace(
      body,
      list.length === 0
        ? h('p', {}, 'No exchange connected. Connections are read-only: marketlens never trades.')
        : h(
            'ul',
            { class: 'plain rows' },
            ...list.map((c) =>
              h(
                'li',
                {},
                `${c.exchange_id}: sync ${c.sync.status}`,
                c.sync.last_success_at
                  ? ` · last ${new Date(c.sync.last_success_at).toLocaleString(state.locale)}`
                  : '',
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
  const support = a.nearest_levels?.support ?? null;
  const resistance = a.nearest_levels?.resistance ?? null;
  return h(
    'dl',
    { class: 'facts' },
    h('dt', {}, 'Thesis'),
    h('dd', {}, words(a.thesis_status)),
    h('dt', {}, 'Unrealized R'),
    h('dd', {}, num(a.unrealized_r, locale)),
    h('dt', {}, 'Remaining R:R'),
    h('dd', {}, num(a.remaining_rr, locale)),
    h('dt', {}, 'Entry vs plan'),
    h('dd', {}, a.entry_vs_plan_pct === null ? '–' : `${num(a.entry_vs_plan_pct, locale)} %`),
    h('dt', {}, 'Nearest support'),
    h('dd', {}, support === null ? '–' : `${price(support.low, locale)}–${price(support.high, locale)}`),
    h('dt', {}, 'Nearest resistance'),
    h('dd', {}, resistance === null ? '–' : `${price(resistance.low, locale)}–${price(resistance.high, locale)}`),
    h('dt', {}, 'Warnings'),
    h('dd', {}, a.warnings.length === 0 ? 'none' : a.warnings.map(words).join(', ')),
  );
}

function positionsSection(): HTMLElement {
  return section('Positions', 'positions', async (body) => {
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
        ? h('p', {}, 'No open positions.')
        : h(
            'ul',
            { class: 'plain rows' },
            ...list.map((p) => {
              const out = h('div', { class: 'assessment' });
              return h(
                'li',
                {},
                `${p.pair} ${p.side} · mark ${price(p.current_price, state.locale)} · PnL ${num(p.unrealized_pnl, state.locale)} `,
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
                          out.textContent = describeError(err);
                        });
                    },
                  },
                  'Analyse against the zones',
                ),
                out,
              );
            }),
          ),
    );
  });
}

function trackRecordSection(): HTMLElement {
  return section('Track record of the published plans', 'track', async (body) => {
    const record = await api<ServiceTrackRecord>('/v2/track-record');
    const c = record.total.counts as Record<string, number>;
    replace(
      body,
      h(
        'p',
        {},
        `Targets hit: ${c.tp_hit ?? 0} · stopped out: ${c.stopped_out ?? 0} · time stops: ${c.time_stopped ?? 0} · mean R ${num(record.total.mean_realized_r, state.locale)} (after ${record.cost_pct} % costs).`,
      ),
      reliabilityDiagram(record.total.calibration),
      h(
        'p',
        { class: 'note' },
        record.total.calibration.some((b) => b.resolved > 0)
          ? 'Each dot: the share of plans that reached target 1 against the confidence published with them; a calibrated signal lies on the diagonal.'
          : `No plan has resolved yet (${prob(0, state.locale)} of buckets filled).`,
      ),
    );
  });
}

/** The account page: sign-up and sign-in, or the account with its connections, positions, alerts, keys and track record. */
export function renderAccountPage(root: HTMLElement, rerender: () => void): () => void {
  const me = state.me;
  if (me === null) {
    signedOut(root, rerender);
    return () => undefined;
  }
  const out = h('p', { role: 'status' });
  replace(
    root,
    h('h1', {}, 'Account'),
    h(
      'p',
      { 'data-testid': 'me' },
      `Signed in as ${me.user.email} · ${me.tier} plan `,
      h(
        'button',
        {
          type: 'button',
          onclick: () => {
            api('/v1/auth/logout', { method: 'POST' })
              .catch((err: unknown) => {
                if (!(err instanceof ApiError && err.code === 'InvalidSession')) out.textContent = describeError(err);
              })
              .then(refreshState)
              .then(rerender)
              .catch((err: unknown) => {
                out.textContent = describeError(err);
              });
          },
        },
        'Sign out',
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
  const msg = h('p', { role: 'status' }, 'Verifying…');
  replace(root, h('h1', {}, 'Verify your email'), msg);
  if (token === null) msg.textContent = 'The link has no token.';
  else
    api<{ user: { email: string } }>(`/v1/auth/verify?token=${encodeURIComponent(token)}`)
      .then((v) => replace(msg, `${v.user.email} is verified. `, h('a', { href: '/app/account' }, 'Sign in')))
      .catch((err: unknown) => {
        msg.textContent = describeError(err);
      });
  return () => undefined;
}
