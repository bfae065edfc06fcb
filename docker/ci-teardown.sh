#!/usr/bin/env bash
# Stops the dockerd that docker/ci-setup.sh started (if any) and removes its temporary data.
# A dockerd this script did not start is left alone.
set -euo pipefail

state_file="/tmp/topics-emulator-dockerd.state"
[ -f "$state_file" ] || { echo "[ci-teardown] no dockerd started by ci-setup.sh" >&2; exit 0; }
pid="$(sed -n 's/^pid=//p' "$state_file")"
dir="$(sed -n 's/^dir=//p' "$state_file")"

# The pid must still be a dockerd: after a restart the number may belong to something else.
if [ -n "$pid" ] && [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = dockerd ]; then
  # Containers first, so dockerd's shutdown does not wait on them.
  ids="$(timeout 20 docker ps -q 2>/dev/null || true)"
  # shellcheck disable=SC2086 # a list of ids
  [ -z "$ids" ] || timeout 60 docker rm -f $ids >/dev/null 2>&1 || true
  kill -TERM "$pid"
  for _ in $(seq 1 30); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
  if kill -0 "$pid" 2>/dev/null; then
    echo "[ci-teardown] dockerd $pid still running after 30 s; sending SIGKILL" >&2
    kill -KILL "$pid" 2>/dev/null || true
  fi
  echo "[ci-teardown] stopped dockerd $pid" >&2
fi
# Only our own temporary directory. A dockerd that was killed (the session ended) leaves its
# mounts behind: unmount them, deepest first, before removing anything.
case "$dir" in
  /tmp/te-dockerd.*)
    awk -v d="$dir/" 'index($2, d) == 1 || $2 "/" == d { print $2 }' /proc/mounts | sort -r | while read -r mount; do
      umount -l "$mount" 2>/dev/null || true
    done
    if ! awk -v d="$dir" 'index($2, d) == 1 { found = 1 } END { exit !found }' /proc/mounts; then
      rm -rf "$dir"
    else
      echo "[ci-teardown] mounts remain under $dir; kept" >&2
    fi
    ;;
esac
rm -f "$state_file"
