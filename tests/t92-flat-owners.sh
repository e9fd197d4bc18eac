#!/bin/sh
# Whose the flat entries are (lib/compose/flat.c, "whose file it is"): the
# digests of what clawmd wrote lie in the group's lock file, in a region
# of their own before the no-op record (lib/group/group.h), not in a file
# of their own.  A first compose makes no inode for them; a region torn by
# a crash vouches for nothing (the entry goes aside, nothing lost); the
# STATE/flat/<group> file an older clawmd kept is honoured, then moved
# into the lock file.
. "$CLAWMD_TESTS/lib.sh"

R=$T/root
S=$R/.clawmd
make_flat_root "$R"
G=$R/groups/main
D=$G/CLAUDE.md
L=$S/locks/main
region() { head -c 4096 "$L"; }
# what the region says of CLAUDE.md (empty: nothing)
owned() { region | tr -d '\000' | grep '^CLAUDE.md ' || :; }
preserved() { ls -A "$G" | grep -c 'clawmd-preserved' || :; }
# one byte of the lock file at OFFSET replaced, the file otherwise as it is
poke() { printf "$2" | dd of="$L" bs=1 seek="$1" conv=notrunc 2>/dev/null; }

expect_ok "a first compose" $CLAWMD compose -C "$R" main
expect_eq "the region opens the lock file" "$(head -n1 "$L")" "clawmd-owners 1"
check "it says whose CLAUDE.md is" sh -c "region() { head -c 4096 '$L'; }; region | tr -d '\\000' | grep -q '^CLAUDE.md [0-9a-f]\{16\}\$'"
expect_eq "it ends in its checksum line" "$(region | tr -d '\000' | tail -n1 | sed 's/[0-9a-f]\{16\}$/X/')" "end X"
expect_eq "the region is written whole, nothing after it yet" "$(stat -c %s "$L")" 4096
check "no STATE/flat" test ! -e "$S/flat"

# The no-op record follows it, and neither writes into the other.
age_out
expect_ok "a no-op compose records" $CLAWMD compose -C "$R" main
expect_eq "the record starts at 4096" "$(tail -c +4097 "$L" | head -c 6)" clawmd
printf 'Web prose, first change.\n' >"$R/container/skills/web/instructions.md"
expect_ok "a source changed after the record: compose" $CLAWMD compose -C "$R" main
expect_eq "the region still vouches for the entry: nothing aside" "$(preserved)" 0
printf 'my edit\n' >>"$D"
expect_ok "a hand edit after the record" $CLAWMD compose -C "$R" main
expect_grep "told from clawmd's output" "CLAUDE.md was not written by clawmd; moved aside to" "$T/err"
expect_eq "one entry aside" "$(preserved)" 1
rm -f "$G"/CLAUDE.md.clawmd-preserved-*

# A first compose of a new group: the group directory (the host's), its
# lock file (which holds the region too) and the entry's temp: three
# inodes, where a file of its own for the region made four.
if command -v strace >/dev/null 2>&1 && strace -f -o /dev/null true 2>/dev/null; then
	mkdir "$R/groups/fresh"
	age_out
	strace -f -o "$T/trace" -e trace=%file,%desc $CLAWMD compose -q -C "$R" fresh
	grep -E 'O_CREAT|(^| )(mkdir|mkdirat|link|linkat|symlink|symlinkat)\(' "$T/trace" | grep -E '= [0-9]+$' >"$T/made" || :
	expect_eq "a first compose makes two inodes (three with the group directory)" \
		"$(sed 's/^[0-9]* *//; s/, 0[0-7]*) = [0-9]*$//; s/\.[0-9a-f]*\.tmp/.TMP/' "$T/made")" \
		"openat(4, \"fresh\", O_RDONLY|O_CREAT|O_NOFOLLOW|O_CLOEXEC
openat(3, \".CLAUDE.md.TMP\", O_WRONLY|O_CREAT|O_EXCL|O_NOFOLLOW|O_CLOEXEC"
	expect_eq "... and writes the region by one pwrite of 4096 bytes at 0" \
		"$(grep -c 'pwrite64([0-9]*, "clawmd-owners 1\\n.*, 4096, 0) = 4096' "$T/trace")" 1
