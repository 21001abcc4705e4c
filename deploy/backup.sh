#!/usr/bin/env bash
# Backup and restore of a marketlens deployment's storage.
#
#   deploy/backup.sh backup DIR    writes DIR/ (created; must not exist):
#                                  PostgreSQL of DATABASE_URL: marketlens.pgdump (pg_dump, custom format);
#                                  else the SQLite file of MARKETLENS_DATA_DIR (./data) through SQLite's
#                                  online backup API (consistent while the server runs) and its
#                                  credentials.key when there is one; and manifest.txt.
#   deploy/backup.sh restore DIR   PostgreSQL: into the database of DATABASE_URL, which must be empty
#                                  (createdb it first); SQLite: into MARKETLENS_DATA_DIR, which must
#                                  hold no marketlens.sqlite. Then `marketlens db migrate` brings an
#                                  older backup to the current schema.
#
# MARKETLENS_SECRET_KEY is never in a backup: keep it apart (stored credentials open only with it).
set -euo pipefail

log() { echo "backup.sh: $*" >&2; }
die() {
  log "error: $*"
  exit 1
}

# SQLite's online backup of $1 into $2: the sqlite3 shell's .backup, else better-sqlite3's backup().
sqlite_backup() {
  local src=$1 dest=$2
  if command -v sqlite3 >/dev/null 2>&1; then
    sqlite3 "$src" ".timeout 10000" ".backup '$dest'"
  else
    local here
    here=$(cd "$(dirname "$0")/.." && pwd)
    (cd "$here/packages/server" && node -e "const D=require('better-sqlite3');const db=new D(process.argv[1],{readonly:true});db.backup(process.argv[2]).then(()=>db.close(),e=>{console.error(e.message);process.exit(1)})" "$src" "$dest")
  fi
}

backup() {
  local dir=$1
  [ -e "$dir" ] && die "$dir exists: give a new folder"
  mkdir -p "$dir"
  chmod 700 "$dir"
  local started
  started=$(date -u +%Y-%m-%dT%H:%M:%SZ)
  if [ -n "${DATABASE_URL:-}" ]; then
    command -v pg_dump >/dev/null 2>&1 || die "pg_dump missing (apt-get install -y postgresql-client)"
    pg_dump --format=custom --no-owner --no-privileges --file="$dir/marketlens.pgdump" "$DATABASE_URL"
    printf 'engine=postgres\ntaken=%s\nfile=marketlens.pgdump\n' "$started" >"$dir/manifest.txt"
    log "PostgreSQL dumped to $dir/marketlens.pgdump ($(stat -c %s "$dir/marketlens.pgdump") bytes)"
  else
    local data=${MARKETLENS_DATA_DIR:-./data}
    [ -f "$data/marketlens.sqlite" ] || die "no $data/marketlens.sqlite (set MARKETLENS_DATA_DIR or DATABASE_URL)"
    sqlite_backup "$data/marketlens.sqlite" "$dir/marketlens.sqlite"
    [ -f "$data/credentials.key" ] && cp -p "$data/credentials.key" "$dir/credentials.key"
    printf 'engine=sqlite\ntaken=%s\nfile=marketlens.sqlite\nkey_file=%s\n' "$started" \
      "$([ -f "$dir/credentials.key" ] && echo credentials.key || echo none)" >"$dir/manifest.txt"
    log "SQLite backed up to $dir/marketlens.sqlite ($(stat -c %s "$dir/marketlens.sqlite") bytes)"
  fi
  chmod 600 "$dir"/*
}

restore() {
  local dir=$1
  [ -f "$dir/manifest.txt" ] || die "$dir/manifest.txt missing: not a backup of this script"
  local engine
  engine=$(sed -n 's/^engine=//p' "$dir/manifest.txt")
  case "$engine" in
    postgres)
      [ -n "${DATABASE_URL:-}" ] || die "set DATABASE_URL to the (empty) database to restore into"
      local tables
      tables=$(psql -X -q -t -A -c "SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema()" "$DATABASE_URL")
      [ "$tables" = 0 ] || die "the database of DATABASE_URL holds $tables tables: restore into an empty one"
      pg_restore --no-owner --no-privileges --exit-on-error --dbname="$DATABASE_URL" "$dir/marketlens.pgdump"
      log "restored into $(echo "$DATABASE_URL" | sed -E 's#://([^:@/]*):[^@]*@#://\1:***@#')"
      ;;
    sqlite)
      local data=${MARKETLENS_DATA_DIR:-./data}
      [ -e "$data/marketlens.sqlite" ] && die "$data/marketlens.sqlite exists: restore into a new data folder"
      mkdir -p "$data"
      chmod 700 "$data"
      cp "$dir/marketlens.sqlite" "$data/marketlens.sqlite"
      [ -f "$dir/credentials.key" ] && cp "$dir/credentials.key" "$data/credentials.key"
      chmod 600 "$data"/marketlens.sqlite "$data"/credentials.key 2>/dev/null || true
      log "restored into $data"
      ;;
    *) die "unknown engine '$engine' in $dir/manifest.txt" ;;
  esac
}

case "${1:-}" in
  backup) backup "${2:?usage: $0 backup DIR}" ;;
  restore) restore "${2:?usage: $0 restore DIR}" ;;
  *)
    echo "usage: $0 backup DIR | restore DIR" >&2
    exit 2
    ;;
esac
