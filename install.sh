#!/bin/sh
# Installs or upgrades votelist as a systemd service:
#   $PREFIX/bin/votelist                      the binary (default prefix /usr/local)
#   /etc/votelist/votelist.toml               the configuration, written once and KEPT on upgrade
#   /var/lib/votelist                         the data folder (database), owned by `votelist`
#   /etc/systemd/system/votelist.service      a hardened unit, rewritten on every run
# and a `votelist` system user. Safe to run again: every step checks before it acts.
# With DESTDIR (or --destdir) everything lands under that folder and no user or service is
# touched, so packagers and tests can run it without root.
set -eu

usage() {
  cat <<'EOF'
Usage: install.sh [--binary FILE] [--prefix DIR] [--destdir DIR] [--wait SECONDS]

  --binary FILE   the votelist binary to install (default: dist/votelist beside this script,
                  else votelist beside this script)
  --prefix DIR    install the binary to DIR/bin (default: /usr/local)
  --destdir DIR   stage everything under DIR (same as the DESTDIR variable); skips creating the
                  user and touching systemd
  --wait SECONDS  after restarting a running service, wait at most this long for the new version
                  to answer its health check (default: 600, for migrations of a big database)
EOF
}

die() { echo "install.sh: $*" >&2; exit 1; }
say() { echo "install.sh: $*"; }

