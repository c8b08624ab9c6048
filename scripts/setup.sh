#!/usr/bin/env bash
# Sets plumb up on a Debian machine with Node 20: the language servers' system packages,
# the npm packages, and the build. Safe to run again: it skips what is already there.
#   scripts/setup.sh          what serving needs
#   scripts/setup.sh --test   also the real code the test suite runs on (googletest, flask, ...) and PostgreSQL
# The Dockerfile runs this same script, so the image is what the tests exercise.
set -euo pipefail
cd "$(dirname "$0")/.."

with_tests=0
for arg in "$@"; do
  case "$arg" in
    --test) with_tests=1 ;;
    *) echo "setup.sh: unknown option '$arg' (allowed: --test)" >&2; exit 2 ;;
  esac
done

# System packages: clangd for C/C++, gopls and the go command it runs for Go.
packages=()
command -v clangd-19 >/dev/null 2>&1 || command -v clangd >/dev/null 2>&1 || packages+=(clangd-19)
command -v gopls >/dev/null 2>&1 || packages+=(gopls)
command -v go >/dev/null 2>&1 || packages+=(golang-go)
if [ "$with_tests" = 1 ]; then
  [ -f /usr/src/googletest/CMakeLists.txt ] || packages+=(googletest)
  [ -d /usr/lib/python3/dist-packages/flask ] || packages+=(python3-flask)
  command -v ctags >/dev/null 2>&1 || packages+=(universal-ctags)
  command -v cmake >/dev/null 2>&1 || packages+=(cmake)
  # PostgreSQL for the shared-store tests: they start their own cluster (initdb, pg_ctl) in a temporary directory.
  compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || packages+=(postgresql)
  # Real sources for the syntax layer's recall tests (see test/syntax/).
  while read -r pkg path; do
    [ -z "$pkg" ] || [ "${pkg:0:1}" = "#" ] || [ -e "$path" ] || packages+=("$pkg")
  done < scripts/test-corpora.txt
fi
if [ "${#packages[@]}" -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then as_root=(); elif command -v sudo >/dev/null 2>&1; then as_root=(sudo); else
    echo "setup.sh: need root (or sudo) to install: ${packages[*]}" >&2; exit 1
  fi
  echo "setup.sh: installing ${packages[*]}"
  "${as_root[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
fi

# npm packages, only when package-lock.json changed since the last install (better-sqlite3 compiles).
stamp=node_modules/.plumb-setup-stamp
lock_sum=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$lock_sum" ]; then
  npm ci --no-audit --no-fund
  echo "$lock_sum" > "$stamp"
fi

# tap builds its plugin set once: ours drops @tapjs/typescript (tests run through tsx, since
# TypeScript 7 has no JavaScript compiler API for ts-node).
if [ "$with_tests" = 1 ] && [ "$(cat node_modules/.plumb-tap-stamp 2>/dev/null)" != "$lock_sum" ]; then
  npx tap build >/dev/null
  echo "$lock_sum" > node_modules/.plumb-tap-stamp
fi

npm run build --silent
echo "setup.sh: ready ($(node dist/src/cli.js --version))"
