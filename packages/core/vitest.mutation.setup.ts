import fc from 'fast-check';

// Every property of a mutation run draws from FC_SEED (`pnpm mutation` sets it), also those that
// call fc.assert directly rather than through testing/reach.ts, so a mutant survives or dies the
// same way on every run.
const seed = Number(process.env.FC_SEED);
if (Number.isInteger(seed)) fc.configureGlobal({ seed });
