#!/bin/sh
# Nothing the agent writes is lost while compose works (issue 42): every
# path that takes one of the agent's files away keeps the writes that land
# on its inode afterwards.  Each case is a loss mechanism the soak found
# (scripts/soak), made deterministic: a descriptor the agent holds open
# across a compose (a shell's `exec 3>>`), written to after compose.
. "$CLAWMD_TESTS/lib.sh"

R=$T/root
G=$R/groups/g
make_root "$R"
make_skill "$R" alpha
printf '{}' >"$R/clawmd.json"
mkdir -p "$G"
printf '{"skills": ["alpha"]}' >"$G/container.json"
expect_ok "baseline compose" $CLAWMD -C "$R" compose g
check "CLAUDE.local.md created empty" test -f "$G/CLAUDE.local.md" -a ! -s "$G/CLAUDE.local.md"
ino() { stat -c %i "$1"; }
# Where a line is, anywhere in the group (moved aside or not).
found() { grep -rlF -- "$1" "$G" | sed "s|^$G/||" | sort | tr '\n' ' '; }

# 1. The deterministic case of the issue: the agent keeps its memory open
# for append; CLAUDE.md is hand-edited; compose carries the edit into the
# memory.  The memory's inode is never replaced: the agent's next line
# lands in CLAUDE.local.md, after the carried text.
before=$(ino "$G/CLAUDE.local.md")
exec 3>>"$G/CLAUDE.local.md"
echo "hand edit one" >>"$G/CLAUDE.md"
expect_ok "compose carries a hand edit into the open memory" $CLAWMD -C "$R" compose g
expect_grep "the edit is carried, with a warning" "its text is now the group.s memory" "$T/err"
echo "agent line one" >&3
exec 3>&-
expect_eq "the memory keeps its inode" "$(ino "$G/CLAUDE.local.md")" "$before"
expect_eq "the agent's line is in the memory" "$(found 'agent line one')" "CLAUDE.local.md "
expect_eq "the carried edit is in the memory" "$(found 'hand edit one')" "CLAUDE.local.md "
expect_eq "the memory: the edit, then the agent's line" "$(cat "$G/CLAUDE.local.md")" \
	"hand edit one
agent line one"
expect_ok "compose --check agrees" $CLAWMD -C "$R" compose --check g
expect_eq "nothing moved aside" "$(ls -A "$G" | grep -c preserved)" 0

done_testing
