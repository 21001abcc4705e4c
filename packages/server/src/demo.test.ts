import { describe, expect, it } from 'vitest';
import { DEMO_EMAIL, seedDemo } from './demo.js';
import { createSqliteStorage } from './storage/sqlite/sqlite-storage.js';

describe('seedDemo', () => {
  it('keeps one live demo session however often the server starts', async () => {
    const storage = createSqliteStorage(':memory:');
    const starts = [];
    for (let i = 0; i < 5; i++) starts.push(await seedDemo(storage, Date.now() + i));
    const user = await storage.users.byEmail(DEMO_EMAIL);
    if (!user) throw new Error('no demo user');
    const count = storage.db.prepare('SELECT COUNT(*) AS n FROM sessions WHERE user_id = ?').get(user.id) as {
      n: number;
    };
    expect(count.n).toBe(1);
    // The last printed token is the one that works.
    expect(new Set(starts.map((s) => s.session_token)).size).toBe(5);
  });

  it('lets the demo user spectate the pilot', async () => {
    const storage = createSqliteStorage(':memory:');
    const now = Date.now();
    await seedDemo(storage, now);
    const user = await storage.users.byEmail(DEMO_EMAIL);
    if (!user) throw new Error('no demo user');
    expect(await storage.pilot.accessOf(user.id, now)).not.toBeNull();
  });
});
