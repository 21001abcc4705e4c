/**
 * A stand-in for the two HTTP services of Google's push network (GCM/FCM) that Chromium calls to
 * create a push subscription: the device check-in and the registration. Chromium is pointed at it
 * with its own switches (`--gcm-checkin-url`, `--gcm-registration-url`), so `PushManager.subscribe`
 * in the page runs Chromium's real code and resolves with a real `PushSubscription` (an FCM
 * endpoint with the token issued here, and keys Chromium generated) on a machine that cannot reach
 * Google. Messages are not delivered through it: that would take the MCS protocol (a TLS socket).
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';

/** One request Chromium made, as received. */
export interface GcmRequest {
  path: string;
  authorization: string | null;
  /** A registration's form fields (`sender` is the subscription's applicationServerKey). */
  form: Record<string, string>;
}

/** The running stand-in. */
export interface FakeGcm {
  url: string;
  requests: GcmRequest[];
  /** The tokens handed out by registrations, in order (an FCM endpoint ends with one). */
  tokens: string[];
  /** Chromium's switches that send its push traffic here. */
  switches: string[];
  close(): Promise<void>;
}

function varint(value: bigint): Buffer {
  const out: number[] = [];
  let v = value;
  while (v >= 0x80n) {
    out.push(Number((v & 0x7fn) | 0x80n));
    v >>= 7n;
  }
  out.push(Number(v));
  return Buffer.from(out);
}

function fixed64(value: bigint): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(value);
  return b;
}

/**
 * An `AndroidCheckinResponse` (protobuf, Chromium's `checkin.proto`): `stats_ok` (1), `time_msec`
 * (3), `android_id` (7, fixed64), `security_token` (8, fixed64), `settings_diff` (9) false.
 * Chromium accepts a check-in that has a non-zero id and token.
 */
export function checkinResponse(androidId: bigint, securityToken: bigint, nowMs: number): Buffer {
  return Buffer.concat([
    Buffer.from([0x08, 0x01]),
    Buffer.from([0x18]),
    varint(BigInt(nowMs)),
    Buffer.from([0x39]),
    fixed64(androidId),
    Buffer.from([0x41]),
    fixed64(securityToken),
    Buffer.from([0x48, 0x00]),
  ]);
}

/** Starts the stand-in on a free loopback port. */
export async function startFakeGcm(): Promise<FakeGcm> {
  const requests: GcmRequest[] = [];
  const tokens: string[] = [];
  const androidId = BigInt(`0x${randomBytes(7).toString('hex')}`) + 1n;
  const securityToken = BigInt(`0x${randomBytes(7).toString('hex')}`) + 1n;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const path = (req.url ?? '').split('?')[0];
      const form = path === '/register' ? Object.fromEntries(new URLSearchParams(body.toString('utf8'))) : {};
      requests.push({ path, authorization: req.headers.authorization ?? null, form });
      if (path === '/checkin') {
        res.writeHead(200, { 'content-type': 'application/x-protobuf' });
        res.end(checkinResponse(androidId, securityToken, Date.now()));
      } else if (path === '/register') {
        const token = `${randomBytes(16).toString('base64url')}:${randomBytes(48).toString('base64url')}`;
        tokens.push(token);
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end(`token=${token}`);
      } else {
        res.writeHead(404);
        res.end();
      }
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the fake GCM has no port');
  const url = `http://127.0.0.1:${address.port}`;
  return {
    url,
    requests,
    tokens,
    // The MCS endpoint (message delivery) is a closed port: Chromium retries it in the background.
    switches: [
      `--gcm-checkin-url=${url}/checkin`,
      `--gcm-registration-url=${url}/register`,
      '--gcm-mcs-endpoint=https://127.0.0.1:9',
    ],
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
