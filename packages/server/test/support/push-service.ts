import { createECDH, createPublicKey, randomBytes, randomUUID, verify } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';

/** The part of http_ece 1.2 (no type declarations) the push service uses. */
interface Ece {
  decrypt(
    buffer: Buffer,
    params: { version: 'aes128gcm'; privateKey: ReturnType<typeof createECDH>; authSecret: string },
  ): Buffer;
}
const ece = createRequire(import.meta.url)('http_ece') as Ece;

/** A browser-side subscription: what is registered, plus the private half only the browser holds. */
export interface TestSubscription {
  id: string;
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/** One push the service accepted, decrypted. */
export interface ReceivedPush {
  subscription: string;
  payload: Record<string, unknown>;
  headers: Record<string, string | string[] | undefined>;
  /** The VAPID public key (`k=`) the request was signed with. */
  vapidKey: string;
}

/**
 * A local push service (RFC 8030 endpoint, RFC 8292 VAPID, RFC 8291 aes128gcm) for tests: it
 * checks the VAPID JWT (ES256 signature against `k`, audience = its origin, not expired, a
 * subject), decrypts the body with the subscription's private ECDH key and auth secret as a
 * browser would, and answers 201; or the status set for a subscription (404/410 to test
 * deactivation, 500 to test retries). A request that fails a check is answered 400 and recorded
 * in `rejected`.
 */
export class TestPushService {
  readonly received: ReceivedPush[] = [];
  readonly rejected: string[] = [];
  private readonly subs = new Map<string, { ecdh: ReturnType<typeof createECDH>; auth: string; status: number }>();
  private server: Server | null = null;
  private origin = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      void this.handle(req).then(
        (status) => {
          res.writeHead(status).end();
        },
        (err: unknown) => {
          this.rejected.push(err instanceof Error ? err.message : String(err));
          res.writeHead(400).end();
        },
      );
    });
    await new Promise<void>((done) => this.server?.listen(0, '127.0.0.1', done));
    const { port } = this.server.address() as AddressInfo;
    this.origin = `http://127.0.0.1:${port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((done) => (this.server ? this.server.close(() => done()) : done()));
  }

  /** A new subscription, as `pushManager.subscribe` would make it. */
  subscribe(): TestSubscription {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    const auth = randomBytes(16).toString('base64url');
    const id = randomUUID();
    this.subs.set(id, { ecdh, auth, status: 201 });
    return {
      id,
      endpoint: `${this.origin}/push/${id}`,
      keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth },
    };
  }

  /** What the service answers for this subscription from now on (404/410: gone). */
  answer(subscriptionId: string, status: number): void {
    const s = this.subs.get(subscriptionId);
    if (s) s.status = status;
  }

  /** Received pushes whose payload `key` is `key`. */
  withKey(key: string): ReceivedPush[] {
    return this.received.filter((r) => r.payload.key === key);
  }

  private async handle(req: IncomingMessage): Promise<number> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const id = (req.url ?? '').replace(/^\/push\//, '');
    const sub = this.subs.get(id);
    if (req.method !== 'POST' || !sub) return 404;
    const vapidKey = this.checkVapid(req.headers.authorization);
    if (req.headers['content-encoding'] !== 'aes128gcm') throw new Error('content-encoding is not aes128gcm');
    if (!req.headers.ttl) throw new Error('TTL header missing');
    const plain = ece.decrypt(body, { version: 'aes128gcm', privateKey: sub.ecdh, authSecret: sub.auth });
    if (sub.status >= 200 && sub.status < 300) {
      this.received.push({
        subscription: id,
        payload: JSON.parse(plain.toString('utf8')) as Record<string, unknown>,
        headers: req.headers,
        vapidKey,
      });
    }
    return sub.status;
  }

  /** Verifies `vapid t=<jwt>, k=<key>`; returns `k`. */
  private checkVapid(header: string | undefined): string {
    const m = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? '');
    if (!m) throw new Error(`Authorization is not a VAPID header: ${header}`);
    const [, jwt, k] = m;
    const [h, p, sig] = jwt.split('.');
    const header64 = JSON.parse(Buffer.from(h, 'base64url').toString()) as { alg?: string };
    if (header64.alg !== 'ES256') throw new Error('VAPID JWT is not ES256');
    const point = Buffer.from(k, 'base64url');
    const key = createPublicKey({
      key: {
        kty: 'EC',
        crv: 'P-256',
        x: point.subarray(1, 33).toString('base64url'),
        y: point.subarray(33).toString('base64url'),
      },
      format: 'jwk',
    });
    const ok = verify(
      'sha256',
      Buffer.from(`${h}.${p}`),
      { key, dsaEncoding: 'ieee-p1363' },
      Buffer.from(sig, 'base64url'),
    );
    if (!ok) throw new Error('VAPID signature does not verify');
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString()) as { aud?: string; exp?: number; sub?: string };
    if (claims.aud !== this.origin) throw new Error(`VAPID audience ${claims.aud} is not ${this.origin}`);
    if (typeof claims.exp !== 'number' || claims.exp * 1000 < Date.now()) throw new Error('VAPID JWT expired');
    if (!claims.sub || !/^(mailto:|https:)/.test(claims.sub)) throw new Error('VAPID subject missing');
    return k;
  }
}
