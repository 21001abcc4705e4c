// Each test file's properties draw from the run's seed (scripts/fc-seed.global.mjs), so a failure
// found with any seed replays with FC_SEED. A property that passes its own `seed` keeps it.
import fc from 'fast-check';

const seed = Number(process.env.FC_SEED);
if (Number.isInteger(seed)) fc.configureGlobal({ ...fc.readConfigureGlobal(), seed });
