#!/bin/sh
# The no-op record never vouches for a stale plan: attacks on what it
# records (issue 27's record of the plan's inputs, issue 32's providers
# and flat document).  Each case: a compose, one change the plan depends
# on, then a compose that must apply it and a --check that agrees.
. "$CLAWMD_TESTS/lib.sh"

R=$T/root
G=$R/groups/main
mkdir -p "$G/memory" "$R/container/skills/web" "$R/container/agent-runner/src/mcp-tools"
printf '# Base\n\n{{provider-memory-note}}\n\nDone.\n' >"$R/container/CLAUDE.md"
printf 'Web prose.\n' >"$R/container/skills/web/instructions.md"
printf '{}\n' >"$G/container.json"
has_record() { [ "$(tail -c +4097 "$R/.clawmd/locks/main" 2>/dev/null | head -c 6)" = clawmd ]; }
# Compose until a no-op record is written (only a compose whose inputs
# were last changed clearly before it began writes one), so that the
# compose after the change is one the record could wrongly skip.
settle() {
	_i=0
	$CLAWMD compose -C "$R" main 2>/dev/null
	while ! has_record && [ $_i -lt 5 ]; do
		age_out
		$CLAWMD compose -C "$R" main 2>/dev/null
		_i=$((_i + 1))
	done
	has_record
}
cj() { printf '{"preset": "nanoclaw", "document": "flat", "providers": {"claude": %s}}\n' "$1" >"$R/clawmd.json"; }

# Every field of a provider's contract reaches the flat document or the
# warnings: each is part of what the record is keyed by.
# (a discovery path makes the native-skills section)
for field in 'home' 'source' 'discovery' 'roots'; do
	cj "{\"skills\": {\"discovery\": \"/d\", \"$field\": \"/x/one\"}}"
	check "compose with providers.claude.skills.$field one, recorded" settle
	expect_grep "skills.$field one is in the document" '/x/one' "$G/CLAUDE.md"
	cj "{\"skills\": {\"discovery\": \"/d\", \"$field\": \"/x/two\"}}"
	expect_ok "compose after providers.claude.skills.$field changed" $CLAWMD compose -C "$R" main
	expect_grep "skills.$field two is in the document (the record was not trusted)" '/x/two' "$G/CLAUDE.md"
	expect_ok "and --check agrees" $CLAWMD compose --check -C "$R" main
done
cj '{"skills": {"discovery": "/d", "inlined": false}}'
check "compose with skills.inlined false, recorded" settle
check "no inlined-skills sentence" sh -c "! grep -q 'ships an .instructions.md. instead' '$G/CLAUDE.md'"
cj '{"skills": {"discovery": "/d", "inlined": true}}'
expect_ok "compose with skills.inlined true" $CLAWMD compose -C "$R" main
expect_grep "the inlined-skills sentence is there" 'ships an .instructions.md. instead' "$G/CLAUDE.md"

done_testing
