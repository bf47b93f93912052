#!/usr/bin/env bash
# `npm run dev:worker`: the Worker in local workerd, quiet and offline (no telemetry: the settings
# below), in front of the NerdGraph simulator and its v2 stand-in (forwarded calls), which it starts
# on SIM_PORT (8788) and stops on exit.
# `-- --real` talks to the real NerdGraph of REGION instead; NERDGRAPH_URL, when set, is used as
# given. Plain HTTP is allowed on loopback. Other arguments go to `wrangler dev`.
set -euo pipefail
cd "$(dirname "$0")/.."
export WRANGLER_SEND_METRICS=false WRANGLER_SEND_ERROR_REPORTS=false CLOUDFLARE_CF_FETCH_ENABLED=false
export WRANGLER_HIDE_BANNER=true XDG_CONFIG_HOME="${XDG_CONFIG_HOME:-$PWD/.wrangler/config}"
real=false
args=()
for a in "$@"; do
  if [ "$a" = "--real" ]; then real=true; else args+=("$a"); fi
done
vars=(--var ALLOW_HTTP:true)
if [ -z "${NERDGRAPH_URL:-}" ] && [ "$real" = false ]; then
  sim_port="${SIM_PORT:-8788}"
  SIM_PORT="$sim_port" npx tsx simulator/serve.ts &
  sim=$!
  trap 'kill "$sim" 2>/dev/null || true' EXIT INT TERM
  NERDGRAPH_URL="http://127.0.0.1:$sim_port/graphql"
  # The simulator's v2 stand-in answers the forwarded alerts calls too, as in the demo.
  V2_URL="${V2_URL:-http://127.0.0.1:$sim_port/v2}"
fi
if [ -n "${NERDGRAPH_URL:-}" ]; then vars+=(--var "NERDGRAPH_URL:$NERDGRAPH_URL"); fi
if [ -n "${V2_URL:-}" ]; then vars+=(--var "V2_URL:$V2_URL"); fi
npx wrangler dev --local --port "${PORT:-8787}" --ip "${HOST:-127.0.0.1}" "${vars[@]}" "${args[@]}"
