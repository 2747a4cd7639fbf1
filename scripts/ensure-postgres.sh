#!/bin/sh
# The tests keep intake clients and the audit trail in a real PostgreSQL, as production does (testing/database.ts),
# and the production topology runs one: Debian's package. Installs it when it is missing; does nothing otherwise.
# CI runs it before `npm test`.
set -eu

if ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
  echo "PostgreSQL: $(ls -d /usr/lib/postgresql/*/bin/postgres | head -n 1)"
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-postgres: no PostgreSQL and no apt-get; install PostgreSQL (/usr/lib/postgresql/<version>/bin)" >&2
  exit 1
fi
sudo=''
if [ "$(id -u)" -ne 0 ]; then sudo='sudo'; fi
$sudo apt-get update -qq
$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql
ls -d /usr/lib/postgresql/*/bin/postgres
