#!/bin/sh
# bench-node.sh [BUILD] - the Node package's speed figures (issue 19, part 4),
# in-process from Node, by bench/node.mjs against the package that make node
# staged in BUILD/node/package:
#  a. a watched handle's no-op compose of the group of issue 11 against the
#     least a JS composer must do for a no-op (read and parse container.json,
#     read CLAUDE.md), interleaved in one process; beside the wall times,
#     instructions per call (callgrind at two call counts, the difference);
#  b. the first compose of a fresh group in nanoclaw's layout, and, with
#     PEER=DIR (a nanoclaw checkout after npm install), nanoclaw's own
#     composer in the same process, interleaved;
#  c. the event loop's delay while composeAll() runs over 1,000 groups,
#     beside the same loop idle;
#  d. nanoclaw as it is now (its pull request 3536 on): the first compose
#     through clawmd/nanoclaw's composeGroupProjectDoc (the flat document)
#     and, with PEER=DIR a checkout holding src/project-doc-compose.ts,
#     nanoclaw's composer of that name beside it, and whether both wrote the
#     same bytes; the adapter's no-op (watched) and the same document's
#     no-op on a plain handle, in wall time and in instructions (callgrind,
#     as in a).  Without the adapter in the package, one line says so.
# NODE_CALLS, NODE_FIRST and NODE_GROUPS change the counts.
set -eu
build=${1:-build}
src=$(cd "$(dirname "$0")/.." && pwd)
pkg=$(cd "$build" && pwd)/node/package
bench="$src/bench/node.mjs"
node=${NODE:-node}
CALLS=${NODE_CALLS:-5000}
FIRST=${NODE_FIRST:-200}
GROUPS=${NODE_GROUPS:-1000}

echo "5. from Node: the clawmd package in-process ($($node --version 2>/dev/null || echo 'no node'))"
if ! command -v "$node" >/dev/null 2>&1; then
	echo "   skipped: no node on PATH (NODE=... names one)"
	exit 0
fi
if [ ! -f "$pkg/prebuilds/linux-x64/clawmd.node" ]; then
	echo "   skipped: no package staged in $pkg (make node, which needs Node's headers)"
	exit 0
fi
export CLAWMD_NODE_PKG="$pkg"
work=$(mktemp -d "${TMPDIR:-/tmp}/clawmd-bench-node.XXXXXX")
trap 'rm -rf "$work"' EXIT
. "$src/scripts/bench-group.sh"

# a. The group of issue 11 in the default layout (copy mode), as bench.sh has it.
R=$work/root
bench_group "$R" g
echo '{"modules": "modules"}' >"$R/clawmd.json"
echo "   a. no-op compose, warm ($CALLS calls each, interleaved; group: 50 skills, 3 modules, 10 MCP servers)"
$node "$bench" noop "$R" g "$CALLS"
if command -v valgrind >/dev/null 2>&1; then
	# instructions WHICH N: user-space instructions of the whole run.
	instructions() {
		valgrind --tool=callgrind --callgrind-out-file=/dev/null \
			$node "$bench" count "$R" g "$2" "$1" 2>&1 >/dev/null | awk '/Collected/ { print $NF }'
	}
	c1=$(instructions clawmd "$CALLS") c2=$(instructions clawmd $((CALLS * 2)))
	b1=$(instructions baseline "$CALLS") b2=$(instructions baseline $((CALLS * 2)))
	awk -v c1="$c1" -v c2="$c2" -v b1="$b1" -v b2="$b2" -v n="$CALLS" 'BEGIN {
		c = (c2 - c1) / n; b = (b2 - b1) / n
		printf "      instructions per call (callgrind, user space; %d calls less %d):\n", 2 * n, n
		printf "      clawmd %.0f, baseline %.0f: %.2fx the baseline (target <= 0.5x)\n", c, b, c / b }'
fi

# b. The same group in nanoclaw's layout: skills in container/skills, modules
# beside the agent runner's MCP tools; each group fresh (an empty directory
# and, for clawmd, its container.json; nanoclaw reads its config from its
# database, where the bench puts the same servers).
N=$work/nanoclaw
bench_group "$N" g
mkdir -p "$N/container/agent-runner/src"
mv "$N/skills" "$N/container/skills"
mv "$N/modules" "$N/container/agent-runner/src/mcp-tools"
mv "$N/groups/g/container.json" "$work/container.json"
rmdir "$N/groups/g"
cp -a "$N" "$work/flat"
cp -a "$N" "$work/flat.pristine" # for the tmpfs run of block d
# PEER's composer: 2.x's composeGroupClaudeMd (b) or, since nanoclaw's pull
# request 3536, its flat composeGroupProjectDoc (d); each block says which.
peer= peer20= peerflat=
if [ -n "${PEER:-}" ]; then
	peer=$(cd "$PEER" && pwd)
	[ -f "$peer/src/claude-md-compose.ts" ] && peer20=$peer
	[ -f "$peer/src/project-doc-compose.ts" ] && peerflat=$peer
fi
echo "   b. first compose of a fresh group, in-process (median of $FIRST groups each, interleaved)"
if [ -n "$peer" ] && [ -z "$peer20" ]; then
	echo "      ($peer has no src/claude-md-compose.ts: nanoclaw's flat composer is in d)"
fi
$node "$bench" first "$N" "$work/container.json" "$FIRST" $peer20

# c. 1,000 groups of the same configuration.
F=$work/fleet
mkdir -p "$F/groups"
cp -a "$R/container" "$R/skills" "$R/modules" "$R/clawmd.json" "$F/"
i=0
while [ $i -lt "$GROUPS" ]; do
	mkdir "$F/groups/g$i"
	cp "$work/container.json" "$F/groups/g$i/"
	i=$((i + 1))
