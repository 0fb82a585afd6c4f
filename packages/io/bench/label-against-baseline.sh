#!/bin/bash
# `parl reward` / `parl critical-steps` (1 and 2 threads) with the engine of this checkout against
# a baseline build, alternated in the same run, 3 rounds, wall seconds per run; the outputs are
# compared byte for byte at the end.
#
#   BASELINE=/path/to/old/packages/cli IN=/path/to/rollouts.jsonl packages/io/bench/label-against-baseline.sh
#
# BASELINE is a folder holding an older build's bin/ and dist/ (its dependencies resolvable from
# there); IN a JSONL file (packages/cli/bench/label.mjs writes one: rollouts.jsonl).
set -eu
cli="$(cd "$(dirname "$0")/../../cli" && pwd)"
: "${BASELINE:?a folder with the bin/ and dist/ of the baseline build}" "${IN:?a JSONL file of records}"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
for round in 1 2 3; do
  for build in baseline new; do
    bin="$cli/bin/parl.js"; [ "$build" = baseline ] && bin="$BASELINE/bin/parl.js"
    for cmd in "reward" "reward --threads 2" "critical-steps" "critical-steps --threads 2"; do
      s=$(date +%s.%N); node "$bin" $cmd --in "$IN" --out "$out/$build.jsonl" 2>/dev/null; e=$(date +%s.%N)
      echo "$round $build $cmd $(echo "$e - $s" | bc)"
    done
  done
done
cmp "$out/baseline.jsonl" "$out/new.jsonl" && echo "outputs identical (critical-steps --threads 2)"
