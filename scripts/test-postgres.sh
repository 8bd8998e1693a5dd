#!/usr/bin/env bash
# Runs a command against a throwaway PostgreSQL cluster, then stops and deletes the cluster whatever
# happens. The cluster lives in a temporary directory, listens on a free loopback port only, trusts
# local connections (nothing else can reach it), and runs as an unprivileged user because PostgreSQL
# refuses to run as root.
#
#   scripts/test-postgres.sh npx vitest run test/unit/store     # some tests
#   scripts/test-postgres.sh npm test                           # the whole suite, PG tests included
#
# The command sees FACET_TEST_DATABASE_URL=postgres://facet@127.0.0.1:PORT/facet_test; the test
# helper (test/helpers/postgres.ts) makes one fresh database per test file from it.
# PG_BIN overrides where initdb/pg_ctl are found (default: the newest /usr/lib/postgresql/*/bin).
set -euo pipefail

if [ $# -eq 0 ]; then
  echo "usage: $0 COMMAND [ARGS...]" >&2
  exit 2
fi

if [ -z "${PG_BIN:-}" ]; then
  # Debian keeps the server binaries out of PATH, under /usr/lib/postgresql/VERSION/bin.
  PG_BIN="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)"
fi
if [ -z "$PG_BIN" ] || [ ! -x "$PG_BIN/initdb" ] || [ ! -x "$PG_BIN/pg_ctl" ]; then
  echo "test-postgres: no PostgreSQL server binaries found (install Debian's 'postgresql' or set PG_BIN)" >&2
  exit 1
fi

dir="$(mktemp -d /tmp/facet-pg.XXXXXX)"
# A free loopback port: ask the kernel for one.
port="$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"

# As root, the cluster runs as 'nobody'; otherwise as the current user.
if [ "$(id -u)" = 0 ]; then
  run_as() { runuser -u nobody -- "$@"; }
  chown nobody "$dir"
else
  run_as() { "$@"; }
fi
chmod 700 "$dir"

stop() {
  status=$?
  if [ -f "$dir/data/postmaster.pid" ]; then
    run_as "$PG_BIN/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
  fi
  rm -rf "$dir"
  exit $status
}
trap stop EXIT INT TERM

run_as "$PG_BIN/initdb" -D "$dir/data" -U facet --auth=trust --encoding=UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
  || { cat "$dir/initdb.log" >&2; exit 1; }
# Sockets in the cluster's own directory, TCP on loopback only; fsync off: the data is thrown away.
run_as "$PG_BIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
  -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300" start >/dev/null \
  || { cat "$dir/server.log" >&2; exit 1; }
run_as "$PG_BIN/psql" -q -h 127.0.0.1 -p "$port" -U facet -d postgres -c "CREATE DATABASE facet_test"

export FACET_TEST_DATABASE_URL="postgres://facet@127.0.0.1:$port/facet_test"
echo "test-postgres: PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}') on 127.0.0.1:$port (FACET_TEST_DATABASE_URL=$FACET_TEST_DATABASE_URL)" >&2
"$@"