here=$(cd "$(dirname "$0")" && pwd)
PREFIX=/usr/local
DESTDIR=${DESTDIR:-}
BINARY=
WAIT=600
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) [ $# -ge 2 ] || { usage >&2; exit 2; }; PREFIX=$2; shift 2 ;;
    --prefix=*) PREFIX=${1#*=}; shift ;;
    --destdir) [ $# -ge 2 ] || { usage >&2; exit 2; }; DESTDIR=$2; shift 2 ;;
    --destdir=*) DESTDIR=${1#*=}; shift ;;
    --binary) [ $# -ge 2 ] || { usage >&2; exit 2; }; BINARY=$2; shift 2 ;;
    --binary=*) BINARY=${1#*=}; shift ;;
    --wait) [ $# -ge 2 ] || { usage >&2; exit 2; }; WAIT=$2; shift 2 ;;
    --wait=*) WAIT=${1#*=}; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "install.sh: unknown argument: $1" >&2; usage >&2; exit 2 ;;
  esac
done
case "$PREFIX" in /*) ;; *) die "--prefix must be an absolute path (got $PREFIX)" ;; esac
case "$WAIT" in ''|*[!0-9]*|0) echo "install.sh: --wait must be a number of seconds from 1 up (got $WAIT)" >&2; usage >&2; exit 2 ;; esac
PREFIX=${PREFIX%/}
if [ -n "$DESTDIR" ]; then
  mkdir -p "$DESTDIR"
  DESTDIR=$(cd "$DESTDIR" && pwd)
fi

if [ -z "$BINARY" ]; then
  if [ -f "$here/dist/votelist" ]; then BINARY=$here/dist/votelist; else BINARY=$here/votelist; fi
fi
[ -f "$BINARY" ] || die "no binary at $BINARY (build it with: bun run build)"
VERSION=$("$BINARY" version) || die "$BINARY does not run on this machine"

BINDIR=$PREFIX/bin
CONFDIR=/etc/votelist
CONFIG=$CONFDIR/votelist.toml
DATADIR=/var/lib/votelist
UNIT=/etc/systemd/system/votelist.service

# Only a real root install creates the user, sets owners and talks to systemd.
live=no
if [ -z "$DESTDIR" ] && [ "$(id -u)" = 0 ]; then live=yes; fi

# An upgrade keeps the admin's configuration: check first that the new version accepts it,
# before anything is replaced.
if [ -f "$DESTDIR$CONFIG" ]; then
  "$BINARY" config check --config "$DESTDIR$CONFIG" >/dev/null ||
    die "votelist $VERSION refuses $CONFIG (reason above); fix it and run install.sh again. Nothing was changed."
fi

# The binary: copied beside its target, then renamed over it, so a running service never sees
# a half-written file.
mkdir -p "$DESTDIR$BINDIR"
if ! cmp -s "$BINARY" "$DESTDIR$BINDIR/votelist"; then
  cp "$BINARY" "$DESTDIR$BINDIR/.votelist.new"
  chmod 0755 "$DESTDIR$BINDIR/.votelist.new"
  mv -f "$DESTDIR$BINDIR/.votelist.new" "$DESTDIR$BINDIR/votelist"
  say "installed $BINDIR/votelist ($VERSION)"
else
  say "$BINDIR/votelist is already $VERSION"
fi

if [ "$live" = yes ]; then
  if getent passwd votelist >/dev/null 2>&1; then
    say "user votelist exists"
  else
    command -v useradd >/dev/null || die "useradd not found: create a system user named votelist, then run install.sh again"
    useradd --system --user-group --home-dir "$DATADIR" --no-create-home --shell /usr/sbin/nologin --comment "votelist server list" votelist
    say "created system user votelist"
  fi
else
  say "skipped: creating the votelist user (not root, or DESTDIR set)"
fi

# The database holds password hashes and secrets: only the service user may read it.
mkdir -p "$DESTDIR$DATADIR"
chmod 0750 "$DESTDIR$DATADIR"
[ "$live" = yes ] && chown votelist:votelist "$DESTDIR$DATADIR"

mkdir -p "$DESTDIR$CONFDIR"
if [ -f "$DESTDIR$CONFIG" ]; then
  say "kept $CONFIG"
else
  "$BINARY" config example --database "$DATADIR/votelist.db" > "$DESTDIR$CONFIG.new"
  chmod 0640 "$DESTDIR$CONFIG.new"
  [ "$live" = yes ] && chown root:votelist "$DESTDIR$CONFIG.new"
  mv "$DESTDIR$CONFIG.new" "$DESTDIR$CONFIG"
  say "wrote $CONFIG (every key at its default; set site.base_url before going public)"
fi

mkdir -p "$DESTDIR$(dirname "$UNIT")"
cat > "$DESTDIR$UNIT.new" <<EOF
# Written by votelist's install.sh; rewritten on every upgrade. Local changes belong in a
# drop-in: systemctl edit votelist
[Unit]
Description=votelist, a Minecraft server list with vote rewards
Wants=network-online.target
After=network-online.target

[Service]
Type=simple
User=votelist
Group=votelist
ExecStart=$BINDIR/votelist serve --config $CONFIG
WorkingDirectory=$DATADIR
StateDirectory=votelist
StateDirectoryMode=0750
UMask=0027
# SIGTERM lets requests and jobs in flight finish and closes the database cleanly.
KillSignal=SIGTERM
TimeoutStopSec=60
Restart=on-failure
RestartSec=2
# 2 (bad usage), 77 (database or data folder not writable, a port below 1024) and 78 (bad configuration) do not go
# away by restarting; 74 (disk full) may, once space is freed.
RestartPreventExitStatus=2 77 78
LimitNOFILE=65536

# Hardening: the service may write only its data folder and has no privileges at all.
NoNewPrivileges=yes
ProtectSystem=strict
ReadWritePaths=$DATADIR
ProtectHome=yes
PrivateTmp=yes
PrivateDevices=yes
ProtectKernelTunables=yes
ProtectKernelModules=yes
ProtectKernelLogs=yes
ProtectControlGroups=yes
ProtectClock=yes
ProtectHostname=yes
ProtectProc=invisible
RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX AF_NETLINK
RestrictNamespaces=yes
RestrictRealtime=yes
RestrictSUIDSGID=yes
LockPersonality=yes
RemoveIPC=yes
PrivateMounts=yes
SystemCallArchitectures=native
# Verified by test/install/seccomp.test.ts: the binary serves, runs its commands and stops
# cleanly under exactly this filter. Narrowing it (~@privileged ~@resources) kills Bun.
SystemCallFilter=@system-service
SystemCallErrorNumber=EPERM
CapabilityBoundingSet=
AmbientCapabilities=
# MemoryDenyWriteExecute stays off: the JavaScript JIT needs writable executable memory.

[Install]
WantedBy=multi-user.target
EOF
chmod 0644 "$DESTDIR$UNIT.new"
mv -f "$DESTDIR$UNIT.new" "$DESTDIR$UNIT"
say "wrote $UNIT"

# The unit is Type=simple: `systemctl restart` returns once the process is started, before it has
# migrated the database and listened, and "active" means no more than that the process exists.
# Up = the new version answers its health check (`votelist health`: GET /api/v1/health on the
# configured address, answered only once migrations have run and the site listens) with its own
# version. Down = systemd gives up ("failed", "inactive"), restarts it a third time (it keeps
# failing: a port taken, a migration that fails), or $WAIT seconds pass (a big database's
# migrations take a while; a line every 30 s says what it waits for). With http.port = 0 there is
# no address to ask: up = "active" at 3 checks in a row, a second apart.
service_answers() {
  started=$(date +%s) was=active restarts=0 ups=0 told=0 checked=yes
  answer="it was never active"
  while :; do
    state=$(systemctl is-active votelist.service) || true
    case "$state" in
      active)
        answer=$("$BINDIR/votelist" health --config "$CONFIG" 2>&1) && rc=0 || rc=$?
        if [ $rc = 0 ]; then
          [ "$answer" != "$VERSION" ] || return 0
          answer="votelist $answer answers there, not $VERSION (another votelist on that port?)"
        elif [ $rc = 78 ] && case "$answer" in *"http.port is 0"*) true ;; *) false ;; esac; then
          checked=no ups=$((ups + 1))
          [ $ups -lt 3 ] || return 0
        fi ;;
      failed|inactive) why=stopped; return 1 ;;
      *)
        ups=0
        if [ "$was" = active ]; then restarts=$((restarts + 1)); fi
        if [ $restarts -ge 3 ]; then why=restarting; return 1; fi ;;
    esac
    was=$state
    waited=$(($(date +%s) - started))
    if [ $waited -ge "$WAIT" ]; then why=timeout; return 1; fi
    if [ $((waited / 30)) -gt $told ]; then
      told=$((waited / 30))
      say "waiting for votelist.service to answer its health check ($waited s of at most $WAIT; systemd says: $state): $answer"
    fi
    sleep 1
  done
}

if [ "$live" = yes ] && command -v systemctl >/dev/null && [ -d /run/systemd/system ]; then
  systemctl daemon-reload
  # Its own message says why (a masked unit, a read-only /etc): shown only when it fails.
  enabled=$(systemctl enable votelist.service 2>&1) ||
    die "systemctl enable votelist.service failed: $enabled
(see: systemctl status votelist.service)"
  if systemctl is-active --quiet votelist.service; then
    systemctl restart votelist.service
    journal="journalctl -u votelist.service -n 50"
    if ! service_answers; then
      case "$why" in
        stopped) die "votelist.service did not come back after the restart (systemd says: $state). See why: $journal" ;;
        restarting) die "votelist.service keeps failing after the restart: systemd restarted it $restarts times (it says: $state); last health check: $answer. See why: $journal" ;;
        *) die "votelist.service did not answer its health check within $WAIT s after the restart (systemd says: $state): $answer
If it is still migrating a big database it may yet come up (check: $BINDIR/votelist health --config $CONFIG; install.sh --wait SECONDS waits longer). See why: $journal" ;;
      esac
    fi
    if [ $checked = yes ]; then
      say "restarted votelist.service (migrations run at start); it answers its health check as votelist $VERSION"
    else
      say "restarted votelist.service (migrations run at start); not checked that it answers: http.port = 0 leaves no fixed address to ask"
    fi
  else
    say "enabled votelist.service; edit $CONFIG, then: systemctl start votelist"
  fi
else
  say "skipped: systemctl daemon-reload / enable (not root, DESTDIR set, or no systemd)"
fi
