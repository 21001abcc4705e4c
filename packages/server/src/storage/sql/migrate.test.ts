import { expect, it } from 'vitest';
import { describeEngines } from '../../../test/support/storage/engines.js';
import { migrate, schemaVersion } from './migrate.js';
import { MIGRATIONS } from './migrations.js';

const LATEST = MIGRATIONS.at(-1)?.version;

describeEngines('migrations', (engine) => {
  it('are idempotent: a second run applies nothing', async () => {
    const database = engine.database({ persistent: true });
    const db = await database.connect();
    expect(await migrate(db)).toBe(LATEST);
    expect(await migrate(db)).toBe(LATEST);
    expect(await schemaVersion(db)).toBe(LATEST);
    const { n } = await db.kysely
      .selectFrom('schema_migrations')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(n)).toBe(MIGRATIONS.length);
  });

  it('apply only the steps newer than the database', async () => {
    const database = engine.database({ persistent: true });
    const db = await database.connect();
    expect(await migrate(db, MIGRATIONS.slice(0, 2))).toBe(2);
    await db.kysely
      .insertInto('users')
      .values({ id: 'u1', email: 'a@x.io', password_hash: 'h', tier: 'free', created_at: 1 })
      .execute();
    expect(await migrate(db)).toBe(LATEST);
    const s = await database.open();
    expect(await s.users.byId('u1')).toMatchObject({ email: 'a@x.io', email_verified_at: null });
  });

  it('run once when two instances start together', async () => {
    const database = engine.database({ persistent: true });
    const [a, b, c] = await Promise.all([database.connect(), database.connect(), database.connect()]);
    expect(await Promise.all([migrate(a), migrate(b), migrate(c)])).toEqual([LATEST, LATEST, LATEST]);
    const versions = await a.kysely.selectFrom('schema_migrations').select('version').orderBy('version').execute();
    expect(versions.map((r) => r.version)).toEqual(MIGRATIONS.map((m) => m.version));
  });
});
