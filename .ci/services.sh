#!/usr/bin/env bash
# Throwaway PostgreSQL and Redis for the tests that need them (the scale-out suites): both from
# Debian, installed only when missing, each on a free loopback port, their data, sockets, logs and
# pid files in one fresh temporary folder, nothing persisted.
#
#   source .ci/services.sh        starts them (or reuses the ones this shell already started) and
#                                 exports MARKETLENS_TEST_DATABASE_URL, MARKETLENS_TEST_REDIS_URL
#                                 and MARKETLENS_SERVICES_DIR; `marketlens_services_stop` stops both
#                                 and removes the folder (trap it on EXIT).
#   eval "$(bash .ci/services.sh)"  the same from another shell: prints the export lines.
#   bash .ci/services.sh stop DIR   stops the services whose folder is DIR (MARKETLENS_SERVICES_DIR).
#
# PostgreSQL refuses to run as root, so under root its cluster is created and run as the `postgres`
# user the Debian package creates. Start-up takes about two seconds (no fsync: the data is thrown
# away). Every failure says what failed and prints the service's log, and the sourcing shell sees
# a non-zero status (under `set -e` it stops there).

_mls_log() { echo "services.sh: $*" >&2; }

_mls_fail() {
  _mls_log "error: $*"
  return 1
}

# The newest installed PostgreSQL server's bin folder (Debian keeps them versioned, off PATH).
_mls_pg_bin() {
  local d
  for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -t/ -k5 -n -r); do
    [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ] && { echo "$d"; return 0; }
  done
  return 1
}

# Installs postgresql and redis-server from Debian when either is missing.
_mls_install() {
  local missing=()
  _mls_pg_bin >/dev/null || missing+=(postgresql)
  command -v redis-server >/dev/null 2>&1 && command -v redis-cli >/dev/null 2>&1 || missing+=(redis-server)
  [ "${#missing[@]}" -eq 0 ] && return 0
  command -v apt-get >/dev/null 2>&1 || _mls_fail "${missing[*]} missing and there is no apt-get to install them" || return 1
  [ "$(id -u)" -eq 0 ] || _mls_fail "${missing[*]} missing; install them as root: apt-get install -y ${missing[*]}" || return 1
  _mls_log "installing ${missing[*]} from Debian"
  # Package scripts must not start the system-wide services: this script runs its own.
  local policy=/usr/sbin/policy-rc.d had_policy=0
  [ -e "$policy" ] && had_policy=1
  if [ "$had_policy" -eq 0 ]; then printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod +x "$policy"; fi
  local status=0
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null; } || status=$?
  [ "$had_policy" -eq 1 ] || rm -f "$policy"
  [ "$status" -eq 0 ] || _mls_fail "apt-get install ${missing[*]} failed (status $status)" || return 1
  _mls_pg_bin >/dev/null || _mls_fail "postgresql installed but no /usr/lib/postgresql/*/bin/initdb" || return 1
}

# True when something listens on 127.0.0.1:$1.
_mls_listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# A loopback port nothing listens on, drawn at random from 20000-59999 (never a well-known one
# such as 5432 or 6379, which a developer's own services may hold).
_mls_free_port() {
  local p i
  for i in $(seq 1 50); do
    p=$((20000 + RANDOM % 40000))
    _mls_listening "$p" || { echo "$p"; return 0; }
  done
  _mls_fail "no free loopback port found in 50 draws"
}

