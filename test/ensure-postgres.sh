#!/bin/sh
# The PostgreSQL tests run a throwaway cluster of Debian's PostgreSQL server (initdb, pg_ctl).
# Prints the folder of its binaries; installs the `postgresql` package when it is missing and we
# may (as test/ensure-chromium.sh does for Chromium); otherwise says how.
set -e
find_bin() {
  if [ -n "$POSTGRES_BIN" ] && [ -x "$POSTGRES_BIN/initdb" ]; then echo "$POSTGRES_BIN"; return 0; fi
  for dir in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -t/ -k5 -n -r); do
    [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ] && { echo "$dir"; return 0; }
  done
  command -v initdb >/dev/null 2>&1 && { dirname "$(command -v initdb)"; return 0; }
  return 1
}
find_bin && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "ensure-postgres: installing postgresql with apt-get" >&2
  apt-get install -y postgresql >/dev/null 2>&1 || { apt-get update >/dev/null 2>&1 && apt-get install -y postgresql >/dev/null; }
elif command -v sudo >/dev/null && command -v apt-get >/dev/null; then
  echo "ensure-postgres: installing postgresql with sudo apt-get" >&2
  sudo apt-get install -y postgresql >/dev/null
else
  echo "ensure-postgres: initdb not found; install PostgreSQL (Debian: apt-get install -y postgresql), set POSTGRES_BIN to its bin folder, or run only the SQLite tests with VOTELIST_TEST_BACKENDS=sqlite" >&2
  exit 1
fi
find_bin
