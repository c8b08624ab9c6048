# Sourced by the container scripts: picks the engine and sets it up.
#   docker   when a Docker daemon answers (`docker info`);
#   podman   otherwise (Debian's podman needs no daemon). Its settings for this kind of machine go into a
#            containers.conf of our own (CONTAINERS_CONF), never into the system's:
#            - runtime runc: crun 1.8 (Debian 12) refuses a host with hybrid cgroups (v1 plus a v2 mount), runc copes;
#            - default ulimits no higher than this shell's hard limits: root without CAP_SYS_RESOURCE (a container
#              or VM) cannot raise them, and podman's defaults (nofile 1048576) make the runtime's setrlimit fail;
#            - cgroupfs and file events: no systemd to talk to.
# Exports ENGINE (docker|podman), CONTAINER_WORK (state of these scripts, default ${TMPDIR:-/tmp}/plumb-container),
# and defines engine(), compose() and build_flags() (the flags a build needs: image format, no pulling, build-time mounts).
# shellcheck shell=bash

CONTAINER_WORK=${CONTAINER_WORK:-${TMPDIR:-/tmp}/plumb-container}
mkdir -p "$CONTAINER_WORK"

if [ -z "${ENGINE:-}" ]; then
  if command -v docker >/dev/null 2>&1 && docker info >/dev/null 2>&1; then ENGINE=docker
  elif command -v podman >/dev/null 2>&1; then ENGINE=podman
  else
    echo "no container engine: neither a Docker daemon answering nor podman (apt-get install podman)" >&2
    exit 1
  fi
fi
export ENGINE CONTAINER_WORK

if [ "$ENGINE" = podman ] && [ -z "${CONTAINERS_CONF:-}" ]; then
  nofile=$(ulimit -Hn); nproc=$(ulimit -Hu)
  [ "$nofile" = unlimited ] && nofile=1048576
  [ "$nproc" = unlimited ] && nproc=32768
  # conmon itself wants no more than 32768 processes.
  [ "$nproc" -gt 32768 ] && nproc=32768
  runtime=crun
  command -v runc >/dev/null 2>&1 && runtime=runc
  cat > "$CONTAINER_WORK/containers.conf" <<CONF
[containers]
default_ulimits = ["nofile=$nofile:$nofile", "nproc=$nproc:$nproc"]

[engine]
runtime = "$runtime"
cgroup_manager = "cgroupfs"
events_logger = "file"
CONF
  export CONTAINERS_CONF="$CONTAINER_WORK/containers.conf"
fi

engine() { "$ENGINE" "$@"; }

# podman: the docker image format keeps HEALTHCHECK (OCI configs have none); base images are local, never pulled.
build_flags() {
  if [ "$ENGINE" = podman ]; then printf '%s\n' --format docker --pull=never; else printf '%s\n' --pull=false; fi
}

compose() {
  if [ "$ENGINE" = docker ] && docker compose version >/dev/null 2>&1; then docker compose "$@"
  elif command -v podman-compose >/dev/null 2>&1; then podman-compose "$@"
  else echo "no compose: install docker compose, or podman-compose (apt-get install podman-compose)" >&2; return 1
  fi
}
