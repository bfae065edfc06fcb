#!/usr/bin/env bash
# `npm run test:container`: a Docker engine and the base image (docker/ci-setup.sh), the image
# topics-emulator:test built from the Dockerfile as users build it, then the testcontainers tests.
# A dockerd this run started is stopped at the end (TOPICS_KEEP_DOCKERD=1 keeps it).
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo_root"
export DOCKER_HOST="${DOCKER_HOST:-unix:///var/run/docker.sock}"
# Ryuk (testcontainers' reaper) is an image from a registry this machine cannot reach; the
# tests stop their containers themselves.
export TESTCONTAINERS_RYUK_DISABLED="${TESTCONTAINERS_RYUK_DISABLED:-true}"
image="${TOPICS_EMULATOR_IMAGE:-topics-emulator:test}"
export TOPICS_EMULATOR_IMAGE="$image"

engine_was_running=no
timeout 10 docker info >/dev/null 2>&1 && engine_was_running=yes
stop_engine() {
  if [ "$engine_was_running" = no ] && [ "${TOPICS_KEEP_DOCKERD:-0}" != 1 ]; then bash docker/ci-teardown.sh || true; fi
}
trap stop_engine EXIT

if ! bash docker/ci-setup.sh; then
  echo "CONTAINER TESTS FAILED: no Docker engine could be prepared on this machine (see above)." >&2
  exit 1
fi

build_log="$(mktemp /tmp/topics-emulator-build.XXXXXX.log)"
started=$SECONDS
if ! timeout 900 docker build -t "$image" . >"$build_log" 2>&1; then
  tail -n 40 "$build_log" >&2
  echo "CONTAINER TESTS FAILED: docker build of $image failed (log: $build_log)" >&2
  exit 1
fi
echo "[test-container] built $image in $((SECONDS - started)) s: $(docker image inspect "$image" --format '{{.Size}}' | awk '{ printf "%.1f MB", $1 / 1e6 }')" >&2
rm -f "$build_log"

npx vitest run -c vitest.container.config.ts "$@"
