#!/bin/sh
# The flat document's no-op on a plain handle (the record checked by
# stats, issue 32): each skill it inlined is looked at once, from the skills
# directory opened once for all of them (the record's facts carry that
# directory as their base), never by its whole path; and what such a
# look could miss is still seen: a skill edited in place, a skill added,
# the skills directory swapped for a symlink to another tree, a skill's
# directory swapped for another.
. "$CLAWMD_TESTS/lib.sh"

R=$T/root
G=$R/groups/main
S=$R/container/skills
mkdir -p "$G" "$R/container/agent-runner/src/mcp-tools"
printf '# Base\n' >"$R/container/CLAUDE.md"
printf 'Core.\n' >"$R/container/agent-runner/src/mcp-tools/core.instructions.md"
for s in alpha beta gamma; do mkdir -p "$S/$s" && printf 'Skill %s.\n' "$s" >"$S/$s/instructions.md"; done
printf '{"preset": "nanoclaw", "document": "flat"}\n' >"$R/clawmd.json"
printf '{}\n' >"$G/container.json"
D=$G/CLAUDE.md
# the no-op record, after the lock file's first 4096 bytes (the ownership region)
has_record() { [ "$(tail -c +4097 "$R/.clawmd/locks/main" 2>/dev/null | head -c 6)" = clawmd ]; }
compose() { $CLAWMD compose -C "$R" main >"$T/out" 2>"$T/err"; }
# compose until the no-op's record is written (the inputs aged out)
settle() {
	_i=0
	compose
	while ! has_record && [ $_i -lt 5 ]; do age_out; compose; _i=$((_i + 1)); done
	has_record
}

check "the first compose, then the record" settle
expect_grep "alpha inlined" '^Skill alpha\.$' "$D"

if command -v strace >/dev/null 2>&1 && strace -f -o /dev/null true 2>/dev/null; then
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	strace -f -o "$T/trace" -e trace=%file,%desc $CLAWMD compose -C "$R" main >"$T/out" 2>"$T/err"
	expect_eq "a no-op: nothing changed" "$(cat "$T/out")" ""
	expect_eq "a no-op: each skill looked at once, from the skills directory" \
		"$(grep -cE 'stat.*[(][0-9]+, "(alpha|beta|gamma)/instructions\.md"' "$T/trace")" 3
	expect_eq "a no-op: no skill looked at by its whole path" \
		"$(grep -cE "stat.*\"$S/(alpha|beta|gamma)/instructions\.md\"" "$T/trace")" 0
	expect_eq "a no-op: the skills directory opened once" \
		"$(grep -cE "open.*\"$S\".*O_DIRECTORY" "$T/trace")" 1
	expect_eq "a no-op: no skill opened" "$(grep -cE 'open.*instructions\.md' "$T/trace")" 0
	unset ASAN_OPTIONS
else
	for i in 1 2 3 4 5; do _report 0 "# SKIP strace unavailable"; done
fi

# Each change the looks from the skills directory must still see.
printf 'Skill alpha, edited.\n' >"$S/alpha/instructions.md"
expect_ok "a skill edited in place: compose" compose
expect_grep "... the edit is in the document" '^Skill alpha, edited\.$' "$D"
check "... and the record again" settle

mkdir "$S/delta" && printf 'Skill delta.\n' >"$S/delta/instructions.md"
expect_ok "a skill added: compose" compose
expect_grep "... it is in the document" '^Skill delta\.$' "$D"
check "... and the record again" settle

mkdir -p "$T/other/beta"
for s in alpha beta gamma delta; do mkdir -p "$T/other/$s" && printf 'Other %s.\n' "$s" >"$T/other/$s/instructions.md"; done
mv "$S" "$R/container/skills.old" && ln -s "$T/other" "$S"
expect_ok "the skills directory swapped for a symlink to another tree: compose" compose
expect_grep "... the other tree's text" '^Other beta\.$' "$D"
check "... the old text gone" sh -c "! grep -q '^Skill beta' '$D'"
check "... and the record again" settle

mkdir -p "$T/beta2" && printf 'Beta, swapped.\n' >"$T/beta2/instructions.md"
mv "$T/other/beta" "$T/beta.old" && mv "$T/beta2" "$T/other/beta"
expect_ok "a skill's directory swapped for another: compose" compose
expect_grep "... the new directory's text" '^Beta, swapped\.$' "$D"

done_testing
