#!/usr/bin/env bash
# Makes a Chromium exist for the browser suite (npm run test:browser): Debian's `chromium`
# package, installed the way docker/ci-setup.sh installs what it needs. Idempotent: a Chromium
# already on the machine (or named by CHROMIUM_PATH) is used as it is; otherwise `apt-get update`
# runs once and `apt-get install -y --no-install-recommends chromium`. Every step has a timeout.
# puppeteer-core drives it; no browser is downloaded from anywhere else.
set -euo pipefail

log() { printf '[browser-setup] %s\n' "$*" >&2; }
fail() { printf '[browser-setup] FAILED: %s\n' "$*" >&2; exit 1; }

found() {
  if [ -n "${CHROMIUM_PATH:-}" ]; then [ -x "$CHROMIUM_PATH" ] && echo "$CHROMIUM_PATH"; return; fi
  command -v chromium || command -v chromium-browser || true
}

if [ -n "$(found)" ]; then
  log "using $(found) ($(timeout 30 "$(found)" --version 2>/dev/null || echo 'version unknown'))"
  exit 0
fi
[ "$(id -u)" = 0 ] || fail "Chromium is missing and installing it needs root: apt-get install chromium (or set CHROMIUM_PATH)"
log "installing Debian's chromium"
timeout 300 apt-get update -q >/dev/null || fail "apt-get update"
DEBIAN_FRONTEND=noninteractive timeout 900 apt-get install -y -q --no-install-recommends chromium >/dev/null \
  || fail "apt-get install chromium"
[ -n "$(found)" ] || fail "chromium installed but not found on PATH"
log "installed $(found) ($(timeout 30 "$(found)" --version 2>/dev/null || echo 'version unknown'))"
