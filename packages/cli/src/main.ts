import { run } from './cli.js';
import { processIo } from './io.js';

// Leave through exitCode, not process.exit(): stdout of a pipe is flushed first.
run(process.argv.slice(2), processIo()).then((code) => {
  process.exitCode = code;
});
