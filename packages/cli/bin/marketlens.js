#!/usr/bin/env node
// The command's entry is a committed file so that pnpm links `marketlens` in a fresh clone, before
// the first build (it skips a bin whose file does not exist yet). The command itself is the build.
import '../dist/main.js';
