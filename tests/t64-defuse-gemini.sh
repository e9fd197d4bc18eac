#!/bin/sh
# Inline MCP instructions and the persona are defused by the rules of every
# runtime that reads the file (issue 28 item 6): @ lines that Claude Code
# leaves alone (in a ~~~ fence, an HTML block or comment, an indented block)
# are imports to Gemini CLI, which then read the group's notes and memory
# through the fragment.  Composed for claude and gemini, render --group with
# --runtime gemini imports nothing of them; the model still reads the text.
. "$CLAWMD_TESTS/lib.sh"

R=$T/root
make_root "$R"
printf '{}\n' >"$R/clawmd.json"
G=$R/groups/main
mkdir -p "$G/notes"
printf 'MEMORY-OF-MAIN\n' >"$G/CLAUDE.local.md"
printf 'NOTES-SECRET\n' >"$G/notes/a.md"
printf 'GROUP-NOTES\n' >"$G/notes/b.md"
python3 - "$G/container.json" <<'PY'
import json, sys
instr = "\n".join([
    "Read the docs.",
    "~~~",
    "@../notes/a.md",
    "~~~",
    "<!-- @../CLAUDE.local.md -->",
    "<div>",
    "@../notes/b.md",
    "</div>",
    "",
    "para",
    "",
    "    @../CLAUDE.local.md",
    "",
    "Keep @ in mind.",
])
json.dump({"runtimes": ["claude", "gemini"],
           "mcpServers": {"docs": {"command": "d", "instructions": instr}}}, open(sys.argv[1], "w"))
PY
expect_ok "compose for claude and gemini" "$CLAWMD" -C "$R" --mode copy compose main
expect_grep "... says it defused the directives" "defused [0-9]+ @ directive" "$T/err"
F=$G/.claude-fragments/mcp-docs.md
check "the fragment still holds the text the model reads" grep -q "notes/a.md" "$F"
for rt in gemini claude; do
	expect_ok "render --group main --runtime $rt" "$CLAWMD" -C "$R" render --group main --runtime $rt --format json
	check "... imports nothing through the fragment" sh -c "! grep -q 'mcp-docs.md\",' '$T/out' || ! python3 -c '
import json,sys
d=json.load(open(\"$T/out\"))
sys.exit(0 if any(i[\"from\"].endswith(\"mcp-docs.md\") and i[\"status\"]==\"loaded\" for i in d[\"imports\"]) else 1)'"
	"$CLAWMD" -C "$R" render --group main --runtime $rt >"$T/text" 2>/dev/null
	check "... no notes reach the $rt prompt" sh -c "! grep -q -e NOTES-SECRET -e GROUP-NOTES '$T/text'"
done
# The memory loads once, where the entry imports it, not a second time
# through the fragment.
"$CLAWMD" -C "$R" render --group main --runtime gemini >"$T/text" 2>/dev/null
expect_eq "gemini: the memory once" "$(grep -c MEMORY-OF-MAIN "$T/text")" "1"

done_testing
