#!/usr/bin/env bash
# The production layout of deploy/README.md on one machine, from Debian packages, on loopback
# ports: PostgreSQL and Redis (throwaway, from .ci/services.sh; Redis with AOF and noeviction),
# `marketlens db migrate` once, N API instances (`serve --production --no-worker`), W
# `marketlens worker` processes that work the jobs, and nginx in front of the instances. Production
# mode: no demo user, JSON logs, MARKETLENS_PUBLIC_URL = nginx's address.
#
#   deploy/local-cluster.sh [start]     start it (or report the running one) and print its address
#   deploy/local-cluster.sh status      each process, and whether PostgreSQL, Redis, every instance
#                                       (/healthz, /readyz) and nginx answer; non-zero when one does not
#   deploy/local-cluster.sh restart N   rolling restart of instance N: SIGTERM (it drains), start
#                                       again on its port, wait until ready
#   deploy/local-cluster.sh stop [--purge]
#                                       stop everything it started; the logs stay in logs/ unless --purge
#
# Environment: INSTANCES (3), WORKERS (1), LISTEN_PORT (a free one), MARKETLENS_CLUSTER_DIR
# (where its state lives, default $TMPDIR/marketlens-cluster), MARKETLENS_ENV (production; set
# development for the demo user and readable logs); any other MARKETLENS_* setting is passed on
# to the instances and workers (e.g. MARKETLENS_MARKET). Needs `pnpm build` first, and root to
# install nginx, postgresql and redis-server when they are missing.
set -euo pipefail
cd "$(dirname "$0")/.."

CLUSTER_DIR=${MARKETLENS_CLUSTER_DIR:-${TMPDIR:-/tmp}/marketlens-cluster}
INSTANCES=${INSTANCES:-3}
WORKERS=${WORKERS:-1}
CLI=(node packages/cli/dist/main.js)

log() { echo "local-cluster: $*" >&2; }
die() {
  log "error: $*"
  exit 1
}

