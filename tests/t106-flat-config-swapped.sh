#!/bin/sh
# The agent swaps its flat group's container.json between a symlink to a
# file outside (a copy of /etc/passwd's kind of secret) and a file of its
# own, over and over, while compose, status, check, render and the Node
# adapter read it, each slowed by strace at every open, stat and read so
# that the swap lands between the name's resolution and the read.  Nothing
# outside is read into an output or a composed file, nothing outside is
# written, every command answers in time, and the entry is composed.
# Without strace (or ptrace) it is skipped, saying why.
. "$CLAWMD_TESTS/lib.sh"

if ! command -v strace >/dev/null 2>&1 || ! strace -f -o /dev/null true 2>/dev/null; then
	echo "1..0 # SKIP no strace (or no ptrace here): the swap cannot be slowed into the read"
	exit 0
fi
O=$T/outside
mkdir -p "$O"
printf 'root:x:0:0:OUTSIDE-SECRET:/root:/bin/sh\n' >"$O/passwd"
cp "$O/passwd" "$T/passwd.orig"
R=$T/root
G=$R/groups/main
make_flat_root "$R" '# Base\n\nRules.\n\n{{provider-memory-note}}\n'
printf '{"provider": "claude"}\n' >"$G/container.json"
expect_ok "a first compose" "$CLAWMD" compose -q -C "$R" main

(
	while :; do
		ln -sfn "$O/passwd" "$G/.cj.l" && mv -T "$G/.cj.l" "$G/container.json"
		printf '{"provider": "claude"}\n' >"$G/.cj.f" && mv -T "$G/.cj.f" "$G/container.json"
	done
) &
swapper=$!
slow() { timeout 60 strace -f -e inject=openat,newfstatat,read:delay_enter=15000 -o /dev/null "$@"; }
hung='' leaked=''
for cmd in "compose main" "status main" check "render --group main" "compose main"; do
	# shellcheck disable=SC2086
	slow "$CLAWMD" $cmd -C "$R" >"$T/out" 2>"$T/err"
	st=$?
	{ [ $st = 124 ] || [ $st -ge 128 ]; } && hung="$hung; $cmd exit $st"
	grep -q OUTSIDE-SECRET "$T/out" "$T/err" && leaked="$leaked; $cmd"
done
PKG=${CLAWMD_BUILD:-}/node/package
if command -v node >/dev/null 2>&1 && [ -d "$PKG" ] &&
	! nm -D "$PKG"/prebuilds/*/*.node 2>/dev/null | grep -q __asan_init; then
	(cd "$R" && LD_PRELOAD='' slow node -e '
		const [pkg, dir] = process.argv.slice(1);
		const nc = require(pkg + "/nanoclaw.js");
		(async () => {
			for (let i = 0; i < 3; i++)
				await nc.composeGroupProjectDoc({ folder: "main" }, dir, { fileName: "CLAUDE.md" }, null,
					{ log: { warn(m) { console.log(m); }, error(m) { console.log(m); } } }).catch((e) => console.log(e.message));
		})();' "$PKG" "$G") >"$T/out" 2>"$T/err"
	st=$?
	{ [ $st = 124 ] || [ $st -ge 128 ]; } && hung="$hung; node exit $st"
	grep -q OUTSIDE-SECRET "$T/out" "$T/err" && leaked="$leaked; node"
fi
kill $swapper
wait $swapper 2>/dev/null
expect_eq "every command answered in time, none crashed" "$hung" ""
expect_eq "nothing outside in any output" "$leaked" ""
check "nothing outside written" cmp -s "$O/passwd" "$T/passwd.orig"
check "nothing outside in the group" sh -c "! grep -rq OUTSIDE-SECRET '$G' --exclude=container.json"
rm -f "$G/container.json" "$G/.cj.l" "$G/.cj.f"
expect_ok "the next compose" "$CLAWMD" compose -C "$R" main
check "the entry: a regular file of the composed text" sh -c "test -f '$G/CLAUDE.md' && test ! -L '$G/CLAUDE.md' && grep -q '^Rules\.\$' '$G/CLAUDE.md'"
done_testing
