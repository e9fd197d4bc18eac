#!/bin/sh
# The build's output (issue 20, item 9): a compile prints one short line
# ("  CC    lib/base/err.c"), none under make -s, the whole command with V=1,
# and make demo prints no compiler line at all.  Each build goes to its
# own directory under $T: nothing here touches the build under test.
. "$CLAWMD_TESTS/lib.sh"

if ! command -v make >/dev/null 2>&1 || ! command -v cc >/dev/null 2>&1; then
	echo "1..0 # SKIP make or cc unavailable"
	exit 0
fi
# Under make check, MAKEFLAGS carries the outer make's flags (make -s
# check would silence every build here): each build starts from none.
unset MAKEFLAGS MFLAGS MAKELEVEL
mk() { make --no-print-directory -C "$CLAWMD_SRC" "$@"; }

expect_ok "compile one object" mk BUILD="$T/b1" "$T/b1/lib/base/err.o"
expect_eq "... prints one short line" "$(cat "$T/out")" "  CC    lib/base/err.c"
expect_ok "make -s" mk -s BUILD="$T/b2" "$T/b2/lib/base/err.o"
expect_eq "... prints nothing" "$(cat "$T/out" "$T/err")" ""
expect_ok "make V=1" mk V=1 BUILD="$T/b3" "$T/b3/lib/base/err.o"
expect_grep "... prints the compiler's command line" "^[^ ]+ .* -c -o $T/b3/lib/base/err.o lib/base/err.c$" "$T/out"

# make demo builds with make -s: against a build that is up to date, make -n
# shows the commands it would run, and no compiler or archiver is among them.
expect_ok "make -n demo" mk -n BUILD="$CLAWMD_BUILD" demo
# (a fixed string: the clone's path may hold a regex character, /srv/x.y/clawmd+work)
check "... runs the demo" grep -qF "scripts/demo.sh $CLAWMD_BUILD/clawmd" "$T/out"
check "... and builds silently (make -s)" grep -q -- "-s all" "$T/out"
check "... no compiler line" sh -c "! grep -Eq '(^| )(cc|gcc|clang|ar) |^  (CC|AR|LINK) ' '$T/out'"

# The demo piped (a log, | less, a CI job): each command's stderr comes
# after its stdout, as on a terminal, never inside it (piped, clawmd's
# stdout is buffered: check's summary came first, or mid-line).  A copy of
# the demo's sources, so that the tree under test gets no demo/.
mkdir -p "$T/src/scripts"
cp "$CLAWMD_SRC/scripts/demo.sh" "$T/src/scripts/"
cp -R "$CLAWMD_SRC/container" "$CLAWMD_SRC/skills" "$T/src/"
expect_ok "the demo, piped" sh -c "sh '$T/src/scripts/demo.sh' '$CLAWMD' 2>&1 | cat"
cp "$T/out" "$T/demo.out"
check "... check's summary closes its command's output" awk '
	/^\$ / { if (bad) exit 1; summary = 0; next }
	/^clawmd: [0-9]+ errors?,/ { summary = 1; next }
	summary && !/^(\(|== |$)/ { bad = 1 }
	END { exit bad }' "$T/demo.out"
check "... and says so with 4 errors (the symlink group)" grep -q "^clawmd: 4 errors, 1 warning, 0 notes in 1 group$" "$T/demo.out"
check "... no man page promised that is not installed" sh -c "! grep -q \"or 'man clawmd'\\.\$\" '$T/demo.out'"
done_testing
