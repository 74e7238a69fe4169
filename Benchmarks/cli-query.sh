#!/bin/sh
# CLI query speed: `displayd --version`, `modes --json` and `outputs --json` against
# `xrandr --current` on the same private Xorg dummy server (16 outputs), whole process,
# median of repeated runs (hyperfine), with two floors built here: a C program that does
# nothing and a statically linked Swift hello world; then the binary's size and the shared
# objects each loads. Run through `make bench` (builds the release binary).
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

# The floors: any process start, and any statically linked Swift program's.
floors=""
if echo 'int main(void) { return 0; }' | cc -O2 -x c - -o "$dir/empty-c" 2>/dev/null; then
  floors="$dir/empty-c"
fi
echo 'print("hello")' >"$dir/hello.swift"
if ${SWIFTC:-swiftc} -O -static-stdlib "$dir/hello.swift" -o "$dir/hello-swift" >/dev/null 2>&1; then
  floors="$floors $dir/hello-swift"
fi

# In rounds, each command in turn, and the times of all rounds pooled: load from elsewhere on
# the machine then falls on every command alike, not on whichever ran while it lasted.
rounds=10
for round in $(seq $rounds); do
  # shellcheck disable=SC2086 # the floors are separate commands
  hyperfine -N --warmup 5 --runs $((runs / rounds)) --export-json "$dir/round$round.json" \
    "xrandr --current" $floors "$bin --version" "$bin modes --json" "$bin outputs --json" "$bin modes --json DUMMY0" \
    >/dev/null 2>&1
done
python3 - "$dir" $rounds <<'PY'
import json, sys
rounds = [json.load(open("%s/round%d.json" % (sys.argv[1], i + 1)))["results"] for i in range(int(sys.argv[2]))]
results = []
for i, first in enumerate(rounds[0]):
    times = sorted(t for r in rounds for t in r[i]["times"])
    results.append({"command": first["command"], "times": times, "median": times[len(times) // 2],
                    "mean": sum(times) / len(times)})
base = results[0]["median"]
print("CLI query, whole process, Xorg dummy server with 16 outputs (4 active), %d runs each in %s rounds"
      % (len(results[0]["times"]), sys.argv[2]))
print("%-36s %10s %10s %8s" % ("command", "median ms", "mean ms", "vs xrandr"))
for r in results:
    name = r["command"].replace(".build/release/", "")
    name = {"empty-c": "floor: C int main() {}", "hello-swift": "floor: static Swift hello"}.get(name.split("/")[-1], name)
    print("%-36s %10.2f %10.2f %7.2fx" % (name, r["median"] * 1e3, r["mean"] * 1e3, r["median"] / base))
modes = next(r for r in results if r["command"].endswith("modes --json"))["median"] / base
print("goal: modes --json <= 0.8x xrandr --current: %s (%.2fx)" % ("met" if modes <= 0.8 else "NOT met", modes))
PY
# Shared objects loaded (the dynamic loader's own count, dlopen included).
loaded() { LD_DEBUG=libs "$@" 2>&1 >/dev/null | grep -c 'calling init:'; }
printf "shared objects loaded: xrandr --current %s, displayd modes --json %s; displayd binary %s MB\n" \
  "$(loaded xrandr --current)" "$(loaded $bin modes --json)" \
  "$(python3 -c "import os,sys; print('%.1f' % (os.path.getsize(sys.argv[1]) / 1048576))" $bin)"
