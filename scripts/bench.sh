#!/bin/sh
# make bench: whole-process timings, printed as ratios side by side.
#  1. no-op compose of one group (50 skills, 10 MCP servers) vs. starting and
#     exiting a trivial C program: the per-spawn cost clawmd adds;
#  2. compose --all over 10,000 groups (first run writes, second is a no-op);
#  3. the render and migrate cases, when their scripts exist.
set -eu
build=${1:-build}
clawmd=$build/clawmd
src=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/clawmd-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

ms() { awk -v s="$1" 'BEGIN { printf "%8.3f ms", s * 1000 }'; }

printf 'int main(void) { return 0; }\n' >"$work/true.c"
${CC:-cc} -O2 -o "$work/true" "$work/true.c"
${CC:-cc} -O2 -o "$work/spawn" "$src/bench/spawn.c"

R=$work/root
mkdir -p "$R/container" "$R/skills" "$R/groups/g"
echo "# base" >"$R/container/CLAUDE.md"
i=0
servers=
while [ $i -lt 50 ]; do
	mkdir -p "$R/skills/skill$i"
	echo "skill $i" >"$R/skills/skill$i/instructions.md"
	i=$((i + 1))
done
i=0
while [ $i -lt 10 ]; do
	servers="$servers${servers:+, }\"srv$i\": {\"command\": \"x\", \"instructions\": \"Server $i: use it @./x.md.\"}"
	i=$((i + 1))
done
echo "{\"skills\": \"all\", \"mcpServers\": {$servers}}" >"$R/groups/g/container.json"
"$clawmd" compose -C "$R" g

# Interleaved runs, medians: a drifting load on the machine cannot favour
# either side (bench/spawn.c).
set -- $("$work/spawn" 1000 -- "$work/true" -- "$clawmd" compose -C "$R" g)
echo "per-spawn compose (whole process, median of 1000 interleaved runs)"
printf '  trivial C program       %s   1.00x\n' "$(ms "$1")"
printf '  no-op compose 50+10     %s   %sx  (target: within 2x)\n' "$(ms "$2")" "$3"
cp -a "$R/groups/g" "$R/groups/c"
"$clawmd" compose -C "$R" --mode copy c
set -- $("$work/spawn" 300 -- "$work/true" -- "$clawmd" compose -C "$R" --mode copy c)
printf '  no-op compose, copy     %s   %sx\n' "$(ms "$2")" "$3"

# 10,000 groups.
A=$work/fleet
mkdir -p "$A/container" "$A/skills" "$A/groups"
echo "# base" >"$A/container/CLAUDE.md"
for s in alpha beta gamma; do mkdir -p "$A/skills/$s"; echo "$s" >"$A/skills/$s/instructions.md"; done
i=0
while [ $i -lt 10000 ]; do mkdir "$A/groups/g$i"; i=$((i + 1)); done
s1=$(date +%s%N)
"$clawmd" compose -C "$A" --all
s2=$(date +%s%N)
"$clawmd" compose -C "$A" --all
s3=$(date +%s%N)
echo "compose --all over 10,000 groups"
awk -v a="$s1" -v b="$s2" -v c="$s3" 'BEGIN {
	printf "  first run (writes)      %8.0f ms   %6.1f us/group\n", (b - a) / 1e6, (b - a) / 1e7
	printf "  second run (no-op)      %8.0f ms   %6.1f us/group\n", (c - b) / 1e6, (c - b) / 1e7 }'

for extra in "$src/scripts/bench-render.sh" "$src/scripts/bench-migrate.sh" "$src/scripts/bench-root.sh"; do
	[ -x "$extra" ] && "$extra" "$build"
done
exit 0
