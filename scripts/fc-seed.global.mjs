// Every property test of a run draws from one seed: FC_SEED when given (a replay), else a fresh one.
// It is printed at the start of every run (CI logs keep it), and a failing property prints it too,
// so `FC_SEED=<seed> npx vitest run <file> -t '<name>'` replays the failure. Set before the test
// workers start, so each of them reads it (scripts/fc-seed.setup.mjs).
export function setup() {
  const given = process.env.FC_SEED;
  const seed = given !== undefined && given.trim() !== '' ? Number(given) : Math.floor(Math.random() * 2 ** 31);
  if (!Number.isInteger(seed)) throw new Error(`FC_SEED must be an integer, got '${given}'`);
  process.env.FC_SEED = String(seed);
  console.log(`fast-check seed of this run: ${seed} (replay a failure with FC_SEED=${seed})`);
}
