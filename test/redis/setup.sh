#!/usr/bin/env bash
# Makes `redis-server` available for `npm run test:redis`: Debian's redis-server package, installed
# when the command is missing (apt-get update once, then install; every step has a timeout).
# Idempotent: an installed redis-server is used as it is. The tests start their own servers on
# ephemeral ports without persistence (test/redis/redis-server.ts); nothing is left running.
set -euo pipefail

log() { printf '[redis-setup] %s\n' "$*" >&2; }
fail() { printf '[redis-setup] FAILED: %s\n' "$*" >&2; exit 1; }

if command -v redis-server >/dev/null 2>&1; then
  log "using $(redis-server --version | head -n 1)"
  exit 0
fi
[ "$(id -u)" = 0 ] || fail "redis-server is missing and installing it needs root (apt-get install redis-server)"
log "installing Debian's redis-server"
timeout 300 apt-get update -q >/dev/null || fail "apt-get update"
DEBIAN_FRONTEND=noninteractive timeout 600 apt-get install -y -q --no-install-recommends redis-server >/dev/null \
  || fail "apt-get install redis-server"
# The package starts a service where an init system runs; the tests need none of it.
if command -v service >/dev/null 2>&1; then service redis-server stop >/dev/null 2>&1 || true; fi
command -v redis-server >/dev/null 2>&1 || fail "redis-server not found after install"
log "installed $(redis-server --version | head -n 1)"
