import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDataDir } from '@marketlens/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, marketlens } from '../testing/binary.js';

beforeAll(() => {
  ensureBuilt();
}, 120_000);

const USER = 'trader@example.com';
const FAR = '2099-01-01T00:00:00Z';

/** A data folder with one user, as `serve` and a sign-up leave it. */
async function dataDir(): Promise<{ dir: string; env: NodeJS.ProcessEnv }> {
  const dir = mkdtempSync(join(tmpdir(), 'marketlens-promo-'));
  const storage = openDataDir(dir);
  await storage.users.create(
    { id: 'u-trader', email: USER, password_hash: 'x', tier: 'free', created_at: Date.UTC(2025, 0, 2) },
    [],
  );
  await storage.close();
  return { dir, env: { MARKETLENS_DATA_DIR: dir } };
}

const json = (stdout: string) => JSON.parse(stdout) as Record<string, unknown>;
const errorOf = (stderr: string) => (JSON.parse(stderr) as { error: Record<string, unknown> }).error;

describe('admin promotion, campaign and invite', () => {
  it('help lists the subcommands', () => {
    const admin = marketlens(['admin']).stdout;
    for (const c of [
      'admin promotion create',
      'admin promotion list',
      'admin campaign create',
      'admin campaign list',
      'admin invite',
    ])
      expect(admin).toContain(c);
    const r = marketlens(['admin', 'promotion', 'create', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Usage: marketlens admin promotion create <exchange>');
    expect(r.stdout).toContain('--uid-pattern <regex>');
    expect(marketlens(['admin', 'invite', '--help']).stdout).toContain(
      'Usage: marketlens admin invite <email> <exchange-or-promotion-id>',
    );
  });

  it('creates and lists promotions; invites an account; refusals have stable codes', async () => {
    const { dir, env } = await dataDir();
    const args = ['--title', 'Trade on Bybit', '--description', 'Get Pro', '--value', '30 days of Pro'];
    const created = marketlens(['admin', 'promotion', 'create', 'bybit', ...args, '--json'], env);
    expect(created.code).toBe(0);
    const out = json(created.stdout);
    expect(out.schema).toBe('marketlens.admin.promotion/1');
    const promotion = out.promotion as Record<string, unknown>;
    expect(promotion).toMatchObject({
      connection_id: 'bybit',
      partner_name: 'Bybit',
      title: 'Trade on Bybit',
      promotional_value: '30 days of Pro',
      referral_url: 'https://www.bybit.com/invite?ref=XDK12WP',
      invited: 0,
      claimed: 0,
    });

    const dup = marketlens(['admin', 'promotion', 'create', 'bybit', ...args, '--json'], env);
    expect([dup.code, errorOf(dup.stderr).code]).toEqual([3, 'promotion_exists']);
    const unknown = marketlens(['admin', 'promotion', 'create', 'nowhere', ...args, '--json'], env);
    expect([unknown.code, errorOf(unknown.stderr).code]).toEqual([3, 'unknown_exchange']);
    const missing = marketlens(['admin', 'promotion', 'create', 'okx', '--title', 'T', '--json'], env);
    expect([missing.code, errorOf(missing.stderr).code]).toEqual([2, 'usage']);
    const badPattern = marketlens(['admin', 'promotion', 'create', 'okx', ...args, '--uid-pattern', '(['], env);
    expect(badPattern.code).toBe(2);

    // A file gives the rest (theme, steps, validations); options win over it.
    const file = join(dir, 'okx.json');
    writeFileSync(
      file,
      JSON.stringify({
        title: 'from file',
        description: 'OKX promotion',
        promotional_value: '30 days of Pro',
        theme: { primary_color: '#000000', background_color: '#ffffff', text_color: '#111111' },
      }),
    );
    const fromFile = marketlens(
      ['admin', 'promotion', 'create', 'okx', '--file', file, '--title', 'OKX', '--uid-pattern', '[0-9]{8}', '--json'],
      env,
    );
    expect(fromFile.code).toBe(0);
    expect(json(fromFile.stdout).promotion).toMatchObject({
      title: 'OKX',
      description: 'OKX promotion',
      theme: { primary_color: '#000000' },
      validations: [{ field: 'uid', label: 'Account UID', pattern: '[0-9]{8}' }],
    });
    writeFileSync(file, '[1]');
    expect(marketlens(['admin', 'promotion', 'create', 'binance', '--file', file], env).code).toBe(2);
    expect(marketlens(['admin', 'promotion', 'create', 'binance', '--file', join(dir, 'none.json')], env).code).toBe(3);

    const invite = marketlens(['admin', 'invite', USER, 'bybit', '--json'], env);
    expect(invite.code).toBe(0);
    expect(json(invite.stdout)).toMatchObject({
      schema: 'marketlens.admin.invitation/1',
      invitation: { user: { id: 'u-trader', email: USER }, promotion: { connection_id: 'bybit' }, created: true },
    });
    const again = marketlens(['admin', 'invite', USER, promotion.id as string], env);
    expect([again.code, again.stdout]).toEqual([0, `${USER}: already invited to the bybit promotion\n`]);
    const nobody = marketlens(['admin', 'invite', 'nobody@example.com', 'bybit', '--json'], env);
    expect([nobody.code, errorOf(nobody.stderr).code]).toEqual([3, 'unknown_user']);
    const noPromo = marketlens(['admin', 'invite', USER, 'binance', '--json'], env);
    expect([noPromo.code, errorOf(noPromo.stderr).code]).toEqual([3, 'unknown_promotion']);

    const list = marketlens(['admin', 'promotion', 'list', '--json'], env);
    expect(json(list.stdout).schema).toBe('marketlens.admin.promotions/1');
    const rows = json(list.stdout).promotions as Record<string, unknown>[];
    expect(rows.map((p) => [p.connection_id, p.invited, p.claimed])).toEqual([
      ['bybit', 1, 0],
      ['okx', 0, 0],
    ]);
    const text = marketlens(['admin', 'promotion', 'list'], env);
    expect(text.stdout).toMatch(/^exchange +title +invited +claimed +created +id$/m);
    expect(text.stdout).toMatch(/^bybit +Trade on Bybit +1 +0 /m);
  });

  it('creates and lists campaigns; a closed registration or a taken id is refused', async () => {
    const { env } = await dataDir();
    expect(marketlens(['admin', 'campaign', 'list'], env).stdout).toBe('no campaigns\n');
    const base = [
      '--url',
      'https://example.com/c',
      '--video-url',
      'https://example.com/v.mp4',
      '--icon-url',
      'https://example.com/i.svg',
      '--icon-alt',
      'Bybit',
    ];
    const r = marketlens(
      ['admin', 'campaign', 'create', 'spring-cup', ...base, '--close', FAR, '--prize-amount', '1 BTC', '--json'],
      env,
    );
    expect(r.code).toBe(0);
    expect(json(r.stdout)).toMatchObject({
      schema: 'marketlens.admin.campaign/2',
      campaign: {
        id: 'spring-cup',
        registration_close: new Date(FAR).toISOString(),
        prize_amount: '1 BTC',
        live: true,
      },
    });
    const dup = marketlens(['admin', 'campaign', 'create', 'spring-cup', ...base, '--close', FAR, '--json'], env);
    expect([dup.code, errorOf(dup.stderr).code]).toEqual([3, 'campaign_exists']);
    const closed = marketlens(
      ['admin', 'campaign', 'create', 'old', ...base, '--close', '2020-01-01T00:00:00Z', '--json'],
      env,
    );
    expect([closed.code, errorOf(closed.stderr).code]).toEqual([3, 'closed']);
    expect(marketlens(['admin', 'campaign', 'create', 'Bad Id', ...base, '--close', FAR], env).code).toBe(2);
    expect(marketlens(['admin', 'campaign', 'create', 'x', ...base, '--close', 'soon'], env).code).toBe(2);
    const ms = marketlens(
      ['admin', 'campaign', 'create', 'by-ms', ...base, '--close', String(Date.parse(FAR) + 1)],
      env,
    );
    expect(ms.code).toBe(0);
    // Past the last time a date holds: a usage error, nothing stored (before the registry's schema
    // bounded it, the campaign was stored, the command failed on its ISO time, and so did every list).
    const far = marketlens(
      ['admin', 'campaign', 'create', 'far', ...base, '--close', '9000000000000000', '--json'],
      env,
    );
    expect([far.code, errorOf(far.stderr).code]).toEqual([2, 'usage']);
    const list = json(marketlens(['admin', 'campaign', 'list', '--json'], env).stdout);
    expect(list.schema).toBe('marketlens.admin.campaigns/2');
    expect((list.campaigns as { id: string }[]).map((c) => c.id)).toEqual(['spring-cup', 'by-ms']);
    expect(marketlens(['admin', 'campaign', 'list'], env).stdout).toMatch(/^spring-cup +live +2099-01-01/m);
  });

  it('a missing data folder is exit 3', () => {
    const empty = mkdtempSync(join(tmpdir(), 'marketlens-none-'));
    const r = marketlens(['admin', 'promotion', 'list', '--json'], { MARKETLENS_DATA_DIR: empty });
    expect([r.code, errorOf(r.stderr).code]).toEqual([3, 'no_data_dir']);
  });
});
