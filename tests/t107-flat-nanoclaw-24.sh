#!/bin/sh
# The flat document as nanoclaw 2.4 writes it, from the command line: the
# persona as nanoclaw's src/group-persona.ts reads it (every *.prepend.md,
# instructions.prepend.md first), the @ directives the agent wrote made
# inert, a pre-contract spec's base and sections (a provider's base and
# sections keys), Cursor's dot-file override, and OpenCode on nanoclaw's
# CLAUDE.md (doc/nanoclaw.md).
. "$CLAWMD_TESTS/lib.sh"

R=$T/root
G=$R/groups/main
H='<!-- Composed at spawn - do not edit. Standing instructions: instructions.prepend.md. Memory: memory/. -->'

# 1. The persona: instructions.prepend.md, then the others in JavaScript's
# order, each trimmed, the empty ones out, joined by a blank line; a symlink
# is warned about, a FIFO passed over, neither read.
make_flat_root "$R"
printf '\n  First.  \n' >"$G/instructions.prepend.md"
printf 'Zed.\n' >"$G/z.prepend.md"
printf 'Bee.\n' >"$G/B.prepend.md"
printf ' \n' >"$G/blank.prepend.md"
printf 'Space.\n' >"$G/with space.prepend.md"
printf 'Hidden.\n' >"$G/.hidden.prepend.md"
printf 'Dot.\n' >"$G/.prepend.md"
printf 'OUTSIDE-SECRET\n' >"$T/secret"
ln -s "$T/secret" "$G/link.prepend.md"
mkfifo "$G/pipe.prepend.md"
expect_ok "compose" timeout 20 "$CLAWMD" compose -C "$R" main
expect_eq "the persona: every file, in nanoclaw's order" \
	"$(sed -n '/^# Persona$/,/^# NanoClaw Runtime Contract$/p' "$G/CLAUDE.md")" \
	"$(printf '# Persona\n\nFirst.\n\nHidden.\n\nDot.\n\nBee.\n\nSpace.\n\nZed.\n\n# NanoClaw Runtime Contract')"
check "... nothing through the symlink" sh -c "! grep -q OUTSIDE-SECRET '$G/CLAUDE.md'"
expect_grep "... which is warned about" "link.prepend.md: could not read the standing instructions" "$T/err"
check "... and the FIFO passed over quietly" sh -c "! grep -q pipe.prepend.md '$T/err'"
rm -f "$G/link.prepend.md" "$G/pipe.prepend.md"
expect_ok "a new sibling persona" sh -c "printf 'Ant.\n' >'$G/a.prepend.md' && '$CLAWMD' compose -C '$R' main"
expect_grep "... is seen at the next compose" '^Ant\.$' "$G/CLAUDE.md"
expect_eq "... and the document starts with nanoclaw's header" "$(head -1 "$G/CLAUDE.md")" "$H"

# A NUL the agent wrote stays where it is, as nanoclaw keeps it.
printf 'Before\000after.\n' >"$G/instructions.prepend.md"
rm -f "$G"/[!i]*.prepend.md "$G"/.*.prepend.md "$G/.prepend.md"
expect_ok "a persona holding a NUL" "$CLAWMD" compose -C "$R" main
check "... is written whole" sh -c "tr '\\000' '|' <'$G/CLAUDE.md' | grep -q '^Before|after\.\$'"
expect_ok "... and the next compose is a no-op" "$CLAWMD" compose --check -C "$R" main