# True when the process of pid file $1 is alive.
alive() { [ -s "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

# Waits up to $2 seconds for http://127.0.0.1:$1/healthz to answer 200.
wait_healthy() {
  local port=$1 deadline=$((SECONDS + $2))
  while [ "$SECONDS" -lt "$deadline" ]; do
    curl -fsS -o /dev/null --max-time 1 "http://127.0.0.1:$port/healthz" 2>/dev/null && return 0
    sleep 0.2
  done
  return 1
}

free_port() {
  local p
  for _ in $(seq 1 50); do
    p=$((20000 + RANDOM % 40000))
    (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null || { echo "$p"; return 0; }
  done
  die "no free loopback port"
}

install_nginx() {
  command -v nginx >/dev/null 2>&1 && return 0
  command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" -eq 0 ] || die "nginx missing; install it as root: apt-get install -y nginx"
  log "installing nginx from Debian"
  # The package must not start the system-wide nginx (port 80): this script runs its own.
  local policy=/usr/sbin/policy-rc.d had_policy=0
  [ -e "$policy" ] && had_policy=1
  if [ "$had_policy" -eq 0 ]; then printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod +x "$policy"; fi
  local status=0
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx >/dev/null; } || status=$?
  [ "$had_policy" -eq 1 ] || rm -f "$policy"
  [ "$status" -eq 0 ] || die "apt-get install nginx failed (status $status)"
}

stop_cluster() {
  local purge=${1:-}
  [ -d "$CLUSTER_DIR" ] || { log "nothing to stop ($CLUSTER_DIR absent)"; return 0; }
  if alive "$CLUSTER_DIR/nginx.pid"; then
    nginx -p "$CLUSTER_DIR" -c "$CLUSTER_DIR/nginx.conf" -s quit 2>/dev/null || kill "$(cat "$CLUSTER_DIR/nginx.pid")"
  fi
  local f pid
  for f in "$CLUSTER_DIR"/pids/*.pid; do
    [ -e "$f" ] || continue
    # SIGTERM: the instances finish their requests in flight, then exit.
    alive "$f" && kill "$(cat "$f")" 2>/dev/null
  done
  for f in "$CLUSTER_DIR"/pids/*.pid; do
    [ -e "$f" ] || continue
    pid=$(cat "$f")
    # The drain period (MARKETLENS_DRAIN_MS, 10 s) and the jobs under way, then a margin.
    for _ in $(seq 1 300); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$pid" 2>/dev/null && kill -9 "$pid" 2>/dev/null
  done
  if [ -s "$CLUSTER_DIR/services" ]; then
    # Redis' and PostgreSQL's own logs join the others before their folder goes.
    local services
    services=$(cat "$CLUSTER_DIR/services")
    cp "$services/redis.log" "$CLUSTER_DIR/logs/redis.log" 2>/dev/null || true
    cp "$services/pg/postgres.log" "$CLUSTER_DIR/logs/postgres.log" 2>/dev/null || true
    # shellcheck disable=SC1091
    bash .ci/services.sh stop "$services" || true
  fi
  if [ "$purge" = --purge ] || [ ! -d "$CLUSTER_DIR/logs" ]; then
    rm -rf "$CLUSTER_DIR"
    log "stopped; removed $CLUSTER_DIR"
  else
    # Everything but the logs: pids, data, the key, nginx's files.
    find "$CLUSTER_DIR" -mindepth 1 -maxdepth 1 ! -name logs -exec rm -rf {} +
    log "stopped; logs kept in $CLUSTER_DIR/logs ($0 stop --purge removes them)"
  fi
}

# Starts instance $1 on port $2 (its log appended to logs/instance-$1.log).
start_instance() {
  local i=$1 port=$2
  nohup "${CLI[@]}" serve --production --no-worker --port "$port" >>"$CLUSTER_DIR/logs/instance-$i.log" 2>&1 &
  echo $! >"$CLUSTER_DIR/pids/instance-$i.pid"
  echo "$port" >"$CLUSTER_DIR/instance-$i.port"
}

# Waits up to $2 seconds for http://127.0.0.1:$1/readyz to answer 200.
wait_ready() {
  local port=$1 deadline=$((SECONDS + $2))
  while [ "$SECONDS" -lt "$deadline" ]; do
    curl -fsS -o /dev/null --max-time 1 "http://127.0.0.1:$port/readyz" 2>/dev/null && return 0
    sleep 0.2
  done
  return 1
}

# The environment every process of the cluster runs with (written at start).
load_env() {
  [ -s "$CLUSTER_DIR/process.env" ] || die "not running ($CLUSTER_DIR/process.env absent)"
  set -a
  # shellcheck disable=SC1091
  source "$CLUSTER_DIR/process.env"
  set +a
}

restart_instance() {
  local i=${1:-}
  [[ "$i" =~ ^[0-9]+$ ]] || die "usage: $0 restart N (an instance number, 1..)"
  [ -s "$CLUSTER_DIR/instance-$i.port" ] || die "no instance $i in $CLUSTER_DIR"
  load_env
  local port pid f="$CLUSTER_DIR/pids/instance-$i.pid" began=$SECONDS
  port=$(cat "$CLUSTER_DIR/instance-$i.port")
  if alive "$f"; then
    pid=$(cat "$f")
    kill "$pid"
    for _ in $(seq 1 300); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$pid" 2>/dev/null && { log "instance $i still up 30 s after SIGTERM: SIGKILL"; kill -9 "$pid"; }
  fi
  start_instance "$i" "$port"
  wait_ready "$port" 60 || {
    tail -n 30 "$CLUSTER_DIR/logs/instance-$i.log" >&2
    die "instance $i did not get ready on port $port (log above)"
  }
  log "instance $i restarted on port $port in $((SECONDS - began)) s"
}

status_cluster() {
  [ -s "$CLUSTER_DIR/env" ] || { log "not running ($CLUSTER_DIR/env absent)"; return 1; }
  cat "$CLUSTER_DIR/env"
  local f name ok=0 port code
  # shellcheck disable=SC1091
  source "$CLUSTER_DIR/env"
  if psql -X -q -t -c 'SELECT 1' "$DATABASE_URL" >/dev/null 2>&1; then echo "postgresql: answers"; else echo "postgresql: NOT answering"; ok=1; fi
  local redis_port=${REDIS_URL##*:}
  if [ "$(redis-cli -h 127.0.0.1 -p "$redis_port" ping 2>/dev/null)" = PONG ]; then
    echo "redis: answers (appendonly $(redis-cli -h 127.0.0.1 -p "$redis_port" config get appendonly 2>/dev/null | tail -n 1))"
  else
    echo "redis: NOT answering"
    ok=1
  fi
  for f in "$CLUSTER_DIR"/pids/*.pid "$CLUSTER_DIR/nginx.pid"; do
    [ -e "$f" ] || continue
    name=$(basename "$f" .pid)
    if ! alive "$f"; then
      echo "$name: NOT running"
      ok=1
      continue
    fi
    if [ -s "$CLUSTER_DIR/$name.port" ]; then
      port=$(cat "$CLUSTER_DIR/$name.port")
      # Instances: /readyz; workers serve /healthz and /metrics on their metrics port.
      local check=readyz
      [[ "$name" == worker-* ]] && check=healthz
      code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "http://127.0.0.1:$port/$check" || true)
      echo "$name: running (pid $(cat "$f"), port $port, $check $code)"
      [ "$code" = 200 ] || ok=1
    else
      echo "$name: running (pid $(cat "$f"))"
    fi
  done
  return "$ok"
}

start_cluster() {
  if [ -s "$CLUSTER_DIR/env" ] && alive "$CLUSTER_DIR/nginx.pid"; then
    log "already running:"
    status_cluster
    return 0
  fi
  [ -d "$CLUSTER_DIR" ] && stop_cluster
  [ -f packages/cli/dist/main.js ] || die "packages/cli/dist/main.js missing: run pnpm build first"
  command -v curl >/dev/null 2>&1 || die "curl is needed to check the instances (apt-get install -y curl)"
  install_nginx
  mkdir -p "$CLUSTER_DIR/pids" "$CLUSTER_DIR/data" "$CLUSTER_DIR/logs"

  # PostgreSQL and Redis: throwaway, on free loopback ports; Redis with AOF, as the README requires.
  export MARKETLENS_REDIS_AOF=yes
  # shellcheck disable=SC1091
  source .ci/services.sh
  echo "$MARKETLENS_SERVICES_DIR" >"$CLUSTER_DIR/services"
  local pg_base=${MARKETLENS_TEST_DATABASE_URL%/*}
  psql -X -q "$pg_base/postgres" -v ON_ERROR_STOP=1 -c 'CREATE DATABASE marketlens' >/dev/null ||
    die "could not create the database marketlens"
  export DATABASE_URL="$pg_base/marketlens"
  export REDIS_URL=$MARKETLENS_TEST_REDIS_URL
  export MARKETLENS_DATA_DIR="$CLUSTER_DIR/data"
  # One credentials key for every process (each would otherwise make its own key file).
  if [ -z "${MARKETLENS_SECRET_KEY:-}" ]; then
    [ -s "$CLUSTER_DIR/secret.key" ] || (umask 077 && head -c 32 /dev/urandom | base64 >"$CLUSTER_DIR/secret.key")
    MARKETLENS_SECRET_KEY=$(cat "$CLUSTER_DIR/secret.key")
  fi
  export MARKETLENS_SECRET_KEY
  # nginx connects from 127.0.0.1: the one proxy whose X-Forwarded-For the instances believe.
  export MARKETLENS_TRUSTED_PROXIES=127.0.0.1
  export HOST=127.0.0.1
  # Production unless told otherwise; the public address is nginx's, so its port is chosen first.
  local listen=${LISTEN_PORT:-$(free_port)} user=''
  export MARKETLENS_ENV=${MARKETLENS_ENV:-production}
  export MARKETLENS_PUBLIC_URL=${MARKETLENS_PUBLIC_URL:-http://127.0.0.1:$listen}
  # Production mails verification and reset links: to SMTP when MARKETLENS_SMTP_URL is set, else to
  # a file the operator reads (mode 0600), never to the log.
  if [ -z "${MARKETLENS_SMTP_URL:-}" ]; then export MARKETLENS_MAIL_FILE=${MARKETLENS_MAIL_FILE:-$CLUSTER_DIR/mail.txt}; fi
  # What restart and the workers start with: every MARKETLENS_* setting, the URLs, HOST.
  {
    env | grep -E '^(MARKETLENS_[A-Z0-9_]+|DATABASE_URL|REDIS_URL|HOST)=' | grep -vE '^MARKETLENS_(TEST_|SERVICES_DIR|CLUSTER_DIR|REDIS_AOF)' |
      sed -E "s/^([A-Z0-9_]+)=(.*)$/\1='\2'/"
  } >"$CLUSTER_DIR/process.env"
  chmod 600 "$CLUSTER_DIR/process.env"

  # The schema, once, before any instance starts (an instance finds it current and migrates nothing).
  "${CLI[@]}" db migrate >"$CLUSTER_DIR/logs/migrate.log" 2>&1 || {
    cat "$CLUSTER_DIR/logs/migrate.log" >&2
    die "marketlens db migrate failed"
  }

  local i port servers=''
  for i in $(seq 1 "$INSTANCES"); do
    port=$(free_port)
    start_instance "$i" "$port"
    servers+="    server 127.0.0.1:$port max_fails=3 fail_timeout=10s;"$'\n'
  done
  for i in $(seq 1 "$INSTANCES"); do
    port=$(cat "$CLUSTER_DIR/instance-$i.port")
    wait_healthy "$port" 120 || {
      tail -n 30 "$CLUSTER_DIR/logs/instance-$i.log" >&2
      die "instance $i did not answer /healthz on port $port (log above)"
    }
  done

  # The workers work every job; the instances only serve (and schedule).
  for i in $(seq 1 "$WORKERS"); do
    port=$(free_port)
    nohup "${CLI[@]}" worker --metrics-port "$port" >>"$CLUSTER_DIR/logs/worker-$i.log" 2>&1 &
    echo $! >"$CLUSTER_DIR/pids/worker-$i.pid"
    echo "$port" >"$CLUSTER_DIR/worker-$i.port"
  done

  # Under root the master drops its workers to www-data, which Debian's nginx package creates.
  [ "$(id -u)" -eq 0 ] && user='user www-data;'
  SERVERS="$servers" PREFIX="$CLUSTER_DIR" LISTEN="127.0.0.1:$listen" USER_LINE="$user" awk '
    /^@SERVERS@$/ { printf "%s", ENVIRON["SERVERS"]; next }
    { gsub(/@PREFIX@/, ENVIRON["PREFIX"]); gsub(/@LISTEN@/, ENVIRON["LISTEN"]); gsub(/@USER@/, ENVIRON["USER_LINE"]); print }
  ' deploy/nginx.conf >"$CLUSTER_DIR/nginx.conf"
  nginx -t -q -p "$CLUSTER_DIR" -c "$CLUSTER_DIR/nginx.conf" 2>"$CLUSTER_DIR/nginx-test.log" || {
    cat "$CLUSTER_DIR/nginx-test.log" >&2
    die "nginx rejected $CLUSTER_DIR/nginx.conf"
  }
  nginx -p "$CLUSTER_DIR" -c "$CLUSTER_DIR/nginx.conf" || die "nginx did not start (log: $CLUSTER_DIR/logs/nginx-error.log)"
  wait_healthy "$listen" 10 || die "nginx does not answer on 127.0.0.1:$listen"

  {
    echo "MARKETLENS_URL=http://127.0.0.1:$listen"
    echo "DATABASE_URL=$DATABASE_URL"
    echo "REDIS_URL=$REDIS_URL"
  } >"$CLUSTER_DIR/env"
  log "$INSTANCES instances (--no-worker) and $WORKERS worker(s) behind http://127.0.0.1:$listen, $MARKETLENS_ENV mode; logs in $CLUSTER_DIR/logs; stop: $0 stop"
  cat "$CLUSTER_DIR/env"
}

case "${1:-start}" in
  start) start_cluster ;;
  stop) stop_cluster "${2:-}" ;;
  status) status_cluster ;;
  restart) restart_instance "${2:-}" ;;
  *)
    echo "usage: $0 [start | status | restart N | stop [--purge]]" >&2
    exit 2
    ;;
esac