# Runs a command as the PostgreSQL owner: `postgres` under root, else the current user.
_mls_as_pg() {
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

_mls_start_postgres() {
  local dir=$1 bin port data="$1/pg" attempt
  bin=$(_mls_pg_bin) || _mls_fail "no PostgreSQL server binaries under /usr/lib/postgresql" || return 1
  if [ "$(id -u)" -eq 0 ]; then
    id postgres >/dev/null 2>&1 || _mls_fail "running as root and there is no postgres user to run PostgreSQL" || return 1
  fi
  mkdir -p "$data" && chmod 700 "$data" || return 1
  [ "$(id -u)" -ne 0 ] || chown postgres: "$data" || return 1
  _mls_as_pg "$bin/initdb" -D "$data" -U postgres -A trust -E UTF8 --locale=C.UTF-8 --no-sync >"$dir/initdb.log" 2>&1 ||
    { cat "$dir/initdb.log" >&2; _mls_fail "initdb failed in $data (the postgres user must be able to reach it: set TMPDIR to a folder it can)"; return 1; }
  # A port taken between the check and the start makes pg_ctl fail: draw another and retry.
  for attempt in 1 2 3 4 5; do
    port=$(_mls_free_port) || return 1
    if _mls_as_pg "$bin/pg_ctl" -D "$data" -l "$data/postgres.log" -w -t 30 -o \
      "-p $port -k $data -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300" \
      start >/dev/null 2>&1; then
      _mls_as_pg "$bin/psql" -X -q -h 127.0.0.1 -p "$port" -U postgres -d postgres -v ON_ERROR_STOP=1 \
        -c 'CREATE DATABASE marketlens_test' >/dev/null 2>"$dir/createdb.log" ||
        { cat "$dir/createdb.log" >&2; _mls_fail "could not create database marketlens_test on port $port"; return 1; }
      MLS_PG_PORT=$port
      return 0
    fi
    _mls_log "PostgreSQL did not start on port $port (attempt $attempt)"
  done
  tail -n 30 "$data/postgres.log" >&2 2>/dev/null
  _mls_fail "PostgreSQL did not start (log above: $data/postgres.log)"
}

_mls_start_redis() {
  local dir=$1 port attempt i
  for attempt in 1 2 3 4 5; do
    port=$(_mls_free_port) || return 1
    # No RDB snapshots, no AOF: a throwaway store (MARKETLENS_REDIS_AOF=yes: AOF persistence and
    # noeviction, as deploy/README.md requires of a deployment's Redis). Daemonized, its pid file
    # and log in $dir.
    local persist=(--appendonly no)
    [ "${MARKETLENS_REDIS_AOF:-no}" = yes ] && persist=(--appendonly yes --appendfsync everysec --maxmemory-policy noeviction)
    redis-server --port "$port" --bind 127.0.0.1 --save '' "${persist[@]}" --daemonize yes \
      --dir "$dir" --pidfile "$dir/redis.pid" --logfile "$dir/redis.log" >/dev/null 2>&1 || continue
    for i in $(seq 1 100); do
      [ "$(redis-cli -h 127.0.0.1 -p "$port" ping 2>/dev/null)" = PONG ] && { MLS_REDIS_PORT=$port; return 0; }
      sleep 0.05
    done
    _mls_log "Redis did not answer on port $port (attempt $attempt)"
    [ -s "$dir/redis.pid" ] && kill "$(cat "$dir/redis.pid")" 2>/dev/null
  done
  tail -n 30 "$dir/redis.log" >&2 2>/dev/null
  _mls_fail "redis-server did not start (log above: $dir/redis.log)"
}

# True when the services recorded in $1/env both answer.
_mls_alive() {
  local dir=$1
  [ -n "$dir" ] && [ -s "$dir/env" ] || return 1
  local MARKETLENS_TEST_DATABASE_URL MARKETLENS_TEST_REDIS_URL
  # shellcheck disable=SC1091
  . "$dir/env"
  local bin pg_port redis_port
  bin=$(_mls_pg_bin) || return 1
  pg_port=${MARKETLENS_TEST_DATABASE_URL##*:}
  pg_port=${pg_port%%/*}
  redis_port=${MARKETLENS_TEST_REDIS_URL##*:}
  "$bin/pg_isready" -q -h 127.0.0.1 -p "$pg_port" && [ "$(redis-cli -h 127.0.0.1 -p "$redis_port" ping 2>/dev/null)" = PONG ]
}

# Starts both services (or finds this shell's running ones) and exports their URLs.
marketlens_services_start() {
  if _mls_alive "${MARKETLENS_SERVICES_DIR:-}"; then
    # shellcheck disable=SC1091
    . "$MARKETLENS_SERVICES_DIR/env"
    export MARKETLENS_TEST_DATABASE_URL MARKETLENS_TEST_REDIS_URL MARKETLENS_SERVICES_DIR
    return 0
  fi
  _mls_install || return 1
  local dir
  dir=$(mktemp -d "${TMPDIR:-/tmp}/marketlens-services.XXXXXX") || _mls_fail "mktemp failed" || return 1
  chmod 755 "$dir"
  MLS_PG_PORT='' MLS_REDIS_PORT=''
  if ! _mls_start_postgres "$dir" || ! _mls_start_redis "$dir"; then
    marketlens_services_stop "$dir"
    return 1
  fi
  {
    echo "MARKETLENS_TEST_DATABASE_URL=postgres://postgres@127.0.0.1:$MLS_PG_PORT/marketlens_test"
    echo "MARKETLENS_TEST_REDIS_URL=redis://127.0.0.1:$MLS_REDIS_PORT"
  } >"$dir/env"
  # shellcheck disable=SC1091
  . "$dir/env"
  MARKETLENS_SERVICES_DIR=$dir
  export MARKETLENS_TEST_DATABASE_URL MARKETLENS_TEST_REDIS_URL MARKETLENS_SERVICES_DIR
  _mls_log "PostgreSQL on 127.0.0.1:$MLS_PG_PORT, Redis on 127.0.0.1:$MLS_REDIS_PORT, files in $dir"
}

# Stops the services of folder $1 (default: this shell's) and removes the folder. Safe under
# `set -e` in an EXIT trap: a service that already died does not stop the clean-up.
marketlens_services_stop() {
  local dir=${1:-${MARKETLENS_SERVICES_DIR:-}}
  [ -n "$dir" ] && [ -d "$dir" ] || return 0
  case "$dir" in */marketlens-services.*) ;; *) _mls_fail "refusing to remove $dir: not a services folder" || return 1 ;; esac
  local bin
  if [ -s "$dir/pg/postmaster.pid" ] && bin=$(_mls_pg_bin); then
    _mls_as_pg "$bin/pg_ctl" -D "$dir/pg" -m immediate -w stop >/dev/null 2>&1 ||
      kill "$(head -n 1 "$dir/pg/postmaster.pid")" 2>/dev/null || true
  fi
  if [ -s "$dir/redis.pid" ]; then
    local pid
    pid=$(cat "$dir/redis.pid")
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
  fi
  rm -rf "$dir"
  if [ "$dir" = "${MARKETLENS_SERVICES_DIR:-}" ]; then
    unset MARKETLENS_SERVICES_DIR MARKETLENS_TEST_DATABASE_URL MARKETLENS_TEST_REDIS_URL
  fi
}

if [ "${BASH_SOURCE[0]}" != "$0" ]; then
  marketlens_services_start || return 1
else
  case "${1:-start}" in
    start)
      marketlens_services_start || exit 1
      printf 'export MARKETLENS_TEST_DATABASE_URL=%q\n' "$MARKETLENS_TEST_DATABASE_URL"
      printf 'export MARKETLENS_TEST_REDIS_URL=%q\n' "$MARKETLENS_TEST_REDIS_URL"
      printf 'export MARKETLENS_SERVICES_DIR=%q\n' "$MARKETLENS_SERVICES_DIR"
      ;;
    stop) marketlens_services_stop "${2:-}" || exit 1 ;;
    *)
      echo "usage: source .ci/services.sh | bash .ci/services.sh [start | stop DIR]" >&2
      exit 2
      ;;
  esac
fi
