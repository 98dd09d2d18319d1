#!/usr/bin/env bash
# The quick runs of the suites that say how cost grows (pool size, rule count, output size, file
# size), what an MCP call through the bridge costs over the SDK's own, and what a ToolSearch call
# costs over the ranking alone (and the ranker against its state when issue 19 was filed): each
# fails only past 3x its goal, so a regression of the worst kind fails CI while load on a shared
# machine does not.
# Needs `pnpm build` first (the suites import the packages' dist).
# Quick results go to bench/results/quick/ (gitignored): the committed figures stay the full run's.
set -uo pipefail
cd "$(dirname "$0")/.."
out="$(mktemp -d)"
log="$out/log.txt"
trap 'rm -rf "$out"' EXIT
pnpm --silent --filter @toolshed/bench bench fs_grep fs_glob fs_edit pipeline_growth cli_startup mcp_bridge search_latency --quick 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
passed=$(grep -c '^✓ done' "$log" || true)
failed=$(grep -c '^✗ failed' "$log" || true)
echo "bench gates: ${passed} passed, ${failed} failed"
exit "$status"
