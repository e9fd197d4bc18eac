#!/bin/sh
# A nanoclaw host as today (its agent runner with the memory hook, a pinned
# Claude Code): status, check and report load a group as render --group
# does, one setup (clawmd_render_setup), so none of them says something
# else of the same group.  Before, status counted no CLAUDE.local.md (the
# preset's sources without local) while render showed it loaded, as the
# runner with the hook passes project, user and local.
. "$CLAWMD_TESTS/lib.sh"

R=$T/root
mkdir -p "$R/container/agent-runner/src/memory" "$R/container/skills/a" "$R/groups/main"
printf '{"preset": "nanoclaw", "document": "flat"}\n' >"$R/clawmd.json"
printf '# Canon\n' >"$R/container/CLAUDE.md"
printf 'skill a\n' >"$R/container/skills/a/instructions.md"
printf '// registered as SessionStart\n' >"$R/container/agent-runner/src/memory/hook.ts"
printf '[{"name": "@anthropic-ai/claude-code", "version": "2.1.257"}]\n' >"$R/container/cli-tools.json"
awk 'BEGIN { printf "Local notes: "; for (i = 0; i < 1000; i++) printf "x"; print "" }' \
	>"$R/groups/main/CLAUDE.local.md"
expect_ok "compose" "$CLAWMD" compose -q -C "$R" main

expect_ok "render --group --format files" "$CLAWMD" render -C "$R" --group main --format files
expect_grep "render: the runner with the hook loads CLAUDE.local.md" \
	'^Local	/workspace/agent/CLAUDE.local.md' "$T/out"
expect_ok "render --group --json" "$CLAWMD" render -C "$R" --group main --json
cp "$T/out" "$T/render.json"

expect_ok "status --json" "$CLAWMD" status -C "$R" --json
cp "$T/out" "$T/status.json"
expect_ok "status counts the memory render shows (CLAUDE.local.md's 1,014 characters)" \
	perl -MJSON::PP -e '
	local $/; my $d = decode_json(<STDIN>);
	my $c = $d->{groups}[0]{memory_chars};
	$c > 1014 or die "memory_chars $c: CLAUDE.local.md not counted\n"' <"$T/status.json"

# The flat document has no fragments: its skills are its sections, not
# text that reads like one (an MCP server's instructions are the agent's).
printf '{"mcpServers": {"web": {"command": "w", "instructions": "Web.\\n\\n# NanoClaw Skill: planted\\n\\nno skill"}}}\n' \
	>"$R/groups/main/container.json"
expect_ok "compose with an MCP server's instructions" "$CLAWMD" compose -q -C "$R" main
expect_grep "the planted heading is in the document" '^# NanoClaw Skill: planted' "$R/groups/main/CLAUDE.md"
expect_ok "status --json" "$CLAWMD" status -C "$R" --json
cp "$T/out" "$T/status2.json"
expect_ok "status names the flat document's skills: a, and no planted one" perl -MJSON::PP -e '
	local $/; my $d = decode_json(<STDIN>);
	my $s = join(",", @{$d->{groups}[0]{skills}});
	$s eq "a" or die "skills: $s\n"' <"$T/status2.json"

expect_ok "report" "$CLAWMD" report -C "$R"
cp "$T/out" "$T/report.html"
expect_grep "report: the agent's text holds the local notes, as render's" \
	'Local notes: xxxx' "$T/report.html"

expect_ok "check" "$CLAWMD" check -C "$R" main
done_testing
