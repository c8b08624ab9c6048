#!/usr/bin/env bash
# npm run test:container: plumb's image built from the Dockerfile and run, then compose.yaml (not in `npm test`: it
# takes minutes). With docker where a daemon answers, else podman (scripts/container/engine.sh).
#   1. build: the checkout (CONTEXT, default this one) with the host's npm settings as build secrets (an npmrc with
#      its registry, proxy and cafile, and nodedir=/usr/local), then check that none of it stayed in the image;
#   2. run it as the README says, on a copy of a small real workspace (WORKSPACE, default googletest), and check:
#      /health, a search with the Bearer token, 401 without it and with a wrong one, the process running as `node`,
#      the image's healthcheck passing, the index in the cache volume;
#   3. compose.yaml (PostgreSQL, a hot standby, the writer, a replica on each): every plumb healthy and answering,
#      401 without the token, the standby's replica streaming with its lag in /status, an edit of the workspace
#      answered by the standby's replica.
# Base images: node:20-bookworm and postgres:15-bookworm must be pullable or present; where no registry answers,
# scripts/container/base-images.sh makes them (BASE_IMAGES=1 runs it first when they are missing).
# KEEP=1 leaves the containers running; COMPOSE=0 skips step 3. Figures (build time, first /health) are printed.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=engine.sh
. "$repo/scripts/container/engine.sh"
CONTEXT=${CONTEXT:-$repo}
WORKSPACE=${WORKSPACE:-/usr/src/googletest}
QUERY=${QUERY:-TestEventListener}
PORT=${PORT:-17077}
IMAGE=localhost/plumb:test
NAME=plumb-test
VOLUME=plumb-test-cache
work=$CONTAINER_WORK/test
mkdir -p "$work"

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
failures=0
check() { # label got want
  if [ "$2" = "$3" ]; then echo "ok   $1 ($2)"; else echo "FAIL $1: got '$2', want '$3'"; failures=$((failures + 1)); fi
}
http() { curl -s -o /dev/null -w '%{http_code}' "$@" || true; }
wait_http() { # url [header...]: polls until 200, at most 120 s
  local url=$1; shift
  for _ in $(seq 1 480); do [ "$(http "$@" "$url")" = 200 ] && return 0; sleep 0.25; done
  return 1
}
wait_ready() { # port token: until /status says the index is ready, at most 300 s
  for _ in $(seq 1 600); do
    curl -s -H "Authorization: Bearer $2" "http://127.0.0.1:$1/status" | grep -q '"state":"ready"' && return 0
    sleep 0.5
  done
  return 1
}
json() { node -e 'let s="";process.stdin.on("data",(d)=>s+=d).on("end",()=>{const v=new Function("j","return "+process.argv[1])(JSON.parse(s));console.log(typeof v==="object"?JSON.stringify(v):v)})' "$1"; }

echo "engine: $ENGINE ($("$ENGINE" --version)); context $CONTEXT; workspace $WORKSPACE"
for base in docker.io/library/node:20-bookworm docker.io/library/postgres:15-bookworm; do
  if ! engine image inspect "$base" >/dev/null 2>&1 && ! engine pull -q "$base" >/dev/null 2>&1; then
    if [ "${BASE_IMAGES:-0}" = 1 ]; then "$repo/scripts/container/base-images.sh"; break; fi
    echo "no $base and none to pull: run scripts/container/base-images.sh (or BASE_IMAGES=1 $0)" >&2; exit 1
  fi
done

