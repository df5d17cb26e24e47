#!/usr/bin/env bash
# A throwaway PostgreSQL cluster on a local port, for the tests: sourced by .ci/run, and run on
# its own by the test that proves it starts for a user who is not root.
#   start_postgres PORT   sets SHOWRUNNER_TEST_POSTGRES_URL and stops the cluster on exit.
# As root, the cluster belongs to the `postgres` user (initdb refuses root); as anyone else,
# to the user running it. PostgreSQL itself comes from Debian's packages, installed when root.

find_pg_bin() {
  ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true
}

need() {
  # One clear line naming what to install, then stop.
  echo ".ci/run: $1 is missing; install it (Debian/Ubuntu: sudo apt-get install $2) and run again" >&2
  exit 1
}

ensure_postgres_installed() {
  pg_bin=$(find_pg_bin)
  if [ -z "$pg_bin" ] || [ ! -x "$pg_bin/initdb" ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
      export DEBIAN_FRONTEND=noninteractive
      apt-get update -qq
      apt-get install -y -qq postgresql >/dev/null
      pg_bin=$(find_pg_bin)
    else
      need "PostgreSQL (initdb, pg_ctl)" postgresql
    fi
  fi
}

start_postgres() {
  local port=$1
  ensure_postgres_installed
  pg_dir=$(mktemp -d /tmp/showrunner-ci-pg.XXXXXX)
  if [ "$(id -u)" = 0 ]; then
    pg_user=postgres
    id "$pg_user" >/dev/null 2>&1 || useradd --system --no-create-home "$pg_user"
    chown "$pg_user" "$pg_dir"
    run_pg() { su "$pg_user" -s /bin/sh -c "$*"; }
  else
    run_pg() { sh -c "$*"; }
  fi
  run_pg "'$pg_bin/initdb' -D '$pg_dir/data' -U postgres --auth=trust -E UTF8 >/dev/null"
  run_pg "'$pg_bin/pg_ctl' -D '$pg_dir/data' -l '$pg_dir/log' -w -o \"-p $port -k $pg_dir -c listen_addresses=127.0.0.1 -c max_connections=300 -c fsync=off\" start >/dev/null"
  trap 'run_pg "\"$pg_bin/pg_ctl\" -D \"$pg_dir/data\" -m immediate stop" >/dev/null 2>&1 || true; rm -rf "$pg_dir"' EXIT
  run_pg "'$pg_bin/createdb' -h 127.0.0.1 -p $port -U postgres showrunner_test"
  export SHOWRUNNER_TEST_POSTGRES_URL="postgresql://postgres@127.0.0.1:$port/showrunner_test"
}

check_python() {
  # The README's test command needs `python3` >= 3.11 with its venv module.
  if ! command -v python3 >/dev/null 2>&1; then
    need "python3 (3.11 or newer)" "python3 python3-venv"
  fi
  if ! python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
    need "Python 3.11 or newer (python3 is $(python3 -c 'import platform; print(platform.python_version())'))" "python3 python3-venv"
  fi
  if ! python3 -c 'import ensurepip, venv' >/dev/null 2>&1; then
    need "the venv module of python3" "python3-venv"
  fi
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  # Run on its own: start a cluster, say where, and keep it up until stdin closes.
  set -euo pipefail
  start_postgres "${1:-54329}"
  echo "$SHOWRUNNER_TEST_POSTGRES_URL"
  cat >/dev/null
fi
