#!/usr/bin/env bash
# The owner API from a shell, with nothing but curl (plus grep/sed to read the answers):
# register, log out, log in, list a server, create an API key, set a webhook and a Votifier v2
# target, and read them back.
#
#   test/owner/curl-flow.sh [BASE_URL]        (default http://localhost:8080)
#
# Environment: EMAIL, PASSWORD, SERVER_NAME, SERVER_HOST, WEBHOOK_URL, VOTIFIER_HOST,
# VOTIFIER_PORT. The webhook and Votifier targets must resolve to public addresses unless the
# site runs with network.allow_private_targets = true.
set -euo pipefail

BASE="${1:-http://localhost:8080}"
EMAIL="${EMAIL:-owner-$RANDOM@example.com}"
PASSWORD="${PASSWORD:-correct horse battery staple}"
SERVER_NAME="${SERVER_NAME:-Curl Valley}"
SERVER_HOST="${SERVER_HOST:-play.example.com}"
WEBHOOK_URL="${WEBHOOK_URL:-https://hooks.example.com/votelist}"
VOTIFIER_HOST="${VOTIFIER_HOST:-$SERVER_HOST}"
VOTIFIER_PORT="${VOTIFIER_PORT:-8192}"

JAR="$(mktemp)"
trap 'rm -f "$JAR"' EXIT

# req METHOD PATH EXPECTED_STATUS [JSON_BODY] — sets BODY; stops the script on any other status.
req() {
  local method="$1" path="$2" expected="$3" data="${4:-}"
  local args=(-sS -X "$method" -b "$JAR" -c "$JAR" -w '\n%{http_code}')
  if [ -n "$data" ]; then args+=(-H 'Content-Type: application/json' --data-binary "$data"); fi
  local out
  out="$(curl "${args[@]}" "$BASE$path")"
  local status="${out##*$'\n'}"
  BODY="${out%$'\n'*}"
  if [ "$status" != "$expected" ]; then
    echo "FAILED: $method $path answered $status (expected $expected): $BODY" >&2
    exit 1
  fi
}

# field NAME — the string value of "NAME" in BODY (the answers here hold each name once).
field() {
  printf '%s' "$BODY" | sed -n "s/.*\"$1\":\"\([^\"]*\)\".*/\1/p"
}

# JSON strings from the environment: escape backslashes and quotes.
quote() {
  printf '"%s"' "$(printf '%s' "$1" | sed 's/\\/\\\\/g; s/"/\\"/g')"
}

req POST /api/v1/auth/register 201 "{\"email\":$(quote "$EMAIL"),\"password\":$(quote "$PASSWORD")}"
echo "registered: $(field email)"
req POST /api/v1/auth/logout 200
req GET /api/v1/me 401
req POST /api/v1/auth/login 200 "{\"email\":$(quote "$EMAIL"),\"password\":$(quote "$PASSWORD")}"
echo "logged in: $(field email)"

req POST /api/v1/me/servers 201 "{\"name\":$(quote "$SERVER_NAME"),\"host\":$(quote "$SERVER_HOST")}"
SLUG="$(field slug)"
echo "server: $SLUG"

req POST "/api/v1/me/servers/$SLUG/keys" 201 '{"name":"curl"}'
echo "key: $(field key)"

req PUT "/api/v1/me/servers/$SLUG/webhook" 200 "{\"url\":$(quote "$WEBHOOK_URL")}"
echo "webhook secret: $(field secret)"

req PUT "/api/v1/me/servers/$SLUG/votifier" 200 "{\"host\":$(quote "$VOTIFIER_HOST"),\"port\":$VOTIFIER_PORT,\"protocol\":\"v2\"}"
echo "votifier line: $(field configLine)"

req GET "/api/v1/me/servers/$SLUG" 200
echo "read back server: $BODY"
req GET "/api/v1/me/servers/$SLUG/keys" 200
echo "read back keys: $BODY"
