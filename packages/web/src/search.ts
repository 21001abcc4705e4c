/**
 * Whether an asset matches a search by name, ticker or id: every word of the query must start a
 * word of the name, or be the start of the ticker or the id (case-insensitive), so `btc` finds
 * Bitcoin by its ticker and `bit` finds it by its name, while `coin` does not find Bitcoin.
 */
export function matchesSearch(row: { id: string; name: string; symbol: string }, query: string): boolean {
  const words = query
    .trim()
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w !== '');
  if (words.length === 0) return true;
  const nameWords = row.name.toLowerCase().split(/[^\p{L}\p{N}]+/u);
  const symbol = row.symbol.toLowerCase();
  const id = row.id.toLowerCase();
  return words.every(
    (w) => nameWords.some((n) => n.startsWith(w)) || symbol.startsWith(w) || id.startsWith(w) || id.includes(`-${w}`),
  );
}
