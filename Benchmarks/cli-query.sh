#!/bin/sh
# CLI query speed: `displayd --version`, `modes --json` and `outputs --json` against
# `xrandr --current` on the same private Xorg dummy server (16 outputs), whole process,
# median of repeated runs (hyperfine); then the binary's size and the shared objects each
# loads. Run through `make bench` (builds the release binary).
set -e
cd "$(dirname "$0")/.."
bin=.build/release/displayd
runs=${RUNS:-200}
dir=$(mktemp -d /tmp/displayd-bench.XXXXXX)
cp Tests/XRig/Resources/xorg-dummy.conf "$dir/xorg.conf"
mkfifo "$dir/displayfd"
Xorg -displayfd 5 -config "$dir/xorg.conf" -noreset -nolisten tcp -logfile "$dir/xorg.log" \
  5>"$dir/displayfd" >/dev/null 2>&1 &
server=$!
exec 6<"$dir/displayfd"
read -r number <&6
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$dir"' EXIT INT TERM
export DISPLAY=":$number"
# Three more outputs on, so the query has real work: 4 active CRTCs, 16 outputs.
x=2048
for i in 1 2 3; do
  xrandr --addmode DUMMY$i 1024x768
  xrandr --output DUMMY$i --mode 1024x768 --pos ${x}x0
  x=$((x + 1024))
done

hyperfine -N --warmup 20 --runs "$runs" --export-json "$dir/cli.json" \
  "xrandr --current" "$bin --version" "$bin modes --json" "$bin outputs --json" "$bin modes --json DUMMY0" >/dev/null 2>&1
python3 - "$dir/cli.json" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))["results"]
base = results[0]["median"]
print("CLI query, whole process, Xorg dummy server with 16 outputs (4 active), %d runs each" % len(results[0]["times"]))
print("%-36s %10s %10s %8s" % ("command", "median ms", "mean ms", "vs xrandr"))
for r in results:
    name = r["command"].replace(".build/release/", "")
    print("%-36s %10.2f %10.2f %7.2fx" % (name, r["median"] * 1e3, r["mean"] * 1e3, r["median"] / base))
modes = next(r for r in results if r["command"].endswith("modes --json"))["median"] / base
print("goal: modes --json <= 0.8x xrandr --current: %s (%.2fx)" % ("met" if modes <= 0.8 else "NOT met", modes))
PY
# Shared objects loaded (the dynamic loader's own count, dlopen included).
loaded() { LD_DEBUG=libs "$@" 2>&1 >/dev/null | grep -c 'calling init:'; }
printf "shared objects loaded: xrandr --current %s, displayd modes --json %s; displayd binary %s MB\n" \
  "$(loaded xrandr --current)" "$(loaded $bin modes --json)" \
  "$(python3 -c "import os,sys; print('%.1f' % (os.path.getsize(sys.argv[1]) / 1048576))" $bin)"
