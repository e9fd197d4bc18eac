#!/bin/sh
# status and check tell a hand edit of any entry file compose writes, not
# only of CLAUDE.md (lib/lint/group.c lint_drift): a flat group of Codex
# alone has an AGENTS.md and no CLAUDE.md.  Its hand edit, which compose
# moves aside, was "would change" in status and, in check, a CM402 "stale"
# placed at a CLAUDE.md that does not exist.
. "$CLAWMD_TESTS/lib.sh"

R=$T/root
make_flat_root "$R"
printf '{"provider": "codex"}\n' >"$R/groups/main/container.json"
G=$R/groups/main

_run $CLAWMD status -C "$R" main
expect_grep "never composed: status says so" '^main +never composed ' "$T/out"
_run $CLAWMD check -C "$R"
expect_grep "... check places CM402 at the entry compose would write" \
	'^groups/main/AGENTS.md:1:1: error: groups/main has never been composed \[CM402\]$' "$T/out"

expect_ok "compose" $CLAWMD compose -C "$R" main
check "an AGENTS.md, no CLAUDE.md" sh -c "test -f '$G/AGENTS.md' && test ! -e '$G/CLAUDE.md'"
_run $CLAWMD status -C "$R" main
expect_grep "composed: clean" '^main +clean ' "$T/out"

printf 'my edit\n' >>"$G/AGENTS.md"
_run $CLAWMD status -C "$R" main
expect_grep "a hand edit of AGENTS.md: status says hand-edited" '^main +hand-edited ' "$T/out"
_run $CLAWMD check -C "$R"
expect_grep "... check says CM401 of AGENTS.md" \
	'^groups/main/AGENTS.md:1:1: error: groups/main/AGENTS.md was not written by clawmd \(edited by hand, or a legacy file\) \[CM401\]$' "$T/out"
expect_grep "... its hint names the file compose rewrites" 'and rewrites AGENTS.md$' "$T/out"
check "... and no finding at a CLAUDE.md that is not there" sh -c "! grep -q 'CLAUDE.md:1:1' '$T/out'"
expect_ok "compose moves it aside" $CLAWMD compose -C "$R" main
expect_grep "... as status said" "AGENTS.md was not written by clawmd; moved aside to" "$T/err"

done_testing
