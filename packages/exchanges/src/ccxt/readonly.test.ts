import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createClient, READ_ONLY_CALLS } from './client.js';
import { VENUE_PROFILES } from './venues.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const catalog = fileURLToPath(new URL('../catalog/', import.meta.url));

/**
 * Every non-test source file of the ccxt adapters and the catalog. `testing/` (the local venue
 * server and the venues' recorded response shapes, which name fields like `cancelType`) is data,
 * not adapter code, and never touches ccxt.
 */
function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== 'testing') out.push(...sources(path));
    } else if (name.endsWith('.ts') && !name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

/** Calls (or property reads) that change something on a venue, as ccxt names them. */
const WRITES = [
  /\bcreate\w*Orders?\b/,
  /\bcancel\w*\b/,
  /\bedit\w*Orders?\b/,
  /\btransfer\w*\b/,
  /\bwithdraw\w*\b/,
  /\bset(Leverage|MarginMode|PositionMode|Margin|SandboxMode)\b/,
  /\b(add|reduce)Margin\b/,
  /\b(borrow|repay)\w*\b/,
  /\bclose(All)?Positions?\s*\(/,
  /\bcreateDepositAddress\b/,
  /\bupgradeUnifiedTradeAccount\b/,
  // Raw endpoint methods (`privatePostOrder`, `fapiPrivateDeleteOrder`, `v3PrivatePostBrokerageOrders`):
  // the adapters call unified read methods only.
  /\b[a-z][A-Za-z0-9]*(Private|Public)(Get|Post|Put|Delete|Patch)[A-Z]\w*/,
  /\b(private|public)(Get|Post|Put|Delete|Patch)[A-Z]\w*/,
];

describe('the ccxt adapters are read-only', () => {
  const files = [...sources(here), ...sources(catalog)];

  it('scans a non-trivial set of files', () => {
    expect(files.some((f) => f.endsWith('account-data.ts'))).toBe(true);
    expect(files.some((f) => f.endsWith('client.ts'))).toBe(true);
  });

  for (const pattern of WRITES) {
    it(`no source mentions ${pattern}`, () => {
      const hits = files.flatMap((file) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .map((line, i) => ({ file, line: i + 1, text: line }))
          .filter(({ text }) => pattern.test(text)),
      );
      expect(hits).toEqual([]);
    });
  }

  it('the client type exposes only fetch/load/lookup methods', () => {
    for (const name of READ_ONLY_CALLS) expect(name).toMatch(/^(fetch|load|market$)/);
  });

  it('the client refuses any other method at run time, before a request is sent', async () => {
    const client = await createClient(
      VENUE_PROFILES.binance,
      { apiKey: 'k', secret: 's' },
      { proxyUrl: 'http://127.0.0.1:9/' },
    );
    const raw = client as unknown as Record<string, unknown>;
    for (const name of [
      'createOrder',
      'cancelOrder',
      'cancelAllOrders',
      'editOrder',
      'transfer',
      'withdraw',
      'setLeverage',
      'fapiPrivatePostOrder',
      'sapiPostAssetTransfer',
    ]) {
      expect(() => raw[name], name).toThrow(/not a read-only venue call/);
    }
    expect(typeof client.fetchBalance).toBe('function');
    expect(client.id).toBe('binance');
  });
});
