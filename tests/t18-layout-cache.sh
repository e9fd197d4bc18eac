#!/bin/sh
# The kept copy of clawmd.json (ROOT/.clawmd/layout, clawmd_layout_keep):
# compose keeps what the file was parsed into, the next run uses it without
# loading the JSON parser, and any change to clawmd.json, to the copy, or a
# clawmd.json edited too recently to be told apart means parsing it again.
# Read-only commands never write it, and what a run applies is the same
# with and without it: values, errors and warnings alike.
. "$CLAWMD_TESTS/lib.sh"

R=$T/root
make_root "$R"
make_skill "$R" alpha
mkdir -p "$R/groups/g" "$R/.clawmd"
G=$R/groups/g
K=$R/.clawmd/layout
old() { touch -d '-1 minute' "$@"; }
# LeakSanitizer cannot run under ptrace: no leak check in traced runs.
NOLEAK="ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
traced() { env "$NOLEAK" strace -f -o "$T/trace" -e trace=openat,open "$@" >/dev/null 2>"$T/err"; }

printf '{"mode": "symlink", "approve_external": true}\n' >"$R/clawmd.json"
# 1. A clawmd.json changed too recently is not kept: a later edit in the
# same clock tick would leave its identity unchanged.  Where a test needs
# the copy kept (or the no-op record written), it first lets the changes
# age out of that racy window (age_out, tests/lib.sh): how fast the
# machine runs must not decide what is kept.
touch -d '+1 minute' "$R/clawmd.json"
expect_ok "compose with a clawmd.json changed 'now'" $CLAWMD compose -C "$R" g
check "a clawmd.json changed 'now' is not kept" test ! -e "$K"
old "$R/clawmd.json"
for cmd in "status" "check g" "render --group g" "compose --check g" "compose --dry-run g"; do
	$CLAWMD $cmd -C "$R" >/dev/null 2>&1
	check "$cmd keeps nothing (read-only)" test ! -e "$K"
done
age_out
expect_ok "compose keeps it" $CLAWMD compose -C "$R" g
check "kept in ROOT/.clawmd/layout" test -f "$K"
check "the symlink mode applied" test -L "$G/.claude-fragments/skill-alpha.md"
age_out # the compose above wrote the group: the next one records the no-op

if command -v strace >/dev/null 2>&1; then
	traced $CLAWMD compose -C "$R" g
	check "the next run reads the kept copy" grep -q '\.clawmd/layout' "$T/trace"
	check "... and does not load the JSON parser" sh -c "! grep -q libcjson '$T/trace'"
	check "... nor read clawmd.json" sh -c "! grep -q 'clawmd.json\"' '$T/trace'"
	# A no-op with the copy kept writes nothing at all, in the group or in
	# the host's state (DESIGN 2.3; the record was written by the run before).
	env "$NOLEAK" strace -f -o "$T/trace" -e trace=%file,%desc $CLAWMD compose -C "$R" g >/dev/null 2>&1
	expect_eq "... and writes nothing, the kept copy included" \
		"$(grep -E '^[0-9]+ +(write|rename|renameat2?|unlink|unlinkat|symlinkat|mkdirat|fsync)\(|O_CREAT|O_WRONLY|O_RDWR' "$T/trace" | grep -v '/dev/null')" ""
else
	for i in 1 2 3 4; do _report 0 "# SKIP strace"; done
fi

# 2. An edit to clawmd.json is seen, even one that keeps its inode, size
# and mtime: written in place at the same length, the mtime put back (only
# its ctime moves).
touch -r "$R/clawmd.json" "$T/stamp"
ino=$(stat -c %i "$R/clawmd.json")
printf '{"mode": "copy",    "approve_external": true}\n' 1<>"$R/clawmd.json"
touch -r "$T/stamp" "$R/clawmd.json"
expect_eq "the edit kept inode and size" "$(stat -c '%i %s' "$R/clawmd.json")" "$ino 46"
expect_ok "compose after an edit that kept size and mtime" $CLAWMD compose -C "$R" g
check "the edit applied (copy mode)" test -f "$G/.claude-fragments/skill-alpha.md" -a ! -L "$G/.claude-fragments/skill-alpha.md"
expect_ok "compose again" $CLAWMD compose -C "$R" g
check "still copy mode, from the kept copy" test ! -L "$G/.claude-fragments/skill-alpha.md"
age_out

# 3. A torn or corrupted copy is parsed around, and replaced.
head -c 40 "$K" >"$T/torn" && cat "$T/torn" >"$K"
expect_ok "compose with a torn copy" $CLAWMD compose -C "$R" g
check "still copy mode" test ! -L "$G/.claude-fragments/skill-alpha.md"
check "the torn copy was replaced" test "$(wc -c <"$K")" -gt 40
printf 'X' | dd of="$K" bs=1 seek=150 conv=notrunc 2>/dev/null
expect_ok "compose with a corrupted copy" $CLAWMD compose -C "$R" g
check "still copy mode" test ! -L "$G/.claude-fragments/skill-alpha.md"

# 4. Errors and warnings are the same from the file and from the kept copy.
printf '{"mode": "copy", "bogus_key": 1}\n' >"$R/clawmd.json"
old "$R/clawmd.json"
age_out
expect_ok "an unknown key is a warning" $CLAWMD compose -C "$R" g
expect_grep "... naming it" "bogus_key" "$T/err"
expect_ok "again, from the kept copy" $CLAWMD compose -C "$R" g
expect_grep "... still naming it" "bogus_key" "$T/err"
printf '{"mode": "mirror"}\n' >"$R/clawmd.json"
old "$R/clawmd.json"
age_out # were a bad file kept, it would be kept now
expect_fail 3 "a bad value is an error" $CLAWMD compose -C "$R" g
expect_grep "... naming the file and the key" "clawmd.json: mode: expected 'symlink' or 'copy', not 'mirror'" "$T/err"
cp "$K" "$T/kept"
expect_fail 3 "... every time (nothing kept from a bad file)" $CLAWMD compose -C "$R" g
check "the kept copy was not replaced by a bad file's" cmp -s "$K" "$T/kept"

# 5. A layout that keeps its state elsewhere keeps no copy in ROOT.
R2=$T/root2
make_root "$R2"
mkdir -p "$R2/groups/g"
printf '{"state": "st"}\n' >"$R2/clawmd.json"
old "$R2/clawmd.json"
expect_ok "compose with the state directory elsewhere" $CLAWMD compose -C "$R2" g
expect_ok "twice" $CLAWMD compose -C "$R2" g
check "no ROOT/.clawmd made for it" test ! -e "$R2/.clawmd"
# ... until an operator makes one (doc/speed.md): then the copy is kept
# there, and the state stays where clawmd.json put it.
mkdir "$R2/.clawmd"
age_out
expect_ok "with an empty ROOT/.clawmd" $CLAWMD compose -C "$R2" g
check "... the copy is kept in it" test -f "$R2/.clawmd/layout"
check "... and nothing else" test "$(ls -A "$R2/.clawmd")" = layout
check "... the state still elsewhere" test -d "$R2/st/locks"

done_testing
