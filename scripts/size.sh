#!/usr/bin/env bash
# `npm run size`: the Worker's minified, gzipped size as wrangler would deploy it (offline dry run).
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export WRANGLER_SEND_METRICS=false WRANGLER_SEND_ERROR_REPORTS=false CLOUDFLARE_CF_FETCH_ENABLED=false
export WRANGLER_HIDE_BANNER=true XDG_CONFIG_HOME="${XDG_CONFIG_HOME:-$out/config}"
npx wrangler deploy --dry-run --minify --outdir "$out/dist" 2>&1 | grep -E 'Total Upload|gzip' || true
node -e '
  const fs = require("fs"), zlib = require("zlib"), path = require("path");
  const dir = process.argv[1];
  let raw = 0, gz = 0;
  for (const f of fs.readdirSync(dir)) {
    if (!/\.(m?js)$/.test(f)) continue;
    const b = fs.readFileSync(path.join(dir, f));
    raw += b.length; gz += zlib.gzipSync(b, { level: 9 }).length;
  }
  console.log(`worker bundle: ${(raw / 1024).toFixed(1)} KiB minified, ${(gz / 1024).toFixed(1)} KiB gzipped (budget 80 KiB)`);
  if (gz > 80 * 1024) process.exit(1);
' "$out/dist"
