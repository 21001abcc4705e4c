/**
 * A graceful stop, end to end on the built server main: keep-alive clients sending POSTs while the
 * instance receives SIGTERM see every request they sent answered, or their next connection
 * refused; never a request sent and then reset (what a proxy turns into a 502 for a POST).
 */
import { existsSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { skipWithout } from '../../../core/src/testing/shared-data.js';
import { MAIN, type Running, startMain, stop } from '../support/main-process.js';

const unbuilt = skipWithout(existsSync(MAIN), 'the built server (packages/server/dist/main.js)', 'Run `pnpm build`.');

const PRODUCTION = {
  MARKETLENS_ENV: 'production',
  MARKETLENS_SECRET_KEY: Buffer.alloc(32, 7).toString('base64'),
  MARKETLENS_PUBLIC_URL: 'https://api.example.com',
  MARKETLENS_DRAIN_MS: '3000',
  // No mail in this test: production's mail rule (SMTP or a mail file) is tested in config/.
  MARKETLENS_EMAIL_VERIFICATION: 'off',
};

/** Concurrent keep-alive clients. */
const CLIENTS = 8;

type Outcome =
  | { kind: 'answered'; status: number; connection: string | undefined; sentAt: number }
  | { kind: 'refused' }
  | { kind: 'failed'; code: string; sentAt: number };

/** One request on `agent`; resolves with what the client saw. */
function send(port: number, agent: Agent, method: string, path: string, body?: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const sentAt = performance.now();
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent,
        headers:
          body === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on('end', () =>
          resolve({ kind: 'answered', status: res.statusCode ?? 0, connection: res.headers.connection, sentAt }),
        );
        res.on('error', (err: NodeJS.ErrnoException) =>
          resolve({ kind: 'failed', code: err.code ?? err.message, sentAt }),
        );
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) =>
      resolve(
        err.code === 'ECONNREFUSED' ? { kind: 'refused' } : { kind: 'failed', code: err.code ?? err.message, sentAt },
      ),
    );
    req.end(body);
  });
}

describe.skipIf(unbuilt)('SIGTERM under keep-alive POST load (skips unbuilt)', () => {
  let server: Running | undefined;
  const agents: Agent[] = [];
  afterAll(async () => {
    for (const a of agents) a.destroy();
    await stop(server);
  });

  it('answers every request sent, says connection: close, then refuses; readyz 503 first; logs start and end', async () => {
    server = await startMain({}, PRODUCTION);
    const port = Number(new URL(server.url).port);
    const keepAlive = () => {
      const a = new Agent({ keepAlive: true, maxSockets: 1 });
      agents.push(a);
      return a;
    };
    // An idle keep-alive connection, opened before the signal and used after it.
    const probe = keepAlive();
    expect((await send(port, probe, 'GET', '/healthz')).kind).toBe('answered');

    let termAt = Number.POSITIVE_INFINITY;
    const outcomes: Outcome[] = [];
    const client = async (i: number) => {
      const agent = keepAlive();
      const body = JSON.stringify({ email: `load-${i}@example.com`, password: 'not-the-password' });
      for (;;) {
        const o = await send(port, agent, 'POST', '/v1/auth/login', body);
        outcomes.push(o);
        if (o.kind !== 'answered') return;
      }
    };
    const running = Array.from({ length: CLIENTS }, (_, i) => client(i));
    // Load first, so that requests are in flight and connections open when the signal comes.
    while (outcomes.filter((o) => o.kind === 'answered').length < CLIENTS * 4) {
      await new Promise((r) => setTimeout(r, 20));
    }
    const exited = new Promise<number | null>((resolve) => server?.child.once('exit', (code) => resolve(code)));
    // The probe's connection used just before the signal (an idle one is closed after 5 s by itself).
    expect((await send(port, probe, 'GET', '/healthz')).kind).toBe('answered');
    termAt = performance.now();
    server.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 100));
    const ready = await send(port, probe, 'GET', '/readyz');
    await Promise.all(running);
    expect(await exited).toBe(0);

    const failed = outcomes.filter((o) => o.kind === 'failed');
    expect(failed, `requests sent and then reset: ${JSON.stringify(failed)}`).toEqual([]);
    // Each client ended on a refused connection, after its last answer.
    expect(outcomes.filter((o) => o.kind === 'refused')).toHaveLength(CLIENTS);
    const answered = outcomes.filter((o): o is Extract<Outcome, { kind: 'answered' }> => o.kind === 'answered');
    // What the test is about happened: requests sent after the signal, on open connections, were answered and told to close.
    const afterTerm = answered.filter((o) => o.sentAt >= termAt);
    const closing = answered.filter((o) => o.connection === 'close');
    expect(closing.length).toBeGreaterThanOrEqual(1);
    expect(afterTerm.length + closing.length).toBeGreaterThanOrEqual(1);
    for (const o of answered) expect([401, 429]).toContain(o.status);
    // readyz on the connection opened before the signal: 503, and that connection closes.
    expect(ready).toMatchObject({ kind: 'answered', status: 503, connection: 'close' });

    const lines = server
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const began = lines.find((l) => l.msg === 'shutdown began');
    const complete = lines.find((l) => l.msg === 'shutdown complete');
    expect(began).toMatchObject({ drainMs: 3000 });
    expect(complete).toMatchObject({ forced: false });
    expect(Number(complete?.answeredWhileDraining)).toBeGreaterThanOrEqual(1);
    // Every line of a production process is JSON, the start banner included.
    const text = server
      .output()
      .split('\n')
      .filter((l) => l.trim() !== '');
    expect(text.filter((l) => !l.startsWith('{'))).toEqual([]);
    expect(lines.some((l) => typeof l.msg === 'string' && l.msg.startsWith('marketlens server listening on'))).toBe(
      true,
    );
  }, 60_000);
});