# 2. What the agent wrote never imports: the persona's and the MCP
# instructions' directives defused, said, and the rest byte for byte.
rm -f "$G"/*.prepend.md "$G"/.*.prepend.md "$G/.prepend.md"
printf 'Read @./notes/secret.md first.\n' >"$G/instructions.prepend.md"
printf '{"mcpServers": {"s": {"command": "s", "instructions": "Never read\\n@~/.ssh/id_rsa"}}}\n' >"$G/container.json"
expect_ok "compose with @ directives" "$CLAWMD" compose -C "$R" main
expect_grep "the persona's directive is inert" '^Read `@./notes/secret.md` first\.$' "$G/CLAUDE.md"
expect_grep "... and the server's" '^`@~/.ssh/id_rsa`$' "$G/CLAUDE.md"
check "no line starts with @" sh -c "! grep -q '^@' '$G/CLAUDE.md'"
expect_grep "... and compose says so" "defused 2 @ directive" "$T/err"
expect_ok "render --group" "$CLAWMD" render -C "$R" --group main --format files
check "... loads the entry alone" sh -c "! grep -q 'secret.md\|id_rsa' '$T/out'"

# 3. A pre-contract spec: its base inlined as written, its sections kept,
# never dropped, after the contract.
cat >"$R/clawmd.json" <<'EOF'
{"preset": "nanoclaw", "document": "flat",
 "providers": {"legacy": {"like": "claude", "entry": "AGENTS.md", "base": "legacy.md", "cap": 1,
   "overrides": [".cursorrules", "CLAUDE.local.md"],
   "sections": [{"name": "Memory System", "body": "  Keep notes.\n"}, {"name": "Empty", "body": " "}]}}}
EOF
printf 'Legacy rules.\n\n{{provider-memory-note}}\n' >"$R/legacy.md"
rm -f "$G"/*.prepend.md
printf '{"provider": "legacy"}\n' >"$G/container.json"
expect_ok "compose a legacy spec" "$CLAWMD" compose -C "$R" main
expect_eq "its document" "$(cat "$G/AGENTS.md")" "$(printf '%s\n\n# NanoClaw Runtime Contract\n\nLegacy rules.\n\n{{provider-memory-note}}\n\n# Memory System\n\nKeep notes.\n\n# Omitted for size\n\nThese instruction sections were omitted to fit the project-document size cap: NanoClaw Skill: web. Their tools still work; consult each tool'"'"'s own description.' "$H")"
rm "$R/legacy.md"
expect_ok "a legacy base that is gone" "$CLAWMD" compose -C "$R" main
expect_grep "... is the usual warning, naming it" "composed without its base document .'legacy.md' is missing." "$T/err"
for bad in '"sections": [{"name": "x", "body": 7}]' '"sections": {"name": "x"}' '"overrides": [".."]' \
	'"overrides": ["a/b"]'; do
	printf '{"preset": "nanoclaw", "document": "flat", "providers": {"legacy": {%s}}}\n' "$bad" >"$R/clawmd.json"
	expect_fail 3 "clawmd.json providers.legacy {$bad} refused" "$CLAWMD" compose -C "$R" main
	expect_grep "... naming the key" "providers.legacy.(sections|overrides): expected" "$T/err"
done

# 4. Cursor's override files, dot-file first, in the memory note.
printf '{"preset": "nanoclaw", "document": "flat"}\n' >"$R/clawmd.json"
printf 'Base.\n\n{{provider-memory-note}}\n' >"$R/container/CLAUDE.md"
printf '{"provider": "cursor"}\n' >"$G/container.json"
expect_ok "compose a Cursor group" "$CLAWMD" compose -C "$R" main
expect_grep "its memory note names .cursorrules" '^Do not use `.cursorrules` or `CLAUDE.md` or `CLAUDE.local.md` for memory\.$' "$G/AGENTS.md"

# 5. OpenCode in the nanoclaw preset: Claude's CLAUDE.md, every part inlined
# (it follows no import), in either layout; no AGENTS.md.
printf '{"preset": "nanoclaw"}\n' >"$R/clawmd.json"
printf '{"provider": "opencode"}\n' >"$G/container.json"
rm -f "$G/AGENTS.md"
expect_ok "compose an OpenCode group, import layout" "$CLAWMD" compose -C "$R" main
check "its CLAUDE.md holds the base itself" grep -q '^Base\.$' "$G/CLAUDE.md"
check "... and no import" sh -c "! grep -q '^@' '$G/CLAUDE.md'"
check "... and no AGENTS.md" test ! -e "$G/AGENTS.md"
expect_ok "compose --check" "$CLAWMD" compose --check -C "$R" main
printf '{"preset": "nanoclaw", "document": "flat"}\n' >"$R/clawmd.json"
expect_ok "the flat layout" "$CLAWMD" compose -C "$R" main
expect_eq "... nanoclaw's CLAUDE.md" "$(head -1 "$G/CLAUDE.md")" "$H"
check "... and no AGENTS.md" test ! -e "$G/AGENTS.md"
done_testing
