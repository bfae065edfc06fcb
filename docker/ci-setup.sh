#!/usr/bin/env bash
# Makes a Docker engine and the Dockerfile's base image available on a machine that reaches
# no container registry (our CI): installs Debian's docker.io, starts dockerd with its data
# under a temporary directory, and builds the base image the Dockerfile names (node:20-bookworm-slim)
# from a Debian root file system (debootstrap) plus this machine's own Node binary and npm.
# The Dockerfile itself stays the one real users build against the real image.
#
# Idempotent: a dockerd that already answers is reused, an image already present is kept, and the
# root file system is cached between runs (TOPICS_DOCKER_CACHE). Every wait has a timeout.
# A dockerd started here is left running for the session; docker/ci-teardown.sh stops it.
#
# Environment:
#   DOCKER_HOST            engine to use (default unix:///var/run/docker.sock)
#   TOPICS_DOCKER_CACHE    where the base root file system tarball is cached (default /var/tmp/topics-emulator-docker)
#   TOPICS_DOCKERD_ARGS    extra dockerd flags (for example "--iptables=false --bridge=none")
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export DOCKER_HOST="${DOCKER_HOST:-unix:///var/run/docker.sock}"
cache_dir="${TOPICS_DOCKER_CACHE:-/var/tmp/topics-emulator-docker}"
state_file="/tmp/topics-emulator-dockerd.state"

log() { printf '[ci-setup] %s\n' "$*" >&2; }
fail() { printf '[ci-setup] FAILED: %s\n' "$*" >&2; exit 1; }

apt_updated=no
apt_install() {
  if [ "$(id -u)" != 0 ]; then fail "need root to apt-get install $*"; fi
  if [ "$apt_updated" = no ]; then
    timeout 300 apt-get update -q >/dev/null || fail "apt-get update"
    apt_updated=yes
  fi
  DEBIAN_FRONTEND=noninteractive timeout 600 apt-get install -y -q --no-install-recommends "$@" >/dev/null \
    || fail "apt-get install $*"
}

docker_answers() { timeout 10 docker info >/dev/null 2>&1; }

# --- 1. the engine -------------------------------------------------------------------------
if ! command -v dockerd >/dev/null 2>&1 || ! command -v docker >/dev/null 2>&1; then
  log "installing Debian's docker.io"
  apt_install docker.io
fi

if docker_answers; then
  log "reusing the Docker engine at $DOCKER_HOST"
else
  case "$DOCKER_HOST" in
    unix://*) socket="${DOCKER_HOST#unix://}" ;;
    *) fail "DOCKER_HOST=$DOCKER_HOST does not answer and is not a local socket this script can serve" ;;
  esac
  [ "$(id -u)" = 0 ] || fail "need root to start dockerd"
  # An engine this script started earlier and that has since died (its session ended) left its
  # temporary directory and mounts: clear them first.
  if [ -f "$state_file" ]; then bash "$repo_root/docker/ci-teardown.sh" || true; fi
  # A temporary root keeps images and containers out of /var/lib/docker; a short path keeps
  # containerd's socket path under the 108-byte limit of unix sockets.
  run_dir="$(mktemp -d /tmp/te-dockerd.XXXXXX)"
  log "starting dockerd (data under $run_dir, log $run_dir/dockerd.log)"
  # shellcheck disable=SC2086 # TOPICS_DOCKERD_ARGS is a list of flags on purpose
  setsid dockerd \
    --data-root "$run_dir/data" \
    --exec-root "$run_dir/exec" \
    --pidfile "$run_dir/dockerd.pid" \
    -H "unix://$socket" \
    ${TOPICS_DOCKERD_ARGS:-} \
    >"$run_dir/dockerd.log" 2>&1 </dev/null &
  dockerd_pid=$!
  printf 'pid=%s\ndir=%s\nsocket=%s\n' "$dockerd_pid" "$run_dir" "$socket" >"$state_file"
  deadline=$((SECONDS + 60))
  until docker_answers; do
    if ! kill -0 "$dockerd_pid" 2>/dev/null; then
      tail -n 30 "$run_dir/dockerd.log" >&2 || true
      fail "dockerd exited during start (log above)"
    fi
    if [ "$SECONDS" -ge "$deadline" ]; then
      tail -n 30 "$run_dir/dockerd.log" >&2 || true
      fail "dockerd did not answer 'docker info' within 60 s"
    fi
    sleep 1
  done
  log "dockerd $dockerd_pid is up"
fi

