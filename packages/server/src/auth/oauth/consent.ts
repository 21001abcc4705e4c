/** The consent page of `/oauth/authorize`: who asks, for what, and the user's session (or a login form). */

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const esc = (s: string) => s.replace(/[&<>"']/g, (ch) => ESCAPES[ch] ?? ch);

export interface ConsentPage {
  clientName: string;
  redirectUri: string;
  /** The authorization request, posted back with the decision. */
  params: Readonly<Record<string, string>>;
  /** The signed-in user, when the request carries a live session; else a login form is shown. */
  email: string | null;
  /** A failed login attempt's message. */
  error?: string;
}

const STYLE =
  'body{font-family:system-ui,sans-serif;max-width:28rem;margin:4rem auto;padding:0 1rem;color:#111}' +
  'form{display:grid;gap:.75rem}input{padding:.5rem;font-size:1rem}button{padding:.6rem;font-size:1rem;cursor:pointer}' +
  '.row{display:flex;gap:.5rem}.row button{flex:1}.err{color:#b00020}.muted{color:#555;font-size:.9rem}';

/** The HTML of the consent step. */
export function consentHtml(page: ConsentPage): string {
  const hidden = Object.entries(page.params)
    .map(([k, v]) => `<input type="hidden" name="${esc(k)}" value="${esc(v)}">`)
    .join('');
  const who =
    page.email === null
      ? '<label>Email <input type="email" name="email" autocomplete="username" required></label>' +
        '<label>Password <input type="password" name="password" autocomplete="current-password" required></label>'
      : `<p>Signed in as <strong>${esc(page.email)}</strong>.</p>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Authorize ${esc(page.clientName)} - marketlens</title><style>${STYLE}</style></head><body>
<h1>Authorize access</h1>
<p><strong>${esc(page.clientName)}</strong> asks to use the marketlens MCP tools as you: read your market data, favorites, portfolio and alerts, and edit favorites, position notes, alerts and notification preferences. marketlens cannot place orders or move funds.</p>
<p class="muted">You will be sent back to ${esc(page.redirectUri)}. Signing out of this session revokes the access.</p>
${page.error ? `<p class="err">${esc(page.error)}</p>` : ''}
<form method="post" action="/oauth/authorize">${hidden}${who}
<div class="row"><button type="submit" name="action" value="approve">Approve</button><button type="submit" name="action" value="deny" formnovalidate>Deny</button></div>
</form></body></html>`;
}

/** A page for an authorization request that cannot be sent back to the client (unknown client or redirect URI). */
export function errorHtml(error: string, description: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Authorization error - marketlens</title><style>${STYLE}</style></head><body>
<h1>Authorization error</h1><p class="err">${esc(error)}: ${esc(description)}</p></body></html>`;
}
