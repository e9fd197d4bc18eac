#!/bin/sh
# Finding ROOT without -C (walking up for clawmd.json or .git, never loading
# libgit2) against giving it: a no-op compose of the group of issue 11
# (scripts/bench-group.sh) run from inside the group directory, interleaved
# medians (bench/spawn.c).  Target: at most 5% more than with -C.
set -eu
build=${1:-build}
clawmd=$(cd "$build" && pwd)/clawmd
src=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/clawmd-bench-root.XXXXXX")
trap 'rm -rf "$work"' EXIT
${CC:-cc} -O2 -o "$work/spawn" "$src/bench/spawn.c"

R=$work/root
. "$src/scripts/bench-group.sh"
bench_group "$R" g
mkdir "$R/.git"
"$clawmd" compose -q -C "$R" g
cd "$R/groups/g"
set -- $("$work/spawn" ${BENCH_ROOT_RUNS:-1000} -- "$clawmd" compose -C "$R" g -- "$clawmd" compose g)
echo "finding ROOT (no-op compose from inside the group, median of interleaved runs)"
printf '  with -C ROOT            %8.3f ms   1.00x\n' "$(awk -v s="$1" 'BEGIN { print s * 1000 }')"
printf '  walking up for .git     %8.3f ms   %sx  (target: at most 1.05x)\n' \
	"$(awk -v s="$2" 'BEGIN { print s * 1000 }')" "$3"
printf '  system calls            %s with -C, %s walking up\n' \
	"$(strace -f -c -o /dev/stdout "$clawmd" compose -C "$R" g 2>/dev/null | awk '/total/ { print $4 }' || echo ?)" \
	"$(strace -f -c -o /dev/stdout "$clawmd" compose g 2>/dev/null | awk '/total/ { print $4 }' || echo ?)"
