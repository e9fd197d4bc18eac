#!/bin/sh
# What lies where an older clawmd kept whose the flat entries are
# (STATE/flat/<group>, lib/compose/flat.c owners_read_old) is read as any
# file clawmd reads: a FIFO there hung every compose, status and check of
# the group (open() waits for a writer), a symlink was followed wherever
# it led, a file of endless lines read to its end.  Each is now a torn
# record: it vouches for nothing, a hand edit goes aside, nothing is lost.
. "$CLAWMD_TESTS/lib.sh"

R=$T/root
S=$R/.clawmd
make_flat_root "$R"
G=$R/groups/main
D=$G/CLAUDE.md
L=$S/locks/main
preserved() { ls -A "$G" | grep -c 'clawmd-preserved' || :; }
# a root as an older clawmd left it: its record at 0, no region
older() { printf 'clawmd\006\nan old record' >"$L"; rm -rf "$S/flat"; mkdir -p "$S/flat"; }

expect_ok "a first compose" $CLAWMD compose -C "$R" main

# A FIFO: status, check and compose answer (each under a timeout: it hung).
older
mkfifo "$S/flat/main"
printf 'my edit\n' >>"$D"
edited=$(cat "$D")
expect_ok "a FIFO there: status answers" timeout 20 $CLAWMD status -C "$R" main
expect_grep "... and tells the edit" '^main +hand-edited ' "$T/out"
_run timeout 20 $CLAWMD check -C "$R"
check "... check answers" test $? -ne 124
expect_ok "... compose answers" timeout 20 $CLAWMD compose -C "$R" main
expect_grep "the edit is moved aside" "CLAUDE.md was not written by clawmd; moved aside to" "$T/err"
check "nothing lost" sh -c "test \"\$(cat '$G'/CLAUDE.md.clawmd-preserved-*)\" = '$edited'"
rm -f "$G"/CLAUDE.md.clawmd-preserved-*
printf 'Web prose, again.\n' >"$R/container/skills/web/instructions.md"
expect_ok "the next compose that writes" timeout 20 $CLAWMD compose -C "$R" main
expect_eq "... replaces clawmd's entry (the region holds it), nothing aside" "$(preserved)" 0
check "... and the FIFO is gone" test ! -e "$S/flat/main"

# A symlink to a file whose line vouches for a hand-edited entry: not
# followed, the edit is not taken for clawmd's output.
older
printf 'my other edit\n' >>"$D"
edited=$(cat "$D")
printf 'CLAUDE.md %s\n' "$(fnv64 "$D")" >"$T/vouch"
ln -s "$T/vouch" "$S/flat/main"
printf 'Web prose, a third time.\n' >"$R/container/skills/web/instructions.md"
expect_ok "a symlink there: compose" timeout 20 $CLAWMD compose -C "$R" main
expect_grep "the edit is moved aside" "CLAUDE.md was not written by clawmd; moved aside to" "$T/err"
check "nothing lost" sh -c "test \"\$(cat '$G'/CLAUDE.md.clawmd-preserved-*)\" = '$edited'"
check "the symlink's target is untouched" test -s "$T/vouch"
rm -f "$G"/CLAUDE.md.clawmd-preserved-*

# The same line in a regular file is honoured (an older clawmd's own).
older
printf 'my last edit\n' >>"$D"
printf 'CLAUDE.md %s\n' "$(fnv64 "$D")" >"$S/flat/main"
printf 'Web prose, a fourth time.\n' >"$R/container/skills/web/instructions.md"
expect_ok "the line in a regular file: compose" timeout 20 $CLAWMD compose -C "$R" main
expect_eq "... vouches: replaced, nothing aside" "$(preserved)" 0
check "... the old file moved into the region" test ! -e "$S/flat/main"

# A file past 1 MiB, of lines without end: read no further, vouches for
# nothing.
older
printf 'a huge edit\n' >>"$D"
head -c 3000000 /dev/zero | tr '\000' x >"$S/flat/main"
expect_ok "a huge file there: compose" timeout 20 $CLAWMD compose -C "$R" main
expect_eq "the edit is moved aside" "$(preserved)" 1

done_testing
