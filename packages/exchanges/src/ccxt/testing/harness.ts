import type { AccountData, VenueFill } from '../../ports.js';

/** Reads every fill since a time by following `next_cursor`; counts the pages. */
export async function readAllFills(
  account: AccountData,
  since: number,
  maxPages = 200,
): Promise<{ fills: VenueFill[]; pages: number }> {
  const fills: VenueFill[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await account.fills({ since, cursor });
    fills.push(...page.fills);
    cursor = page.next_cursor ?? undefined;
    pages++;
  } while (cursor !== undefined && pages < maxPages);
  if (cursor !== undefined) throw new Error(`fills did not end within ${maxPages} pages`);
  return { fills, pages };
}
