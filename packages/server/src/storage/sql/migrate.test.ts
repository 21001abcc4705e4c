import { NOTIFICATION_KINDS, type NotificationKind } from '@marketlens/contract';
import { expect, it } from 'vitest';
import { describeEngines } from '../../../test/support/storage/engines.js';
import { ALERT_KIND_REGISTRY } from '../../alerts/kinds/registry.js';
import type { SqlDatabase } from './database.js';
import { migrate, migrateCounting, schemaVersion } from './migrate.js';
import { alertKindCheck, type ColumnTypes, MIGRATIONS } from './migrations.js';

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

describeEngines('migration 18: the alert kinds of the registry', (engine) => {
  const alertRow = (id: string, kind: string) => ({
    id,
    user_id: 'u1',
    asset_id: 'bitcoin',
    kind: kind as NotificationKind,
    timeframe: null,
    evaluates_as: null,
    target: 100,
    direction: 'above' as const,
    zone_low: null,
    zone_high: null,
    reference: 90,
    status: 'active' as const,
    created_at: 1,
    updated_at: 1,
    armed_at: 1,
    expires_at: 2,
    triggered_at: null,
    trigger_value: null,
    trigger_candle: null,
    last_evaluated_open: null,
  });
  // A kind outside the type is the point of some rows here: the database, not the compiler, refuses it.
  const insert = (db: SqlDatabase, row: ReturnType<typeof alertRow>) =>
    db.kysely.insertInto('alerts').values(row).execute();
  const STEP = 18;
  const BEFORE = MIGRATIONS.filter((m) => m.version < STEP);
  const PREVIOUS = BEFORE.at(-1)?.version;

  it('keeps the alerts of the version before, accepts every kind of the registry and refuses any other', async () => {
    const db = await engine.database({ persistent: true }).connect();
    expect(await migrate(db, BEFORE)).toBe(PREVIOUS);
    await db.kysely
      .insertInto('users')
      .values({ id: 'u1', email: 'a@x.io', password_hash: 'h', tier: 'free', created_at: 1 })
      .execute();
    await insert(db, alertRow('kept', 'rsi'));
    expect(await migrate(db)).toBe(LATEST);
    expect(await db.kysely.selectFrom('alerts').selectAll().where('id', '=', 'kept').execute()).toEqual([
      alertRow('kept', 'rsi'),
    ]);
    for (const kind of Object.keys(ALERT_KIND_REGISTRY)) await insert(db, alertRow(`a-${kind}`, kind));
    expect(Object.keys(ALERT_KIND_REGISTRY)).toEqual([...NOTIFICATION_KINDS]);
    await expect(insert(db, alertRow('bad', 'volume_spike'))).rejects.toThrow(/alerts_kind_check/);
    await expect(
      db.kysely
        .updateTable('alerts')
        .set({ kind: 'volume_spike' as never })
        .where('id', '=', 'kept')
        .execute(),
    ).rejects.toThrow(/alerts_kind_check/);
    // The webhook fan-out trigger of migration 14 still fires (SQLite rebuilt the table under it).
    await db.kysely
      .insertInto('alert_webhooks')
      .values({
        id: 'w1',
        user_id: 'u1',
        url: 'https://hook.test/',
        name: null,
        secret: 's',
        created_at: 1,
        updated_at: 1,
        active: 1,
        deactivated_at: null,
        deactivated_reason: null,
      })
      .execute();
    await db.kysely
      .insertInto('webhook_notices')
      .values({
        alert_id: 'kept',
        armed_at: 1,
        trigger_candle: 5,
        idempotency_key: 'k',
        category: 'alert',
        payload: '{}',
        created_at: 1,
      })
      .execute();
    await db.kysely
      .updateTable('alerts')
      .set({ status: 'triggered', trigger_candle: 5, updated_at: 3 })
      .where('id', '=', 'kept')
      .execute();
    const fanned = await db.kysely.selectFrom('webhook_outbox').select(['webhook_id', 'idempotency_key']).execute();
    expect(fanned).toEqual([{ webhook_id: 'w1', idempotency_key: 'k' }]);
  });

  it('takes a kind added to the registry on the next run, without a new step, and only once', async () => {
    const db = await engine.database({ persistent: true }).connect();
    expect(await migrateCounting(db)).toEqual({ version: LATEST, applied: MIGRATIONS.length });
    await db.kysely
      .insertInto('users')
      .values({ id: 'u1', email: 'a@x.io', password_hash: 'h', tier: 'free', created_at: 1 })
      .execute();
    await expect(insert(db, alertRow('new', 'volume_spike'))).rejects.toThrow(/alerts_kind_check/);
    const grown = MIGRATIONS.map((m) =>
      m.version === STEP
        ? { ...m, derived: (t: ColumnTypes) => alertKindCheck(t.engine, [...NOTIFICATION_KINDS, 'volume_spike']) }
        : m,
    );
    expect(await migrateCounting(db, grown)).toEqual({ version: LATEST, applied: 1 });
    expect(await migrateCounting(db, grown)).toEqual({ version: LATEST, applied: 0 });
    await insert(db, alertRow('new', 'volume_spike'));
    await expect(insert(db, alertRow('bad', 'volume-spike'))).rejects.toThrow(/alerts_kind_check/);
  });

  it('a fresh database and one upgraded from the version before check the same', async () => {
    const fresh = await engine.database().connect();
    const upgraded = await engine.database().connect();
    await migrate(fresh);
    await migrate(upgraded, BEFORE);
    await migrate(upgraded);
    for (const db of [fresh, upgraded]) {
      const derived = await db.kysely
        .selectFrom('schema_derived' as never)
        .select('statements' as never)
        .execute();
      expect(derived).toEqual([{ statements: alertKindCheck(engine.name, NOTIFICATION_KINDS) }]);
    }
  });
});
