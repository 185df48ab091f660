#!/bin/sh
# The official postgres image's contract, reduced: POSTGRES_USER, POSTGRES_PASSWORD, POSTGRES_DB, PGDATA,
# /docker-entrypoint-initdb.d/*.sql|*.sh on first start, then postgres as PID 1 under the postgres user.
set -eu
: "${PGDATA:=/var/lib/postgresql/data}"
user=${POSTGRES_USER:-postgres}
db=${POSTGRES_DB:-$user}
as_pg() { setpriv --reuid=postgres --regid=postgres --init-groups "$@"; }
mkdir -p "$PGDATA" /var/run/postgresql
chown postgres:postgres "$PGDATA" /var/run/postgresql
chmod 700 "$PGDATA"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  pwfile=$(mktemp)
  printf '%s\n' "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD is required}" >"$pwfile"
  chown postgres "$pwfile"
  as_pg initdb -D "$PGDATA" -U "$user" --pwfile="$pwfile" -A scram-sha-256 --auth-local=trust >/dev/null
  rm -f "$pwfile"
  echo "listen_addresses = '*'" >>"$PGDATA/postgresql.conf"
  echo "host all all all scram-sha-256" >>"$PGDATA/pg_hba.conf"
  as_pg pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
  [ "$db" = postgres ] || as_pg psql -q -U "$user" -d postgres -c "CREATE DATABASE \"$db\""
  for f in /docker-entrypoint-initdb.d/*; do
    case "$f" in
      *.sql) as_pg psql -q -v ON_ERROR_STOP=1 -U "$user" -d "$db" -f "$f" ;;
      *.sh) . "$f" ;;
    esac
  done
  as_pg pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
fi
if [ "$1" = postgres ]; then exec setpriv --reuid=postgres --regid=postgres --init-groups "$@"; fi
exec "$@"
