#!/bin/sh
# compose: a group's persona (*.prepend.md, the "persona" key, on with the
# nanoclaw preset), the files the entry imports when present
# ("optional_imports"), and module gating by a "modules" list in
# container.json: order, hostile files, defusing, validation of the keys,
# and the no-op record, which must see a file created after it.
. "$CLAWMD_TESTS/lib.sh"

N=$T/nano
mkdir -p "$N/container/skills/web" "$N/container/agent-runner/src/mcp-tools" "$N/groups/main"
printf 'Base.\n' >"$N/container/CLAUDE.md"
printf 'Use the web skill.\n' >"$N/container/skills/web/instructions.md"
printf 'core\n' >"$N/container/agent-runner/src/mcp-tools/core.instructions.md"
printf '{"preset": "nanoclaw"}\n' >"$N/clawmd.json"
G=$N/groups/main
F=$G/.claude-fragments

# Without persona files: nothing, not even an empty fragment.
expect_ok "compose with the preset, no persona files" $CLAWMD compose -C "$N" main
check "no persona fragment when there is no persona file" test ! -e "$F/persona.md"
expect_eq "the entry starts with the shared base" "$(sed -n 2p "$G/CLAUDE.md")" "@./.claude-shared.md"

# instructions.prepend.md first, then the siblings bytewise; each trimmed,
# blank ones left out, a blank line between; imported before the base.
printf '\n  You are Kai.\n\n' >"$G/instructions.prepend.md"
printf 'Be dry.\n' >"$G/b.prepend.md"
printf 'Answer in English.\n' >"$G/a.prepend.md"
printf ' \n\t\n' >"$G/blank.prepend.md"
printf 'not a persona file\n' >"$G/c.prepend.txt"
expect_ok "compose with persona files" $CLAWMD compose -C "$N" main
expect_file "the persona: instructions first, then the siblings in order" "$F/persona.md" "You are Kai.

Answer in English.

Be dry."
expect_eq "imported first, before the shared base" "$(sed -n 2,3p "$G/CLAUDE.md")" "@./.claude-fragments/persona.md
@./.claude-shared.md"
check "a regular file, not a link" sh -c "[ -f '$F/persona.md' ] && [ ! -L '$F/persona.md' ]"

# Hostile: a symlink (to a file outside the group) and a FIFO are left
# out with a warning, never followed or opened; the rest still composes.
printf 'host secret\n' >"$T/secret"
ln -s "$T/secret" "$G/link.prepend.md"
mkfifo "$G/pipe.prepend.md"
expect_ok "compose with a symlinked and a FIFO persona file" $CLAWMD compose -C "$N" main
check "the symlink's target is not inlined" sh -c "! grep -q 'host secret' '$F/persona.md'"
expect_grep "the symlink is named in a warning" "link.prepend.md.*left out of the persona" "$T/err"
expect_grep "the FIFO is named in a warning" "pipe.prepend.md.*left out of the persona" "$T/err"
expect_grep "the rest is still there" "^Be dry\.$" "$F/persona.md"
rm "$G/link.prepend.md" "$G/pipe.prepend.md"

# A live import in a persona file is defused, as in inline MCP instructions.
printf 'You are Kai.\n@/etc/passwd\n' >"$G/instructions.prepend.md"
expect_ok "compose with an import in the persona" $CLAWMD compose -C "$N" main
expect_grep "the import is defused (a code span)" '^`@/etc/passwd`$' "$F/persona.md"
$CLAWMD render -C "$N" --group main --format files --home "$T/nohome" --managed-dir "$T/nomanaged" >"$T/out"
check "render: /etc/passwd is not loaded" sh -c "! grep -q /etc/passwd '$T/out'"
expect_grep "render: the persona loads from the entry" \
	'^Project	/workspace/agent/.claude-fragments/persona.md	/workspace/agent/CLAUDE.md$' "$T/out"

# Kept across composes: a second compose changes nothing.
snap() { ls -li --time-style=+%s.%N "$F" "$G"; }
before=$(snap)
expect_ok "a second compose" $CLAWMD compose -C "$N" main
expect_eq "the persona is kept as it is (same inodes, same times)" "$(snap)" "$before"

