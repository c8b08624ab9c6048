#!/bin/bash
# The official postgres image's entrypoint, in short: as root, make PGDATA the postgres user's and run as that user;
# on a first start (no PG_VERSION), initdb with POSTGRES_USER and POSTGRES_PASSWORD (scram-sha-256 for TCP, trust
# on the local socket), create POSTGRES_DB, run /docker-entrypoint-initdb.d/*.sql and *.sh; then postgres in the
# foreground on every interface, with the arguments given (`-c hba_file=...`).
set -Eeuo pipefail
if [ "${1:0:1}" = - ]; then set -- postgres "$@"; fi
if [ "$1" = postgres ] && [ "$(id -u)" = 0 ]; then
  install -d -o postgres -g postgres -m 700 "$PGDATA"
  install -d -o postgres -g postgres -m 3777 /var/run/postgresql
  exec gosu postgres "$BASH_SOURCE" "$@"
fi
if [ "$1" = postgres ] && [ ! -s "$PGDATA/PG_VERSION" ]; then
  if [ -z "${POSTGRES_PASSWORD:-}" ] && [ "${POSTGRES_HOST_AUTH_METHOD:-}" != trust ]; then
    echo 'postgres: POSTGRES_PASSWORD must be set (or POSTGRES_HOST_AUTH_METHOD=trust)' >&2; exit 1
  fi
  user=${POSTGRES_USER:-postgres}
  db=${POSTGRES_DB:-$user}
  method=${POSTGRES_HOST_AUTH_METHOD:-scram-sha-256}
  initdb -D "$PGDATA" --username="$user" --pwfile=<(printf '%s\n' "${POSTGRES_PASSWORD:-}") --auth-local=trust --auth-host="$method"
  printf '\nhost all all all %s\n' "$method" >> "$PGDATA/pg_hba.conf"
  shift
  pg_ctl -D "$PGDATA" -o "-c listen_addresses='' $(printf '%q ' "$@")" -w start
  if [ "$db" != postgres ]; then psql -v ON_ERROR_STOP=1 --username "$user" --dbname postgres -c "CREATE DATABASE \"$db\""; fi
  for f in /docker-entrypoint-initdb.d/*; do
    case "$f" in
      *.sql) psql -v ON_ERROR_STOP=1 --username "$user" --dbname "$db" -f "$f" ;;
      *.sh) . "$f" ;;
    esac
  done
  pg_ctl -D "$PGDATA" -m fast -w stop
  set -- postgres "$@"
fi
if [ "$1" = postgres ]; then shift; exec postgres -c listen_addresses='*' "$@"; fi
exec "$@"
