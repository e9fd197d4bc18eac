#!/bin/sh
# Round five of attacks (issue 39): container.json read as nanoclaw's
# runner reads it (JSON.parse), in both layouts; entries past the size a
# record kept; the cap ladder with the persona and the omitted note; the
# report's size; mounts' paths; the providers of clawmd.json.
. "$CLAWMD_TESTS/lib.sh"

R=$T/root
G=$R/groups/main
M=$R/container/agent-runner/src/mcp-tools
mkdir -p "$G" "$M" "$R/container/skills/web"
printf '# Base\n\n{{provider-memory-note}}\n' >"$R/container/CLAUDE.md"
printf 'Module text.\n' >"$M/core.instructions.md"
printf 'Web prose.\n' >"$R/container/skills/web/instructions.md"
flat() { printf '{"preset": "nanoclaw", "document": "flat"}\n' >"$R/clawmd.json"; }
imports() { printf '{"preset": "nanoclaw"}\n' >"$R/clawmd.json"; }
fresh() { rm -rf "$G/CLAUDE.md" "$G/AGENTS.md" "$G/.claude-fragments" "$G/.claude-shared.md" "$G/.clawmd-preserved"; }
entries() { ls "$G" | grep -E '^(CLAUDE|AGENTS)\.md$' | tr '\n' ' '; }

# --- 4. one reading of container.json: the runner's ------------------------
# A key given twice: JSON.parse keeps the last, and so does clawmd, with
# a warning; the entry it writes is the one the runner's provider loads.
flat
printf '{"provider":"codex","provider":"claude"}\n' >"$G/container.json"
fresh
expect_ok "flat: provider given twice composes" $CLAWMD compose -C "$R" main
expect_eq "flat: the last provider is the one composed for (claude)" "$(entries)" "CLAUDE.md "
printf '{"provider":"claude","provider":"codex"}\n' >"$G/container.json"
fresh
expect_ok "flat: the reverse composes" $CLAWMD compose -C "$R" main
expect_eq "flat: the last provider is the one composed for (codex)" "$(entries)" "AGENTS.md "
imports
printf '{"provider":"claude","provider":"codex"}\n' >"$G/container.json"
fresh
expect_ok "imports: provider given twice composes" $CLAWMD compose -C "$R" main
expect_grep "imports: the duplicate is warned about" "key 'provider' given more than once; the last one is read" "$T/err"
check "imports: the last provider (codex) gets its AGENTS.md" test -f "$G/AGENTS.md"
printf '{"skills":["web"],"skills":[]}\n' >"$G/container.json"
fresh
expect_ok "imports: skills given twice composes" $CLAWMD compose -C "$R" main
check "imports: the last selection (none) is composed" sh -c "! grep -q 'skill-web' '$G/CLAUDE.md'"

# A provider holding "\u0000": JSON.parse keeps the NUL, so no provider
# matches and the runner starts the default; cJSON alone read "codex".
flat
printf '{"provider":"codex\\u0000evil"}\n' >"$G/container.json"
fresh
expect_ok "flat: a provider holding NUL composes" $CLAWMD compose -C "$R" main
expect_eq "flat: ... for the default runtime, as the runner starts it" "$(entries)" "CLAUDE.md "
imports
fresh
expect_fail 3 "imports: a provider holding NUL is refused" $CLAWMD compose -C "$R" main
expect_grep "imports: ... naming the file" "container.json:1:19: contains a NUL character" "$T/err"

# Unused values nested deeper than cJSON's limit, and a lone surrogate:
# JSON.parse reads the provider beside them; so does clawmd.
deep=$(printf '%1500s' '' | tr ' ' '[')$(printf '%1500s' '' | tr ' ' ']')
for lay in flat imports; do
	$lay
	printf '{"provider":"codex","unused":%s,"note":"\\ud800"}\n' "$deep" >"$G/container.json"
	fresh
	expect_ok "$lay: deep nesting and a lone surrogate beside the provider compose" \
		$CLAWMD compose -C "$R" main
	check "$lay: ... for the provider given (codex)" test -f "$G/AGENTS.md"
done

# Past the reader's 1 MiB: the flat layout reads it as the runner does;
# the import layout refuses it out loud.
python3 -c 'import json; print(json.dumps({"provider": "codex", "pad": "x" * 1100000}))' >"$G/container.json"
flat
fresh
expect_ok "flat: a container.json over 1 MiB composes" $CLAWMD compose -C "$R" main
expect_eq "flat: ... for its provider" "$(entries)" "AGENTS.md "
imports
fresh
expect_fail 3 "imports: a container.json over 1 MiB is refused" $CLAWMD compose -C "$R" main
expect_grep "imports: ... naming it" "container.json' is larger than 1048576 bytes" "$T/err"
rm -f "$G/container.json"

# --- 1. an entry past 1 MiB is still clawmd's own ----------------------------
# The flat document of a config with 1 MB of MCP instructions, and
# OpenCode's AGENTS.md inlining a 1.2 MB CLAUDE.local.md: each composed
# twice is no hand edit, and compose --check then finds nothing to do.
preserved() { ls -A "$G" | grep -c 'clawmd-preserved'; }
flat
python3 -c 'import json; print(json.dumps({"mcpServers": {"big": {"command": "x", "instructions": "line of text\n" * 90000}}}))' >"$G/container.json"
fresh
expect_ok "flat: a 1.1 MB document composes" $CLAWMD compose -C "$R" main
check "flat: ... past 1 MiB" test "$(wc -c <"$G/CLAUDE.md")" -gt 1048576
expect_ok "flat: composed again" $CLAWMD compose -C "$R" main
expect_eq "flat: nothing moved aside" "$(preserved)" 0
expect_ok "flat: compose --check finds nothing to do" $CLAWMD compose --check -C "$R" main
imports
printf '{"provider": "opencode"}\n' >"$G/container.json"
python3 -c 'print("memory line\n" * 110000)' >"$G/CLAUDE.local.md"
fresh
expect_ok "opencode: AGENTS.md inlining a 1.2 MB memory composes" $CLAWMD compose -C "$R" main
check "opencode: ... past 1 MiB" test "$(wc -c <"$G/AGENTS.md")" -gt 1048576
expect_ok "opencode: composed again" $CLAWMD compose -C "$R" main
expect_eq "opencode: nothing moved aside" "$(preserved)" 0
expect_ok "opencode: compose --check finds nothing to do" $CLAWMD compose --check -C "$R" main
rm -f "$G/container.json" "$G/CLAUDE.local.md"

done_testing