done
echo "   c. composeAll() over $GROUPS groups: the main thread's event-loop delay (monitorEventLoopDelay)"
$node "$bench" loop "$F"

# d. nanoclaw as it is now: the same tree, the flat document.
echo "   d. nanoclaw now (flat document): clawmd/nanoclaw's composeGroupProjectDoc, in-process (first compose:"
echo "      median of $FIRST fresh groups each, interleaved; no-op: $CALLS calls each, interleaved)"
if [ -n "$peer" ] && [ -z "$peerflat" ]; then
	echo "      ($peer has no src/project-doc-compose.ts: no nanoclaw composer to set beside it)"
fi
NODE_CALLS=$CALLS $node "$bench" flat "$work/flat" "$work/container.json" "$FIRST" $peerflat
if command -v valgrind >/dev/null 2>&1 && grep -q composeGroupProjectDoc "$pkg/nanoclaw.js" 2>/dev/null; then
	# flat_instructions WHICH N [ONLY]: instructions of a run of N no-ops
	# after the warm-up, the whole process's or (ONLY, a function) those
	# under the addon's compose call alone (JS's compiler, working beside
	# it on its own schedule, moves the whole by a few thousand a call).
	flat_instructions() {
		rm -rf "$work/flat.count" && cp -a "$work/flat.pristine" "$work/flat.count"
		valgrind --tool=callgrind --callgrind-out-file=/dev/null \
			${3:+--collect-atstart=no --toggle-collect=$3} \
			$node "$bench" flatcount "$work/flat.count" "$work/container.json" "$2" "$1" 2>&1 >/dev/null |
			awk '/Collected/ { print $NF }'
	}
	# The adapter's whole count over 40,000 calls: over 2,000 the JIT's
	# own work moved it by thousands from run to run, over 40,000 by
	# about 500.  Its target: within 1.2x of the synchronous call of
	# eac6cf9 (issue 37), counted the same way on this tree with that
	# build's own harness (24,946 and 25,139 in two runs; doc/speed.md).
	n=1000 big=10000 before=25000
	echo "      instructions per no-op (callgrind, user space; the whole: $((5 * big)) calls less $big;"
	echo "      in the addon: $((3 * n)) less $n):"
	for which in adapter plain; do
		a1=$(flat_instructions $which $big) a2=$(flat_instructions $which $((5 * big)))
		# the addon's compose: compose() for the plain handle, the
		# symbol-keyed one (m_compose_text) for the adapter
		fn=m_compose
		[ $which = plain ] || fn=m_compose_text
		c1=$(flat_instructions $which $n $fn) c2=$(flat_instructions $which $((3 * n)) $fn)
		awk -v w="$which" -v a1="$a1" -v a2="$a2" -v c1="$c1" -v c2="$c2" -v n="$n" -v big="$big" \
			-v before="$before" 'BEGIN {
			all = (a2 - a1) / (4 * big)
			name = "the same on a plain handle"; vs = ""
			if (w == "adapter") {
				name = "composeGroupProjectDoc (watched)"
				vs = sprintf("   %.2fx eac6cf9'"'"'s %d (target <= 1.2x)", all / before, before)
			}
			printf "      %-42s %6.0f in all, %6.0f of them in the addon%s\n",
				name, all, (c2 - c1) / (2 * n), vs }'
	done
fi
# The plain no-op's floor: its own system calls, traced between two marks
# (bench/node.mjs flatcount with CLAWMD_BENCH_MARK), replayed with nothing
# between them (bench/floor): what no code can go below without looking
# at fewer files.
if command -v strace >/dev/null 2>&1 && [ -x "$build/bench/floor" ] &&
	grep -q composeGroupProjectDoc "$pkg/nanoclaw.js" 2>/dev/null; then
	rm -rf "$work/flat.count" && cp -a "$work/flat.pristine" "$work/flat.count"
	CLAWMD_BENCH_MARK=1 strace -f -o "$work/floor.tr" \
		$node "$bench" flatcount "$work/flat.count" "$work/container.json" 0 plain >/dev/null 2>&1 || true
	# the marking thread's calls between its marks, without its pid
	awk '/clawmd-bench-mark-begin/ { pid = $1; on = 1; next }
		/clawmd-bench-mark-end/ { on = 0 }
		on && $1 == pid { sub(/^[0-9]+ +/, ""); print }' "$work/floor.tr" >"$work/floor.calls"
	if set -- $("$build/bench/floor" "$work/floor.calls" 2000 2>/dev/null); then
		printf '      %-42s median %7.1f us   p90 %7.1f us   (its %s system calls alone, replayed)\n' \
			"  its floor" "$1" "$2" "$3"
	fi
fi
# A first compose creates files, and what a new inode costs is the file
# system's: an ext4 without a journal (this machine's root) searches its
# inode table for recently deleted inodes at each one, which can cost more
# than the compose.  Where the work directory is not a tmpfs, the same
# block again in one (/dev/shm), where it costs next to nothing.
if [ "$(stat -f -c %T "$work")" != tmpfs ] && [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] &&
	shm=$(mktemp -d /dev/shm/clawmd-bench-node.XXXXXX 2>/dev/null); then
	cp -a "$work/flat.pristine" "$shm/flat"
	echo "      the same in a tmpfs ($shm; here: $(stat -f -c %T "$work")):"
	NODE_CALLS=$CALLS $node "$bench" flat "$shm/flat" "$work/container.json" "$FIRST" $peerflat
	rm -rf "$shm"
fi