else
	echo "# strace unavailable: skipping the count"
	_report 0 "# SKIP strace"
	_report 0 "# SKIP strace"
fi

# Torn by a crash: one byte of the region changed, or its end lost.  It
# vouches for nothing: the entry (clawmd's, as it happens) goes aside
# rather than be taken for clawmd's, and is written again.
for tear in digit end; do
	old=$(cat "$D")
	case $tear in
	digit) poke 30 'Z' ;; # a digit of CLAUDE.md's digest
	end) dd if=/dev/zero of="$L" bs=1 seek=43 count=$((4096 - 43)) conv=notrunc 2>/dev/null ;;
	esac
	printf 'Web prose, changed (%s).\n' "$tear" >"$R/container/skills/web/instructions.md"
	expect_ok "torn ($tear): compose" $CLAWMD compose -C "$R" main
	expect_grep "torn ($tear): the entry is not taken for clawmd's" "CLAUDE.md was not written by clawmd; moved aside to" "$T/err"
	check "torn ($tear): nothing lost" sh -c "test \"\$(cat '$G'/CLAUDE.md.clawmd-preserved-*)\" = '$old'"
	expect_grep "torn ($tear): the new text is there" "^Web prose, changed \\($tear\\)\\.\$" "$D"
	check "torn ($tear): the region is whole again" sh -c "head -c 4096 '$L' | tr -d '\\000' | grep -q '^end [0-9a-f]\{16\}\$'"
	rm -f "$G"/CLAUDE.md.clawmd-preserved-*
	expect_ok "torn ($tear): the compose after it" $CLAWMD compose -C "$R" main
	expect_eq "torn ($tear): ... moves nothing" "$(preserved)" 0
done

# An older clawmd kept the lines in STATE/flat/<group>, its lock file
# holding the no-op record from offset 0.  Honoured while the lock file has
# no region, then moved into it by the next write.
older() { # LINE: a root as an older clawmd left it
	mkdir -p "$S/flat"
	printf '%s\n' "$1" >"$S/flat/main"
	printf 'clawmd\006\nan old record' >"$L"
}
line=$(owned)
older "$line"
printf 'Web prose, again.\n' >"$R/container/skills/web/instructions.md"
$CLAWMD status -C "$R" main >"$T/st" 2>&1
expect_grep "status: the entry is clawmd's (by the old file), to be rewritten" '^main +would change ' "$T/st"
expect_ok "old file, entry unedited: compose" $CLAWMD compose -C "$R" main
expect_eq "replaced, nothing aside" "$(preserved)" 0
expect_grep "the new text is there" '^Web prose, again\.$' "$D"
check "the old file is gone" test ! -e "$S/flat/main"
check "... and its directory, empty" test ! -e "$S/flat"
expect_eq "the region holds the new digest" "$(owned | cut -c1-10)" "CLAUDE.md "
check "... another than before" test "$(owned)" != "$line"

line=$(owned)
older "$line"
printf 'my edit\n' >>"$D"
edited=$(cat "$D")
$CLAWMD status -C "$R" main >"$T/st" 2>&1
expect_grep "status: the edit is seen (by the old file)" '^main +hand-edited ' "$T/st"
expect_ok "old file, entry edited: compose" $CLAWMD compose -C "$R" main
expect_grep "the edit is moved aside" "CLAUDE.md was not written by clawmd; moved aside to" "$T/err"
check "nothing lost" sh -c "test \"\$(cat '$G'/CLAUDE.md.clawmd-preserved-*)\" = '$edited'"
check "the old file is gone" test ! -e "$S/flat/main"
rm -f "$G"/CLAUDE.md.clawmd-preserved-*

# Another group's old file stays until that group is composed.
mkdir -p "$S/flat"
line=$(owned)
older "$line"
printf 'CLAUDE.md 0000000000000000\n' >"$S/flat/other"
printf 'Web prose, once more.\n' >"$R/container/skills/web/instructions.md"
expect_ok "two old files: compose one group" $CLAWMD compose -C "$R" main
check "its file goes, the other's stays" sh -c "test ! -e '$S/flat/main' && test -e '$S/flat/other'"

done_testing
