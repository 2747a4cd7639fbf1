#!/bin/sh
# The console's browser tests (test/console) drive Chromium from Debian's packages through playwright-core:
# playwright's own browser download cannot work on these machines. Installs it when it is missing; does nothing
# otherwise. CI runs it before `npm test`.
set -eu

for path in /usr/bin/chromium /usr/bin/chromium-browser; do
  if [ -x "$path" ]; then
    echo "Chromium: $path ($("$path" --version 2>/dev/null || echo 'version unknown'))"
    exit 0
  fi
done

if ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-chromium: no Chromium and no apt-get; install Chromium at /usr/bin/chromium" >&2
  exit 1
fi
sudo=''
if [ "$(id -u)" -ne 0 ]; then sudo='sudo'; fi
$sudo apt-get update -qq
$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core
/usr/bin/chromium --version