# All persona files gone: the fragment and its import go too.
rm "$G"/*.prepend.md
expect_ok "compose without persona files" $CLAWMD compose -C "$N" main
check "the persona fragment is removed" test ! -e "$F/persona.md"
check "and its import" sh -c "! grep -q persona '$G/CLAUDE.md'"

# "persona": false turns it off; the default preset has it off.
printf 'You are Kai.\n' >"$G/instructions.prepend.md"
printf '{"preset": "nanoclaw", "persona": false}\n' >"$N/clawmd.json"
expect_ok "compose with persona off" $CLAWMD compose -C "$N" main
check "persona off: no fragment" test ! -e "$F/persona.md"

# optional_imports: the configured files present, in the configured order,
# after the MCP fragments and before CLAUDE.local.md; a symlink is not one.
printf '{"preset": "nanoclaw", "optional_imports": ["facts.md", "CLAUDE.role.md", "tasks.md"]}\n' >"$N/clawmd.json"
printf 'facts\n' >"$G/facts.md"
printf 'role\n' >"$G/CLAUDE.role.md"
ln -s "$T/secret" "$G/tasks.md"
expect_ok "compose with optional imports" $CLAWMD compose -C "$N" main
expect_eq "present files in the configured order; the symlink is not imported" \
	"$(tail -n 3 "$G/CLAUDE.md")" "@./facts.md
@./CLAUDE.role.md
@./CLAUDE.local.md"
rm "$G/tasks.md"
printf '{"preset": "nanoclaw", "optional_imports": []}\n' >"$N/clawmd.json"
expect_ok "an empty list imports none" $CLAWMD compose -C "$N" main
check "not even CLAUDE.role.md" sh -c "! grep -q 'CLAUDE.role.md' '$G/CLAUDE.md'"
printf '{"preset": "nanoclaw"}\n' >"$N/clawmd.json"
expect_ok "without the key: CLAUDE.role.md as before" $CLAWMD compose -C "$N" main
expect_grep "the role file is imported" '^@\./CLAUDE\.role\.md$' "$G/CLAUDE.md"
check "facts.md is not" sh -c "! grep -q facts '$G/CLAUDE.md'"

# Bad values: exit 3, the key named, nothing written.
snapshot=$(ls -liR --time-style=+%s.%N "$G")
bad() { # NAME JSON PATTERN
	printf '%s\n' "$2" >"$N/clawmd.json"
	expect_fail 3 "$1" $CLAWMD compose -C "$N" main
	expect_grep "$1: the key is named" "$3" "$T/err"
}
bad "optional_imports not an array" '{"optional_imports": "CLAUDE.role.md"}' \
	"clawmd.json: optional_imports: expected an array, each a file name"
bad "a path in optional_imports" '{"optional_imports": ["../../etc/passwd"]}' \
	"clawmd.json: optional_imports\[0\]: expected a file name of the group"
bad "a hidden name in optional_imports" '{"optional_imports": ["a.md", ".env"]}' \
	"clawmd.json: optional_imports\[1\]: expected a file name"
bad "a non-string in optional_imports" '{"optional_imports": [1]}' \
	"clawmd.json: optional_imports\[0\]: expected a file name"
bad "a name clawmd owns" '{"optional_imports": ["CLAUDE.md"]}' \
	"clawmd.json: optional_imports: 'CLAUDE.md' is a name clawmd owns"
bad "a persona file" '{"optional_imports": ["x.prepend.md"]}' \
	"clawmd.json: optional_imports: 'x.prepend.md' is a persona file"
bad "a name listed twice" '{"optional_imports": ["a.md", "a.md"]}' \
	"clawmd.json: optional_imports: 'a.md' is listed twice"
bad "persona not a boolean" '{"persona": "maybe"}' \
	"clawmd.json: persona: expected true or false, not 'maybe'"
expect_eq "nothing written by any of them" "$(ls -liR --time-style=+%s.%N "$G")" "$snapshot"
printf '{"preset": "nanoclaw", "optional_imports": ["facts.md", "CLAUDE.role.md"]}\n' >"$N/clawmd.json"

# Module gating: "modules" in container.json selects as "skills" does;
# cli_scope "disabled" still drops cli and scheduling from the list.
printf 'cli\n' >"$N/container/agent-runner/src/mcp-tools/cli.instructions.md"
printf 'sched\n' >"$N/container/agent-runner/src/mcp-tools/scheduling.instructions.md"
printf '{"modules": ["scheduling", "cli", "ghost"]}\n' >"$G/container.json"
expect_ok "compose with a modules list" $CLAWMD compose -C "$N" main
expect_eq "only the listed modules, in bytewise order" \
	"$(grep module- "$G/CLAUDE.md")" "@./.claude-fragments/module-cli.md
@./.claude-fragments/module-scheduling.md"
check "the unlisted module's fragment is gone" test ! -e "$F/module-core.md"
expect_grep "an unknown module is a warning naming it" \
	"container.json: modules: unknown module 'ghost'" "$T/err"
printf '{"modules": ["scheduling", "cli", "core"], "cli_scope": "disabled"}\n' >"$G/container.json"
expect_ok "compose with a modules list and cli_scope disabled" $CLAWMD compose -C "$N" main
expect_eq "cli_scope disabled wins over the list" "$(grep module- "$G/CLAUDE.md")" \
	"@./.claude-fragments/module-core.md"
printf '{"modules": "some"}\n' >"$G/container.json"
before=$(ls -liR --time-style=+%s.%N "$G")
expect_fail 3 "a modules value that is neither \"all\" nor a list" $CLAWMD compose -C "$N" main
expect_grep "the key is named" 'container.json: modules: expected "all" or an array of names' "$T/err"
expect_eq "nothing written" "$(ls -liR --time-style=+%s.%N "$G")" "$before"
printf '{"modules": "all"}\n' >"$G/container.json"
expect_ok "modules all" $CLAWMD compose -C "$N" main
expect_eq "every module again" "$(grep -c module- "$G/CLAUDE.md")" 3
rm "$G/container.json"

# The no-op record: once a no-op is recorded, a file created afterwards
# (an optional import, a persona file) must still be seen by the next
# compose.  Compose until the record exists (it is only written for inputs
# clearly older than the compose).
has_record() { [ "$(tail -c +4097 "$N/.clawmd/locks/main" 2>/dev/null | head -c 6)" = clawmd ]; }
settle() { # a record of the current state: any older one goes first
	_i=0
	rm -f "$N/.clawmd/locks/main"
	$CLAWMD compose -q -C "$N" main 2>/dev/null
	while ! has_record && [ $_i -lt 50 ]; do
		sleep 0.1
		$CLAWMD compose -q -C "$N" main 2>/dev/null
		_i=$((_i + 1))
	done
	has_record
}
rm -f "$G/facts.md" "$G"/*.prepend.md
check "a no-op is recorded" settle
printf 'facts\n' >"$G/facts.md"
expect_ok "compose after facts.md appeared" $CLAWMD compose -C "$N" main
expect_grep "the record did not hide the new optional import" '^@\./facts\.md$' "$G/CLAUDE.md"
check "recorded again" settle
printf 'Be brief.\n' >"$G/style.prepend.md"
expect_ok "compose after a persona file appeared" $CLAWMD compose -C "$N" main
expect_file "the record did not hide the new persona file" "$F/persona.md" "Be brief."
check "recorded again" settle
printf 'Be very brief.\n' >"$G/style.prepend.md.new"
mv "$G/style.prepend.md.new" "$G/style.prepend.md"
expect_ok "compose after the persona file was replaced" $CLAWMD compose -C "$N" main
expect_file "the record did not hide the edit" "$F/persona.md" "Be very brief."
check "recorded again" settle
rm "$G/CLAUDE.role.md"
expect_ok "compose after the role file was removed" $CLAWMD compose -C "$N" main
check "its import is gone" sh -c "! grep -q 'CLAUDE.role.md' '$G/CLAUDE.md'"

done_testing
