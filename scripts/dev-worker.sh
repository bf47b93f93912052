#!/usr/bin/env bash
# `npm run dev:worker`: the Worker in local workerd, quiet and offline (toolchain.md). Plain HTTP is
# allowed on loopback; NERDGRAPH_URL (e.g. the simulator's) is passed through when set.
set -euo pipefail
cd "$(dirname "$0")/.."
export WRANGLER_SEND_METRICS=false WRANGLER_SEND_ERROR_REPORTS=false CLOUDFLARE_CF_FETCH_ENABLED=false
export WRANGLER_HIDE_BANNER=true XDG_CONFIG_HOME="${XDG_CONFIG_HOME:-$PWD/.wrangler/config}"
vars=(--var ALLOW_HTTP:true)
if [ -n "${NERDGRAPH_URL:-}" ]; then vars+=(--var "NERDGRAPH_URL:$NERDGRAPH_URL"); fi
exec npx wrangler dev --local --port "${PORT:-8787}" --ip "${HOST:-127.0.0.1}" "${vars[@]}" "$@"