# 1. Build, with the host's npm settings as build secrets.
secrets=()
{ echo "nodedir=/usr/local"
  for key in registry proxy https-proxy noproxy strict-ssl; do
    value=$(npm config get "$key" 2>/dev/null || true)
    [ -n "$value" ] && [ "$value" != null ] && [ "$value" != undefined ] && echo "$key=$value"
  done
  cafile=$(npm config get cafile 2>/dev/null || true)
  if [ -n "$cafile" ] && [ "$cafile" != null ] && [ "$cafile" != undefined ] && [ -f "$cafile" ]; then
    echo "cafile=/run/secrets/npm-ca"
    secrets+=(--secret "id=npm-ca,src=$cafile")
  fi
} > "$work/npmrc"
secrets+=(--secret "id=npmrc,src=$work/npmrc")
echo "build-time npm settings: $(tr '\n' ' ' < "$work/npmrc")"
started=$(now)
# shellcheck disable=SC2046
if ! engine build $(build_flags) "${secrets[@]}" -t "$IMAGE" "$CONTEXT" > "$work/build.log" 2>&1; then
  tail -40 "$work/build.log"; echo "FAIL the image did not build (log: $work/build.log)"; exit 1
fi
build_s=$(since "$started")
echo "built $IMAGE in ${build_s} s ($(engine image inspect "$IMAGE" --format '{{.Size}}' | awk '{ printf "%.2f GB", $1 / 1e9 }'))"
check "no build setting in the image's environment" "$(engine image inspect "$IMAGE" --format '{{range .Config.Env}}{{println .}}{{end}}' | grep -ci 'npm_config\|npmrc\|cafile\|NODE_EXTRA_CA' || true)" 0
check "no build secret left in the image" "$(engine run --rm --entrypoint sh "$IMAGE" -c 'ls /run/secrets 2>/dev/null | wc -l; npm config get cafile' 2>/dev/null | tr '\n' ' ')" "0 null "

# 2. Run it as the README does, on a copy of the workspace (read-only inside).
cleanup_run() { engine rm -f "$NAME" >/dev/null 2>&1 || true; engine volume rm -f "$VOLUME" >/dev/null 2>&1 || true; }
cleanup_run
rm -rf "$work/workspace" && cp -r "$WORKSPACE" "$work/workspace"
TOKEN=$(openssl rand -hex 24)
started=$(now)
engine run -d --name "$NAME" -p "127.0.0.1:$PORT:7077" -e PLUMB_TOKEN="$TOKEN" \
  -v "$work/workspace:/workspace:ro" -v "$VOLUME:/cache" "$IMAGE" >/dev/null 2> >(grep -v 'systemd connection' >&2)
base="http://127.0.0.1:$PORT"
wait_http "$base/health" || { engine logs "$NAME" | tail -20; }
health_s=$(since "$started")
check "/health" "$(http "$base/health")" 200
wait_ready "$PORT" "$TOKEN" || echo "FAIL the index was not ready in 300 s"
ready_s=$(since "$started")
echo "first /health ${health_s} s after start, index ready after ${ready_s} s"
auth=(-H "Authorization: Bearer $TOKEN")
check "/symbols with the token" "$(http "${auth[@]}" "$base/symbols?query=$QUERY&limit=5")" 200
check "its first result" "$(curl -s "${auth[@]}" "$base/symbols?query=$QUERY&limit=5" | json 'j.results[0].name')" "$QUERY"
check "/symbols without a token" "$(http "$base/symbols?query=$QUERY")" 401
check "/symbols with a wrong token" "$(http -H 'Authorization: Bearer wrong-token-wrong-token' "$base/symbols?query=$QUERY")" 401
check "/mcp without a token" "$(http -X POST "$base/mcp")" 401
check "the process's user" "$(engine exec "$NAME" id -un):$(engine exec "$NAME" id -u)" node:1000
check "PID 1's user" "$(engine exec "$NAME" sh -c 'stat -c %U /proc/1')" node
if [ "$ENGINE" = podman ]; then
  # Without systemd podman runs no healthcheck timer: run the image's check once.
  hc=0; engine healthcheck run "$NAME" >/dev/null 2>&1 || hc=$?
  check "the image's healthcheck" "$hc" 0
fi
for _ in $(seq 1 120); do
  [ "$(engine inspect "$NAME" --format '{{.State.Health.Status}}')" = healthy ] && break; sleep 1
