#!/bin/sh
# tests/skips.sh, make check's closing line (issue 41): every test file that
# skipped anything, how much, in which build when not in all, and each of
# its reasons; "nothing skipped" when none did.  Read from TAP logs laid
# out as tests/run-test.sh writes them.
. "$CLAWMD_TESTS/lib.sh"

mk() { # BUILD NAME TAP
	mkdir -p "$T/$1/tests/log"
	printf '%s\n' "$3" >"$T/$1/tests/log/$2.tap"
}
mk a t10-x.sh "ok 1 - one
1..1"
mk b t10-x.sh "ok 1 - one
1..1"
expect_ok "nothing skipped" sh "$CLAWMD_TESTS/skips.sh" "$T/a" "$T/b"
expect_eq "... says so" "$(cat "$T/out")" "nothing skipped"

mk a t60-node.sh "1..0 # SKIP no node installed: the Node package is not tested"
mk b t60-node.sh "1..0 # SKIP no node installed: the Node package is not tested"
mk b t19-front.sh "ok 1 - # SKIP the sanitizer build's front is dynamic
ok 2 - a test
1..2"
mk a t46-dev.sh "ok 1 - # SKIP mknod failed (not root)
ok 2 - # SKIP mknod failed (not root)
ok 3 - # skip unshare -m unavailable
1..3"
mk b t46-dev.sh "ok 1 - # SKIP mknod failed (not root)
1..1"
mkdir -p "$T/b/tests/log"
printf 'fuzz-smoke: mdscan ok (5s)\nfuzz-node: skipped (no node)\n' >"$T/b/tests/log/fuzz.log"
expect_ok "skips in both builds, one, and the fuzzers" sh "$CLAWMD_TESTS/skips.sh" "$T/a" "$T/b"
expect_eq "... one line naming each, how much, where and why" "$(cat "$T/out")" \
	"skipped: t46-dev 4 tests (mknod failed (not root); unshare -m unavailable); t60-node whole (no node installed: the Node package is not tested); t19-front 1 test in $T/b (the sanitizer build's front is dynamic); fuzz-node whole in $T/b (no node)"
done_testing
