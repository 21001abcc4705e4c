/**
 * A PostgreSQL database that cannot be reached fails a call quickly with StorageUnavailable (the
 * server answers 503), and the pool serves again by itself once the database is back.
 */
import { createServer, Socket as NetSocket, type Server, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { engines, engineTitle } from '../../../test/support/storage/engines.js';
import { createStorage } from '../create-storage.js';
import { StorageUnavailable } from '../errors.js';
import { migrate } from './migrate.js';
import { createSqlStorage } from './storage.js';

const postgres = engines().filter((e) => e.name === 'postgres');

/** A TCP relay to the test database that can be cut (connections dropped) or made to hang. */
function relay(target: URL) {
  let mode: 'pass' | 'hang' = 'pass';
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  const listen = (port = 0) =>
    new Promise<number>((resolve) => {
      server = createServer((client) => {
        sockets.add(client);
        client.on('close', () => sockets.delete(client));
        client.on('error', () => {});
        if (mode === 'hang') return;
        const upstream = new NetSocket();
        sockets.add(upstream);
        upstream.on('close', () => sockets.delete(upstream));
        upstream.on('error', () => client.destroy());
        client.on('error', () => upstream.destroy());
        upstream.connect(Number(target.port || 5432), target.hostname, () => {
          client.pipe(upstream);
          upstream.pipe(client);
        });
      });
      server.listen(port, '127.0.0.1', () => {
        const address = server?.address();
        resolve(typeof address === 'object' && address !== null ? address.port : 0);
      });
    });
  return {
    listen,
    hang: () => {
      mode = 'hang';
    },
    pass: () => {
      mode = 'pass';
    },
    /** Stops listening and drops every connection: the database is gone. */
    cut: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        if (server === undefined) resolve();
        else server.close(() => resolve());
      }),
  };
}

for (const engine of postgres) {
  describe.skipIf(engine.skip)(`an unreachable database [${engineTitle(engine)}]`, () => {
    it('fails a call quickly with StorageUnavailable when nothing listens', async () => {
      const url = new URL(process.env.MARKETLENS_TEST_DATABASE_URL ?? '');
      const dead = relay(new URL(url));
      const port = await dead.listen();
      await dead.cut();
      url.port = String(port);
      const started = Date.now();
      await expect(createStorage({ url: url.href, postgres: { connectionTimeoutMs: 1000 } })).rejects.toBeInstanceOf(
        StorageUnavailable,
      );
      expect(Date.now() - started).toBeLessThan(3000);
    });

    it('fails a call after the connect timeout when the database hangs, and serves again once it is back', async () => {
      const url = new URL(process.env.MARKETLENS_TEST_DATABASE_URL ?? '');
      const proxy = relay(new URL(url));
      const port = await proxy.listen();
      url.port = String(port);
      const database = engine.database();
      const db = await database.connect({ url: url.href, postgres: { connectionTimeoutMs: 500, max: 2 } });
      await migrate(db);
      const s = createSqlStorage(db, { candleBytes: 0 });
      await s.users.create({ id: 'u1', email: 'a@x.io', password_hash: 'h', tier: 'free', created_at: 1 }, []);

      // The database goes away: pooled connections drop, new ones are refused.
      await proxy.cut();
      const failure = await s.users.byId('u1').catch((err: unknown) => err);
      expect(failure).toBeInstanceOf(StorageUnavailable);
      expect(await s.users.byId('u1').catch((err: unknown) => err)).toBeInstanceOf(StorageUnavailable);

      // It accepts connections but never answers: the connect timeout bounds the wait.
      proxy.hang();
      await proxy.listen(port);
      const started = Date.now();
      expect(await s.sessions.byTokenHash('x').catch((err: unknown) => err)).toBeInstanceOf(StorageUnavailable);
      expect(Date.now() - started).toBeLessThan(2500);

      // Back: the same storage serves again without being reopened.
      await proxy.cut();
      proxy.pass();
      await proxy.listen(port);
      expect(await s.users.byId('u1')).toMatchObject({ email: 'a@x.io' });
      await proxy.cut();
    });
  });
}
