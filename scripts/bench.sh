#!/bin/sh
# make bench: each figure beside its target (issue 11), from interleaved runs
# in this one invocation.  Wall times on a shared machine drift, so next to
# them: system call counts (strace -f -c) and instruction counts (callgrind),
# which do not.
#  1. no-op compose of one group (50 skills, 3 modules, 10 MCP servers) as a
#     whole process, symlink and copy mode, against a trivial C program;
#  2. the same no-op through the library, in-process and warm;
#  3. compose --all over 10,000 groups: first pass and no-op pass;
#  4. check --all and status over 1,000 groups;
#  5. the render and migrate cases, when their scripts exist, finding ROOT,
#     and the Node package in-process (scripts/bench-node.sh; PEER=DIR, a
#     nanoclaw checkout, adds nanoclaw's own composer beside it).
set -eu
build=${1:-build}
clawmd=$build/clawmd
src=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/clawmd-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
CC=${CC:-cc}
SPAWNS=${SPAWNS:-1000}

ms() { awk -v s="$1" 'BEGIN { printf "%8.3f ms", s * 1000 }'; }
has() { command -v "$1" >/dev/null 2>&1; }
# syscalls CMD...: the system calls CMD makes, with its children.
syscalls() {
	if has strace; then
		strace -f -c -o "$work/strace" "$@" >/dev/null 2>&1 || true
		awk '$NF == "total" { print $4 }' "$work/strace"
	else
		echo "n/a"
	fi
}
# instructions CMD...: user-space instructions executed (callgrind), loader included.
instructions() {
	if has valgrind; then
		valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
			awk '/Collected/ { print $NF }'
	else
		echo "n/a"
	fi
}

printf 'int main(void) { return 0; }\n' >"$work/true.c"
$CC -O2 -o "$work/true" "$work/true.c"
$CC -O2 -o "$work/spawn" "$src/bench/spawn.c"

# The group of issue 11: 50 skills, 3 modules, 10 MCP servers; g is
# composed in symlink mode, c in copy mode.
R=$work/root
. "$src/scripts/bench-group.sh"
bench_group "$R" g
cp -a "$R/groups/g" "$R/groups/c"
# Configured as a host is, in clawmd.json (whose parse compose keeps in
# ROOT/.clawmd/layout), the mode given per group on the command line.
echo '{"modules": "modules", "approve_external": true}' >"$R/clawmd.json"
touch -d '-1 minute' "$R/clawmd.json"
sym="$clawmd compose -C $R --mode symlink g"
cpy="$clawmd compose -C $R --mode copy c"
$sym && $cpy
# A no-op records what it verified only for inputs older than itself
# (lib/compose/record.c); the group was just written, so let it age once.
sleep 1
$sym && $cpy

echo "1. per-spawn no-op compose, whole process (median of $SPAWNS interleaved runs each)"
echo "   group: 50 skills, 3 modules, 10 MCP servers"
set -- $("$work/spawn" "$SPAWNS" -- "$work/true" -- $sym)
t_true=$1
printf '   trivial C program      %s   1.00x                   %4s syscalls\n' \
	"$(ms "$1")" "$(syscalls "$work/true")"
printf '   symlink mode           %s   %sx (target <= 1.10x)  %4s syscalls (target <= 80)\n' \
	"$(ms "$2")" "$3" "$(syscalls $sym)"
set -- $("$work/spawn" "$SPAWNS" -- "$work/true" -- $cpy)
printf '   copy mode              %s   %sx (target <= 1.10x)  %4s syscalls (target <= 120)\n' \
	"$(ms "$2")" "$3" "$(syscalls $cpy)"
# The same runs by the full program, which the static front (build/clawmd)
# stands in for here: what the front saves.
full=$build/libexec/clawmd/clawmd
for m in "symlink g" "copy c"; do
	set -- $("$work/spawn" "$SPAWNS" -- "$work/true" -- "$full" compose -C "$R" --mode $m)
	printf '   %-7s mode, the full program (dynamic, no front)   %sx   %4s syscalls\n' \
		"${m% *}" "$3" "$(syscalls "$full" compose -C "$R" --mode $m)"
done
if has valgrind; then
	a=$(instructions "$work/true")
	b=$(instructions $sym)
	c=$(instructions $cpy)
	echo "   instructions (callgrind, user space incl. the dynamic loader):"
	awk -v a="$a" -v b="$b" -v c="$c" 'BEGIN {
		printf "     trivial %d, symlink mode %d (%.2fx), copy mode %d (%.2fx)\n", a, b, b / a, c, c / a }'
fi

