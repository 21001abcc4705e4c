import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { engines, engineTitle, TEST_DATABASE_URL } from '../../test/support/storage/engines.js';
import { createStorage } from './create-storage.js';
import { isPostgresUrl, sqlitePath } from './sql/database.js';
import { migrateDatabase } from './sql/migrate.js';
import { MIGRATIONS } from './sql/migrations.js';

const LATEST = MIGRATIONS.at(-1)?.version;

describe('the database setting', () => {
  it('selects PostgreSQL for postgres:// and postgresql:// URLs only', () => {
    expect(isPostgresUrl('postgres://u@h:5432/db')).toBe(true);
    expect(isPostgresUrl('postgresql://u@h/db')).toBe(true);
    expect(isPostgresUrl('/var/lib/marketlens/marketlens.sqlite')).toBe(false);
    expect(isPostgresUrl('sqlite:./m.sqlite')).toBe(false);
    expect(sqlitePath('sqlite:./m.sqlite')).toBe('./m.sqlite');
    expect(sqlitePath('sqlite:///data/m.sqlite')).toBe('/data/m.sqlite');
    expect(sqlitePath('/data/m.sqlite')).toBe('/data/m.sqlite');
  });

  it('opens and migrates a SQLite file named by a path or a sqlite: URL', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ml-create-'));
    try {
      expect(await migrateDatabase(join(dir, 'a.sqlite'))).toBe(LATEST);
      const s = await createStorage({ url: `sqlite:${join(dir, 'a.sqlite')}` });
      expect(s.sql.engine).toBe('sqlite');
      expect(await s.schemaVersion()).toBe(LATEST);
      await s.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

for (const engine of engines().filter((e) => e.name === 'postgres')) {
  describe.skipIf(engine.skip)(`createStorage on ${engineTitle(engine)}`, () => {
    it('migrates (the CLI step), then opens and closes a PostgreSQL database', async () => {
      const database = engine.database();
      await database.connect();
      expect(await migrateDatabase(TEST_DATABASE_URL ?? '', { schema: database.schema })).toBe(LATEST);
      const s = await createStorage({ url: TEST_DATABASE_URL ?? '', postgres: { schema: database.schema } });
      expect(s.sql.engine).toBe('postgres');
      expect(await s.schemaVersion()).toBe(LATEST);
      await s.users.create({ id: 'u1', email: 'a@x.io', password_hash: 'h', tier: 'free', created_at: 1 }, []);
      expect((await s.users.byId('u1'))?.email).toBe('a@x.io');
      await s.close();
    });
  });
}
