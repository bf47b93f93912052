#!/usr/bin/env bash
# bench/install-wrk.sh: makes `wrk` (the load generator of bench:overhead, bench/load.ts) available when it
# is not: Debian's package through apt-get, as root or with password-less sudo. Exits 0 when wrk is there
# afterwards, 1 otherwise (the bench then falls back to autocannon in a child process). Quiet unless it
# installs.
set -uo pipefail
command -v wrk >/dev/null 2>&1 && exit 0
command -v apt-get >/dev/null 2>&1 || exit 1
if [ "$(id -u)" = 0 ]; then sudo=(); elif sudo -n true 2>/dev/null; then sudo=(sudo -n); else exit 1; fi
echo "bench: installing wrk (apt-get install wrk)" >&2
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q wrk >/dev/null 2>&1 ||
  { "${sudo[@]}" apt-get update -q >/dev/null 2>&1 &&
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q wrk >/dev/null 2>&1; }
command -v wrk >/dev/null 2>&1