# --- 2. the base image ---------------------------------------------------------------------
# The Dockerfile's base images: every FROM that does not name an earlier stage.
mapfile -t base_images < <(awk '
  toupper($1) == "FROM" {
    image = $2; for (i = 3; i <= NF; i++) if (toupper($i) == "AS") stage[$(i + 1)] = 1
    if (!(image in stage) && !(image in seen)) { seen[image] = 1; print image }
  }' "$repo_root/Dockerfile")
[ "${#base_images[@]}" -gt 0 ] || fail "no FROM image found in $repo_root/Dockerfile"

node_bin="$(readlink -f "$(command -v node)")"
node_version="$(node --version)"
npm_dir="$(npm root -g 2>/dev/null)/npm"
[ -f "$npm_dir/bin/npm-cli.js" ] || fail "npm not found at $npm_dir"

# Mirror and keyring as this machine's apt uses them, so debootstrap goes where apt-get goes.
debian_mirror() {
  local uri=""
  if [ -f /etc/apt/sources.list.d/debian.sources ]; then
    uri="$(awk '/^URIs:/ { print $2; exit }' /etc/apt/sources.list.d/debian.sources)"
  fi
  if [ -z "$uri" ] && [ -f /etc/apt/sources.list ]; then
    uri="$(awk '$1 == "deb" && $0 !~ /security/ { print ($2 ~ /^\[/ ? $3 : $2); exit }' /etc/apt/sources.list)"
  fi
  printf '%s' "$uri"
}

build_rootfs_tarball() { # $1 suite, $2 output tarball
  local suite="$1" out="$2" root
  command -v debootstrap >/dev/null 2>&1 || { log "installing debootstrap"; apt_install debootstrap; }
  root="$(mktemp -d /tmp/te-rootfs.XXXXXX)"
  log "debootstrap --variant=minbase $suite (about a minute)"
  # shellcheck disable=SC2046 # an empty mirror means debootstrap's own default
  timeout 900 debootstrap --variant=minbase "$suite" "$root/fs" $(debian_mirror) >"$root/debootstrap.log" 2>&1 \
    || { tail -n 20 "$root/debootstrap.log" >&2; rm -rf "$root"; fail "debootstrap $suite"; }
  # Slim it the way the official -slim images are: no package cache, lists, docs or locales.
  rm -rf "$root/fs/var/cache/apt/"* "$root/fs/var/lib/apt/lists/"* "$root/fs/usr/share/doc/"* \
    "$root/fs/usr/share/man/"* "$root/fs/usr/share/locale/"* "$root/fs/usr/share/info/"* "$root/fs/var/log/"*
  # Node and npm where the official image has them.
  install -D -m 0755 "$node_bin" "$root/fs/usr/local/bin/node"
  mkdir -p "$root/fs/usr/local/lib/node_modules"
  cp -a "$npm_dir" "$root/fs/usr/local/lib/node_modules/npm"
  ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$root/fs/usr/local/bin/npm"
  ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$root/fs/usr/local/bin/npx"
  # The npm CA file this machine uses (the registry may sit behind this machine's own CA).
  local cafile
  cafile="$(npm config get cafile 2>/dev/null || true)"
  mkdir -p "$root/fs/usr/local/etc"
  : >"$root/fs/usr/local/etc/npmrc"
  if [ -n "$cafile" ] && [ "$cafile" != null ] && [ -f "$cafile" ]; then
    install -D -m 0644 "$cafile" "$root/fs$cafile"
    printf 'cafile=%s\n' "$cafile" >>"$root/fs/usr/local/etc/npmrc"
  fi
  printf 'update-notifier=false\nfund=false\naudit=false\n' >>"$root/fs/usr/local/etc/npmrc"
  # The official image's unprivileged user: node, uid and gid 1000.
  printf 'node:x:1000:\n' >>"$root/fs/etc/group"
  printf 'node:x:1000:1000::/home/node:/bin/bash\n' >>"$root/fs/etc/passwd"
  printf 'node:*:19000:0:99999:7:::\n' >>"$root/fs/etc/shadow"
  install -d -o 1000 -g 1000 "$root/fs/home/node"
  tar -C "$root/fs" --numeric-owner -cf "$out.partial" . || { rm -rf "$root"; fail "tar of the root file system"; }
  mv "$out.partial" "$out"
  rm -rf "$root"
}

for image in "${base_images[@]}"; do
  if timeout 30 docker image inspect "$image" >/dev/null 2>&1; then
    log "base image $image is present"
    continue
  fi
  case "$image" in
    node:*-bookworm-slim|node:*-bookworm) suite=bookworm ;;
    node:*-bullseye-slim|node:*-bullseye) suite=bullseye ;;
    *) fail "cannot stand in for base image $image (only node:*-bookworm[-slim] and node:*-bullseye[-slim])" ;;
  esac
  wanted_major="${image#node:}"; wanted_major="${wanted_major%%-*}"; wanted_major="${wanted_major%%.*}"
  host_major="${node_version#v}"; host_major="${host_major%%.*}"
  if [ "$wanted_major" != "$host_major" ]; then
    log "warning: $image stands in with this machine's Node $node_version (major $host_major, not $wanted_major)"
  fi
  mkdir -p "$cache_dir"
  tarball="$cache_dir/rootfs-$suite-node-$node_version.tar"
  if [ ! -f "$tarball" ]; then
    build_rootfs_tarball "$suite" "$tarball"
  else
    log "reusing cached root file system $tarball"
  fi
  log "importing $tarball as $image"
  timeout 300 docker import \
    --change "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
    --change "ENV NODE_VERSION=${node_version#v}" \
    --change 'CMD ["node"]' \
    --change 'LABEL org.opencontainers.image.description="local stand-in built by docker/ci-setup.sh"' \
    --message "local stand-in for $image: Debian $suite minbase + Node $node_version" \
    "$tarball" "$image" >/dev/null || fail "docker import $image"
done

# --- 3. a smoke test: the engine runs a container from the base image ---------------------------
timeout 60 docker run --rm "${base_images[0]}" node -e 'process.exit(0)' >/dev/null \
  || fail "docker run ${base_images[0]} node failed"
log "ready: $(docker version --format 'engine {{.Server.Version}}, client {{.Client.Version}}') at $DOCKER_HOST; base images: ${base_images[*]}"
