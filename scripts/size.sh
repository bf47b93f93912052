#!/usr/bin/env bash
# `npm run size`: the size of exactly what `wrangler deploy` uploads as configured in wrangler.toml
# (minify = true), from an offline dry run, gzipped as wrangler reports it. Goal: under 60 KiB.
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
  const goal = 60, budget = 80;
  console.log(`worker upload: ${raw} KiB, ${gz} KiB gzipped (goal ${goal} KiB, budget ${budget} KiB)`);
  if (gz > goal) console.log(`over the ${goal} KiB goal by ${(gz - goal).toFixed(1)} KiB`);
  if (gz > budget) process.exit(1);
' "$line"
