#!/bin/bash
# `parl reward` on an Arrow IPC file and stream with the engine of this checkout against a baseline
# build, alternated in the same run, 3 rounds: wall seconds and peak RSS per run; the outputs are
# compared byte for byte at the end.
#
#   BASELINE=/path/to/old/packages/cli DIR=/path/to/folder packages/io/bench/arrow-against-baseline.sh
#
# BASELINE is a folder holding an older build's bin/ and dist/ (its dependencies resolvable from
# there); DIR holds rollouts.arrow and rollouts.arrows (packages/cli/bench/label.mjs writes
# rollouts.arrow; `tableToIPC(tableFromIPC(bytes), 'stream')` turns it into a stream).
set -eu
cli="$(cd "$(dirname "$0")/../../cli" && pwd)"
: "${BASELINE:?a folder with the bin/ and dist/ of the baseline build}" "${DIR:?a folder with rollouts.arrow and rollouts.arrows}"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
for round in 1 2 3; do
  for build in baseline new; do
    bin="$cli/bin/parl.js"; [ "$build" = baseline ] && bin="$BASELINE/bin/parl.js"
    for ext in arrow arrows; do
      s=$(date +%s.%N); /usr/bin/time -f %M -o "$out/rss" node "$bin" reward --in "$DIR/rollouts.$ext" --out "$out/$build.$ext" 2>/dev/null; e=$(date +%s.%N)
      echo "$round $build .$ext $(echo "$e - $s" | bc) s $(( $(cat "$out/rss") / 1024 )) MiB"
    done
  done
done
for ext in arrow arrows; do cmp "$out/baseline.$ext" "$out/new.$ext" && echo "outputs identical (.$ext)"; done
