#!/usr/bin/env node
// The command's entry is a committed file so that pnpm links `marketlens-server` in a fresh clone,
// before the first build (it warns about, and skips, a bin whose file does not exist yet). The
// server itself is the build.
import '../dist/main.js';