echo "2. no-op compose through the library (clawmd_compose in-process, warm; 2000 calls)"
echo "   plain: no pass, the record verified by stats at every call; watched: one"
echo "   long-lived clawmd_pass_watch() pass, the no-op decided from inotify events"
# percall GROUP MODE [watch]: system calls per clawmd_compose() call (201 calls less 1).
percall() {
	a=$(syscalls "$build/bench/compose" "$R" "$1" 1 "$2" ${3:-})
	b=$(syscalls "$build/bench/compose" "$R" "$1" 201 "$2" ${3:-})
	case "$a$b" in
	*n/a*) echo "n/a" ;;
	*) awk -v a="$a" -v b="$b" 'BEGIN { printf "%.1f", (b - a) / 200 }' ;;
	esac
}
# floor GROUP MODE: the system calls of one plain no-op alone, replayed
# (bench/floor.c) from its trace: the last compose of a run of one call.
floor() {
	has strace || { echo "n/a n/a n/a"; return; }
	strace -o "$work/floor.tr" "$build/bench/compose" "$R" "$1" 1 "$2" >/dev/null 2>&1 || true
	awk -v g="groups/$1\"" 'index($0, g) && /^openat/ {n = NR} {l[NR] = $0}
		END {for (i = n; i <= NR; i++) if (l[i] !~ /^(write|exit|ioctl)|^newfstatat\(1,/) print l[i]}' \
		"$work/floor.tr" >"$work/floor.calls"
	"$build/bench/floor" "$work/floor.calls" 2000 2>/dev/null || echo "n/a n/a n/a"
}
for m in "g symlink" "c copy"; do
	grp=${m% *} mode=${m#* }
	for w in "" floor watch; do
		if [ "$w" = floor ]; then
			# Right after the plain run: the same calls, nothing between.
			set -- $(floor $grp $mode)
			printf '   %-7s mode, floor    median %7.1f us   p90 %7.1f us   (its %s system calls alone, replayed)\n' \
				"$mode" "$1" "$2" "$3"
			continue
		fi
		set -- $("$build/bench/compose" "$R" $grp 2000 $mode $w)
		printf '   %-7s mode, %-7s  median %7.1f us   p90 %7.1f us   (target <= 50 us)   %5s syscalls/call\n' \
			"$mode" "${w:-plain}" "$1" "$2" "$(percall $grp $mode $w)"
	done
done

# 3. 10,000 groups sharing a base and three skills.
A=$work/fleet
mkdir -p "$A/container" "$A/skills" "$A/groups"
echo "# base" >"$A/container/CLAUDE.md"
for s in alpha beta gamma; do mkdir -p "$A/skills/$s"; echo "$s" >"$A/skills/$s/instructions.md"; done
i=0
while [ $i -lt 10000 ]; do mkdir "$A/groups/g$i"; i=$((i + 1)); done
now() { date +%s%N; }
s1=$(now)
"$clawmd" compose -C "$A" -q --all
s2=$(now)
sleep 1
"$clawmd" compose -C "$A" -q --all # the no-op that records
runs=
for k in 1 2 3; do
	a=$(now)
	"$clawmd" compose -C "$A" -q --all
	runs="$runs $(($(now) - a))"
done
noop_calls=$(syscalls "$clawmd" compose -C "$A" -q --all)
echo "3. compose --all over 10,000 groups (symlink mode)"
awk -v a="$s1" -v b="$s2" 'BEGIN {
	printf "   first pass (writes)    %8.0f ms   %7.1f us/group   (target <= 2500 us/group)\n", (b - a) / 1e6, (b - a) / 1e7 }'
echo "$runs" | tr ' ' '\n' | sed '/^$/d' | sort -n | awk -v n="$noop_calls" 'NR == 2 {
	printf "   no-op pass (median/3)  %8.0f ms   %7.1f us/group   (target <= 150 us/group)   %s syscalls/group\n",
		$1 / 1e6, $1 / 1e7, n == "n/a" ? n : sprintf("%.1f", n / 10000) }'

# 4. check --all and status over 1,000 groups (the first 1,000 above).
F=$work/fleet1k
mkdir -p "$F/groups"
cp -a "$A/container" "$A/skills" "$F/"
i=0
while [ $i -lt 1000 ]; do cp -a "$A/groups/g$i" "$F/groups/"; i=$((i + 1)); done
echo "4. check --all and status over 1,000 groups (median of 3 runs each, interleaved)"
c_runs= s_runs=
for k in 1 2 3; do
	a=$(now); "$clawmd" check -C "$F" --all >/dev/null 2>&1 || true; c_runs="$c_runs $(($(now) - a))"
	a=$(now); "$clawmd" status -C "$F" -q >/dev/null 2>&1 || true; s_runs="$s_runs $(($(now) - a))"
done
for w in "check --all:$c_runs" "status:$s_runs"; do
	echo "${w#*:}" | tr ' ' '\n' | sed '/^$/d' | sort -n | awk -v w="${w%%:*}" 'NR == 2 {
		printf "   %-22s %8.0f ms   %7.1f us/group   (target <= 500 us/group)\n", w, $1 / 1e6, $1 / 1e6 }'
done

for extra in "$src/scripts/bench-render.sh" "$src/scripts/bench-migrate.sh" "$src/scripts/bench-root.sh" \
	"$src/scripts/bench-node.sh"; do
	[ -x "$extra" ] && "$extra" "$build"
done
exit 0