done
check "health status" "$(engine inspect "$NAME" --format '{{.State.Health.Status}}')" healthy
check "the index in the cache volume" "$(engine exec "$NAME" sh -c 'find /cache -name index.sqlite -size +100k | wc -l')" 1
echo "cache volume: $(engine exec "$NAME" sh -c 'du -sh /cache' | cut -f1)"
[ "${KEEP:-0}" = 1 ] || cleanup_run

# 3. compose.yaml: PostgreSQL, a hot standby, the writer and two replicas, on the image just built.
if [ "${COMPOSE:-1}" = 1 ]; then
  project=plumb-test
  export PLUMB_IMAGE=$IMAGE PLUMB_TOKEN=$TOKEN WORKSPACE=$work/workspace
  down() { (cd "$CONTEXT" && compose -p "$project" down -v) >/dev/null 2>&1 || true; }
  down
  started=$(now)
  if ! (cd "$CONTEXT" && compose -p "$project" up -d) > "$work/compose.log" 2>&1; then
    tail -30 "$work/compose.log"; echo "FAIL compose up (log: $work/compose.log)"; exit 1
  fi
  for port in 7077 7078 7079; do
    wait_ready "$port" "$TOKEN" || { echo "FAIL 127.0.0.1:$port was not ready in 300 s"; failures=$((failures + 1)); }
  done
  echo "compose: every plumb ready $(since "$started") s after up"
  for port in 7077 7078 7079; do
    check "compose $port /health" "$(http "http://127.0.0.1:$port/health")" 200
    check "compose $port /symbols with the token" "$(curl -s -H "Authorization: Bearer $TOKEN" "http://127.0.0.1:$port/symbols?query=$QUERY&limit=3" | json 'j.results[0].name')" "$QUERY"
    check "compose $port /symbols without a token" "$(http "http://127.0.0.1:$port/symbols?query=$QUERY")" 401
  done
  status=$(curl -s -H "Authorization: Bearer $TOKEN" http://127.0.0.1:7079/status)
  check "the standby's replica reads a streaming standby" "$(echo "$status" | json 'j.store.replication && j.store.replication.streaming')" true
  echo "replica-2 /status store: $(echo "$status" | json 'j.store')"
  check "replica-1 reads the primary" "$(curl -s -H "Authorization: Bearer $TOKEN" http://127.0.0.1:7078/status | json 'j.store.replication === undefined')" true
  # An edit of the workspace, answered by the standby's replica.
  mkdir -p "$work/workspace/probe"
  printf 'class ComposeStandbyProbe {\n public:\n  int Ping();\n};\n' > "$work/workspace/probe/compose_probe.h"
  started=$(now); seen=
  for _ in $(seq 1 240); do
    [ "$(curl -s -H "Authorization: Bearer $TOKEN" "http://127.0.0.1:7079/symbols?query=ComposeStandbyProbe&match=exact" | json 'j.results && j.results.length')" = 1 ] && { seen=1; break; }
    sleep 0.25
  done
  check "an edit answered by the standby's replica" "${seen:-0}" 1
  echo "edit to the standby's replica: $(since "$started") s"
  for service in db standby writer replica-1 replica-2; do
    container=$(engine ps --format '{{.Names}}' | grep -E "^${project}[_-]${service}[_-]1$" | head -1)
    if [ "$ENGINE" = podman ]; then
      hc=0; engine healthcheck run "$container" >/dev/null 2>&1 || hc=$?
      check "compose $service healthcheck" "$hc" 0
    else
      check "compose $service health" "$(engine inspect "$container" --format '{{.State.Health.Status}}')" healthy
    fi
  done
  [ "${KEEP:-0}" = 1 ] || down
fi

echo
echo "figures: build ${build_s} s, first /health ${health_s} s after start, index ready ${ready_s} s ($ENGINE)"
if [ "$failures" -gt 0 ]; then echo "$failures check(s) FAILED"; exit 1; fi
echo "every check passed"
