#!/bin/sh
# What an error path must not lose or leak (issue 28): render --group with a
# container.json that is empty or not JSON frees the mount table it made
# (item 9: LeakSanitizer in the sanitizer build, valgrind in the plain
# one), and a full file system during the first migrate leaves no empty
# STATE/.gitignore that no later run mends (item 10: written as every file
# is, and mended by the next run that takes a lock).
. "$CLAWMD_TESTS/lib.sh"

R=$T/root
make_root "$R"
mkdir -p "$R/groups/main"
printf '{}\n' >"$R/clawmd.json"

# --- item 9: render --group, container.json not JSON ------------------------
# The sanitizer build reports a leak at exit (LeakSanitizer); the plain one
# runs the full program (the static front is not valgrind's) under valgrind.
FULL=$CLAWMD_BUILD/libexec/clawmd/clawmd
vg=
if ! grep -q __asan_init "$FULL" 2>/dev/null && command -v valgrind >/dev/null 2>&1 &&
	valgrind -q --error-exitcode=99 "$FULL" --help >/dev/null 2>&1; then
	vg="valgrind -q --leak-check=full --errors-for-leak-kinds=definite --error-exitcode=99"
fi
for body in '' 'not json' '{"skills": ' '[1, 2]'; do
	printf '%s' "$body" >"$R/groups/main/container.json"
	expect_fail 3 "render --group with container.json '$body': exit 3${vg:+ (valgrind: no leak)}" \
		$vg "$FULL" -C "$R" render --group main
	expect_grep "... the error names the file" "container\\.json" "$T/err"
	check "... and no leak is reported" sh -c "! grep -qE 'LeakSanitizer|definitely lost' '$T/err'"
done
rm "$R/groups/main/container.json"

# --- item 10: STATE/.gitignore under a full file system ---------------------
if command -v strace >/dev/null 2>&1 && strace -f -o /dev/null -e inject=write:error=ENOSPC true 2>/dev/null; then
	mkdir -p "$R/groups/global" && printf 'old global\n' >"$R/groups/global/CLAUDE.md"
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		strace -f -o /dev/null -e trace=write -e inject=write:error=ENOSPC \
		"$CLAWMD" -C "$R" migrate >"$T/out" 2>"$T/err"
	check "the first migrate under ENOSPC fails" test $? -ne 0
	check "... and leaves no empty STATE/.gitignore (whole or none)" \
		sh -c "! test -e '$R/.clawmd/.gitignore' || test -s '$R/.clawmd/.gitignore'"
	check "... and no staged temp in STATE" \
		sh -c "! ls -A '$R/.clawmd' | grep -v -e '^locks\$' -e '^.gitignore\$' -e '^layout' -e '^records\$' -e '^migrated' | grep ."
	expect_ok "the next migrate, with room" "$CLAWMD" -C "$R" migrate
	expect_file "... writes STATE/.gitignore" "$R/.clawmd/.gitignore" "*"
	# One left empty by a version that wrote it in place is mended too.
	# (A no-op compose takes its lock without the check: a first compose,
	# whose lock file is new, comes through it.)
	: >"$R/.clawmd/.gitignore"
	rm -f "$R/.clawmd/locks/main"
	expect_ok "a compose of a group never composed, with the file empty" "$CLAWMD" -C "$R" compose main
	expect_file "... mends it" "$R/.clawmd/.gitignore" "*"
	# An already migrated root, the file empty (an older clawmd wrote it
	# in place): the next migrate, a host start, mends it.
	: >"$R/.clawmd/.gitignore"
	expect_ok "migrate, already done, with the file empty" "$CLAWMD" -C "$R" migrate
	expect_file "... mends it" "$R/.clawmd/.gitignore" "*"
	: >"$R/.clawmd/.gitignore"
	expect_ok "migrate --dry-run with the file empty" "$CLAWMD" -C "$R" migrate --dry-run
	check "... writes nothing" test ! -s "$R/.clawmd/.gitignore"
	printf 'mine\n' >"$R/.clawmd/.gitignore"
	rm -f "$R/.clawmd/locks/main"
	expect_ok "a compose with the user's own STATE/.gitignore" "$CLAWMD" -C "$R" compose main
	expect_file "... leaves it as the user wrote it" "$R/.clawmd/.gitignore" "mine"
else
	check "strace cannot inject faults here: item 10 not exercised # SKIP" true
fi

done_testing
