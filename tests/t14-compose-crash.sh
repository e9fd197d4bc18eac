#!/bin/sh
# compose killed at every mutating syscall in turn (kill -9 via strace), then
# run again: it must reach the same state as an uninterrupted run, lose no
# content and leave no temp behind.
. "$CLAWMD_TESTS/lib.sh"

if ! command -v strace >/dev/null 2>&1 || ! strace -f -o /dev/null true 2>/dev/null; then
	echo "1..0 # SKIP strace unavailable"
	exit 0
fi
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"

R=$T/root
make_root "$R"
make_skill "$R" alpha
make_skill "$R" beta
mkdir -p "$R/start"
# The starting state: a legacy hand-written CLAUDE.md, a used CLAUDE.local.md
# (so the legacy file must be quarantined), no fragments yet.
printf '{"mcpServers": {"m": {"instructions": "mcp"}}}' >"$R/start/container.json"
echo "legacy instructions" >"$R/start/CLAUDE.md"
echo "local notes" >"$R/start/CLAUDE.local.md"

reset() { rm -rf "$R/groups/g" && cp -a "$R/start" "$R/groups/g"; }
# A listing that ignores the random part of quarantine names, with contents.
state() {
	(cd "$R/groups/g" && find . -mindepth 1 | sort | while read -r p; do
		n=$(printf '%s' "$p" | sed 's/clawmd-preserved-.*/clawmd-preserved-X/')
		if [ -L "$p" ]; then echo "$n -> $(readlink "$p")"
		elif [ -f "$p" ]; then echo "$n $(cksum <"$p")"
		else echo "$n/"; fi
	done)
}
reset
$CLAWMD compose -C "$R" g 2>/dev/null
want=$(state)
check "reference run preserved the legacy file" grep -rq "legacy instructions" "$R/groups/g"

kills=0
bad=
for sc in openat write fsync symlinkat mkdirat renameat renameat2 rename unlinkat; do
	n=1
	while [ $n -le 60 ]; do
		reset
		strace -f -o /dev/null -e trace="$sc" -e inject="$sc:signal=KILL:when=$n" \
			$CLAWMD compose -C "$R" g >/dev/null 2>&1
		st=$?
		[ $st -eq 0 ] && break # ran to the end: no more calls of $sc to kill at
		kills=$((kills + 1))
		if ! $CLAWMD compose -C "$R" g >/dev/null 2>"$T/err2"; then
			bad="$bad
$sc#$n: rerun failed: $(cat "$T/err2")"
		elif [ "$(state)" != "$want" ]; then
			bad="$bad
$sc#$n: state differs:
$(state)"
		fi
		n=$((n + 1))
	done
done
check "killed at $kills mutating syscalls" test "$kills" -gt 10
expect_eq "every rerun after a kill converged to the uninterrupted state" "$bad" ""
done_testing
