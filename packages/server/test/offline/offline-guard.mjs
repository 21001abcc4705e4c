/**
 * Loaded into the server main with `--import` by the closed-namespace test: every attempt to reach
 * a host that is not loopback (a socket's connect, a name lookup) is appended to the file
 * `OFFLINE_GUARD_LOG` names, whether or not it could have succeeded. Unix sockets and loopback
 * addresses pass unrecorded.
 */
import dns from 'node:dns';
import { appendFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';

const LOG = process.env.OFFLINE_GUARD_LOG;
if (!LOG) throw new Error('offline-guard: OFFLINE_GUARD_LOG is not set');

const LOCAL_NAMES = new Set(['localhost', '::1', '0.0.0.0', '::']);

/** True for a loopback host (or none, which Node reads as localhost). */
function local(host) {
  if (host === undefined || host === null || host === '') return true;
  const h = String(host)
    .replace(/^\[|\]$/g, '')
    .toLowerCase();
  return LOCAL_NAMES.has(h) || h.endsWith('.localhost') || /^127\./.test(h) || /^::ffff:127\./.test(h);
}

function note(what) {
  appendFileSync(LOG, `${what}\n`);
}

const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function guardedConnect(...args) {
  // net.connect passes its normalized arguments as one array; a direct call passes them spread.
  const list = Array.isArray(args[0]) ? args[0] : args;
  const [first, second] = list;
  let host;
  let port;
  let path;
  if (first !== null && typeof first === 'object') ({ host, port, path } = first);
  else if (typeof first === 'number' || (typeof first === 'string' && /^\d+$/.test(first))) {
    port = first;
    host = typeof second === 'string' ? second : undefined;
  } else if (typeof first === 'string') path = first;
  if (path === undefined && !local(host)) note(`connect ${host}:${port}`);
  return connect.apply(this, args);
};

for (const target of [dns, dns.promises]) {
  const lookup = target.lookup;
  target.lookup = function guardedLookup(hostname, ...rest) {
    if (!local(hostname)) note(`lookup ${hostname}`);
    return lookup.call(this, hostname, ...rest);
  };
}

// Modules that imported `lookup` by name see the guarded one too.
syncBuiltinESMExports();
