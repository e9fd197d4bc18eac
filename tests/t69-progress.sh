#!/bin/sh
# make check's progress: each test file that finishes adds to a count
# (tests/run-test.sh), printed as "check: N/TOTAL test files done" every 20
# files and at the end off a terminal, in place on one, with the failures
# counted; and make check's lines name each stage and end with a summary.
. "$CLAWMD_TESTS/lib.sh"
# make check runs this test with its own progress variables: not for the
# inner runs below.
unset CLAWMD_PROGRESS CLAWMD_PROGRESS_TOTAL CLAWMD_PROGRESS_TTY

B=$T/b
mkdir -p "$B/tests"
for i in $(seq 1 21); do
	printf '#!/bin/sh\necho "1..1"\necho "ok 1 - file %s"\n' "$i" >"$B/tests/p$i.t"
	chmod +x "$B/tests/p$i.t"
done
printf '#!/bin/sh\necho "1..1"\necho "not ok 1 - failing"\nexit 1\n' >"$B/tests/p22.t"
chmod +x "$B/tests/p22.t"
: >"$T/progress"
files=$(for i in $(seq 1 22); do printf '%s ' "$B/tests/p$i.t"; done)
CLAWMD_PROGRESS=$T/progress CLAWMD_PROGRESS_TOTAL=22 \
	prove -Q -j1 --exec "$CLAWMD_SRC/tests/run-test.sh" $files >"$T/out" 2>"$T/err"
expect_eq "a line at 20 and at the end, with the failure counted" "$(cat "$T/err")" \
	"check: 20/22 test files done
check: 22/22 test files done, 1 failed"
expect_eq "the count file has a line a file" "$(wc -l <"$T/progress")" 22
: >"$T/progress"
CLAWMD_PROGRESS=$T/progress CLAWMD_PROGRESS_TOTAL=3 CLAWMD_PROGRESS_TTY=$T/tty \
	prove -Q -j1 --exec "$CLAWMD_SRC/tests/run-test.sh" "$B/tests/p1.t" "$B/tests/p2.t" "$B/tests/p3.t" \
	>"$T/out" 2>"$T/err"
expect_eq "on a terminal: the count in place, a newline at the end" "$(od -An -c "$T/tty" | tr -s ' \n' ' ')" \
	"$(printf '\rcheck: 1/3 test files done\rcheck: 2/3 test files done\rcheck: 3/3 test files done\n' | od -An -c | tr -s ' \n' ' ')"
expect_eq "... and nothing on stderr then" "$(grep -c check "$T/err")" 0
# Without the variables, run-test.sh says nothing more (make test, by hand).
expect_ok "no progress without CLAWMD_PROGRESS" "$CLAWMD_SRC/tests/run-test.sh" "$B/tests/p1.t"
expect_eq "... nothing on stderr" "$(cat "$T/err")" ""

# make check's recipe: a line per stage, the test count, a closing summary.
recipe=$(sed -n '/^check: test-deps/,/^$/p' "$CLAWMD_SRC/Makefile")
echo "$recipe" >"$T/recipe"
expect_grep "a stage line before the builds" 'echo "check: building ' "$T/recipe"
expect_grep "the suite's stage names its size" 'check: built; the suite against .*: \$\(words \$\(CHECK_SUITE\)\) test files' "$T/recipe"
expect_grep "prove gets the progress variables" 'CLAWMD_PROGRESS=.* CLAWMD_PROGRESS_TOTAL=\$\(words' "$T/recipe"
expect_grep "a stage line for the fuzzers" 'echo "check: the fuzzers' "$T/recipe"
expect_grep "a closing summary with the count and the time" 'check: all passed: \$\(words \$\(CHECK_SUITE\)\) test files' "$T/recipe"
done_testing
