#!/bin/sh
# EDID decoding throughput: `displayd edid --json` on every EDID of the shared corpus
# (200 files) in one call, whole process, median of repeated runs (hyperfine).
set -e
cd "$(dirname "$0")/.."
corpus=${CORPUS:-../shared/edid}
[ -d "$corpus" ] || { echo "edid benchmark: $corpus is absent, skipped"; exit 0; }
out=$(mktemp /tmp/displayd-edid-bench.XXXXXX)
trap 'rm -f "$out"' EXIT
hyperfine -N --warmup 5 --runs "${RUNS:-50}" --export-json "$out" \
  ".build/release/displayd edid --json $(ls "$corpus"/*.bin | tr '\n' ' ')" >/dev/null 2>&1
python3 - "$out" "$(ls "$corpus"/*.bin | wc -l)" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
n = int(sys.argv[2])
print("EDID decode, %d files in one call, %d runs: median %.2f ms, %.0f files/s (incl. process start)"
      % (n, len(r["times"]), r["median"] * 1e3, n / r["median"]))
PY
