#!/bin/sh
# The browser tests drive Debian's Chromium through playwright-core (never `playwright install`).
# Installs it when missing and we may; otherwise says how.
set -e
CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
[ -x "$CHROMIUM" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "ensure-chromium: installing chromium with apt-get" >&2
  apt-get install -y chromium >/dev/null 2>&1 || { apt-get update >/dev/null 2>&1 && apt-get install -y chromium >/dev/null; }
elif command -v sudo >/dev/null && command -v apt-get >/dev/null; then
  echo "ensure-chromium: installing chromium with sudo apt-get" >&2
  sudo apt-get install -y chromium >/dev/null
else
  echo "ensure-chromium: $CHROMIUM not found; install Chromium (Debian: apt-get install -y chromium) or set CHROMIUM_PATH" >&2
  exit 1
fi
