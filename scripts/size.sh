#!/usr/bin/env bash
# `npm run size`: the size of exactly what `wrangler deploy` uploads as configured in wrangler.toml
# (minify = true), from an offline dry run, gzipped as wrangler reports it. Fails above the budget.
# The budget is v2bridge's own, far under Cloudflare's limits (3 MB gzipped on the free plan, 10 MB paid:
# developers.cloudflare.com/workers/platform/limits/): it keeps test-only, simulator and Node-only code
# out of the upload. It was 60 KiB; compare mode on Workers and a round of fidelity fixes brought
# the upload to about 66 KiB, so it was 70 KiB. Bounded upstream answers, compare's per-item noise and
# documented differences, read-your-writes and NRDB's rollup windows brought it to 73.8 KiB (all of
# them Worker code, none test- or Node-only: `npm run lint` checks the import graph), so it was 76 KiB.
# Full NRQL pages completed, the answer-shape check, NRQL answers shared across callers and
# `links.alert_policy` brought it to 78.7 KiB (Worker code again, no dependency), so it was 80 KiB.
# Shared answers across a data center's isolates (the Cache API store), `last_reported_at` from the
# newest Transaction event and the upstream attempt's own abort brought it to 80.5 KiB, so it is 84 KiB.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export WRANGLER_SEND_METRICS=false WRANGLER_SEND_ERROR_REPORTS=false CLOUDFLARE_CF_FETCH_ENABLED=false
export WRANGLER_HIDE_BANNER=true XDG_CONFIG_HOME="${XDG_CONFIG_HOME:-$out/config}"
report=$(npx wrangler deploy --dry-run --outdir "$out/dist" 2>&1) || { echo "$report"; exit 1; }
line=$(grep -E 'Total Upload: .* gzip: ' <<<"$report") || { echo "$report"; exit 1; }
echo "$line"
node -e '
  const m = /Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/.exec(process.argv[1]);
  const [raw, gz] = [Number(m[1]), Number(m[2])];
  const budget = 84;
  console.log(`worker upload: ${raw} KiB, ${gz} KiB gzipped (budget ${budget} KiB)`);
  if (gz > budget) {
    console.log(`over the ${budget} KiB budget by ${(gz - budget).toFixed(1)} KiB`);
    process.exit(1);
  }
' "$line"
