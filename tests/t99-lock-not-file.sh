#!/bin/sh
# A group's lock file (ROOT/.clawmd/locks/GROUP, clawmd's own) that is a
# FIFO or a directory: every command answers in time.  compose fails
# naming the lock (exit 4, the group's files unchanged); status and check,
# which read the flat ownership and the record from it, do not hang.
# Before, each opened it blocking and waited forever on the FIFO.
. "$CLAWMD_TESTS/lib.sh"

R=$T/root
make_root "$R"
mkdir -p "$R/groups/main"
expect_ok "compose" "$CLAWMD" compose -q -C "$R" main
before=$(cd "$R/groups" && find . -printf '%p %i %T@ %s\n' | sort)
for kind in fifo dir; do
	rm -rf "$R/.clawmd/locks/main"
	case $kind in
	fifo) mkfifo "$R/.clawmd/locks/main" ;;
	dir) mkdir "$R/.clawmd/locks/main" ;;
	esac
	expect_fail 4 "$kind: compose fails, in time" timeout 10 "$CLAWMD" compose -C "$R" main
	expect_grep "$kind: the message names the lock" "lock '.*/\.clawmd/locks/main' is not a regular file" "$T/err"
	expect_ok "$kind: status answers" timeout 10 "$CLAWMD" status -C "$R"
	expect_ok "$kind: check answers" timeout 10 "$CLAWMD" check -C "$R" main
	expect_eq "$kind: the group unchanged" "$(cd "$R/groups" && find . -printf '%p %i %T@ %s\n' | sort)" "$before"
done
done_testing
