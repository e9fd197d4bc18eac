#!/bin/sh
# compose: the composed entry, fragment order, the no-op guarantee, preserving
# hand-written content, and stale fragments.
. "$CLAWMD_TESTS/lib.sh"

R=$T/root
make_root "$R"
# These cases are about the symlink layout; copy mode (the default) is in t13.
printf '{"mode": "symlink"}\n' >"$R/clawmd.json"
make_skill "$R" beta
make_skill "$R" alpha
make_skill "$R" Zulu
make_skill "$R" noinstr no
mkdir -p "$R/mods" "$R/groups/g"
for m in cli scheduling web; do echo "module $m" >"$R/mods/$m.instructions.md"; done
cat >"$R/groups/g/container.json" <<'J'
{"mcpServers": {"zeta": {"instructions": "Zeta server."}, "alpha": {"instructions": "Alpha."},
 "noinst": {"command": "x"}}, "unknown_key": [1, 2]}
J
echo role >"$R/groups/g/CLAUDE.role.md"

expect_ok "compose a fresh group" $CLAWMD compose -C "$R" --modules mods g
G=$R/groups/g
expect_eq "entry imports in contract order (bytewise within each kind)" \
	"$(tail -n +2 "$G/CLAUDE.md")" "@./.claude-fragments/shared.md
@./.claude-fragments/skill-Zulu.md
@./.claude-fragments/skill-alpha.md
@./.claude-fragments/skill-beta.md
@./.claude-fragments/module-cli.md
@./.claude-fragments/module-scheduling.md
@./.claude-fragments/module-web.md
@./.claude-fragments/mcp-alpha.md
@./.claude-fragments/mcp-zeta.md
@./CLAUDE.role.md"
expect_grep "first line is the header comment" '^<!-- Composed at spawn .* clawmd:fnv1a64=[0-9a-f]{16} -->$' "$G/CLAUDE.md"
expect_eq "shared base is a symlink to the container path, inside .claude-fragments" \
	"$(readlink "$G/.claude-fragments/shared.md")" /app/CLAUDE.md
check "no link in the group itself (the agent could replace it; a runner mounts .claude-fragments read-only)" \
	sh -c "test ! -e '$G/.claude-shared.md' && test ! -L '$G/.claude-shared.md'"
# A group composed by an earlier clawmd (or nanoclaw 2.0) in symlink mode:
# its entry imports .claude-shared.md, a link beside it.  The next compose
# moves to the link in .claude-fragments and removes the old one; nothing
# is carried or set aside.
cp "$G/CLAUDE.md" "$T/entry.now"
{ echo "<!-- Composed at spawn — do not edit. Edit CLAUDE.local.md for per-group content. -->"
  echo "@./.claude-shared.md"; echo "@./.claude-fragments/skill-alpha.md"; } >"$G/CLAUDE.md"
ln -s /app/CLAUDE.md "$G/.claude-shared.md"
expect_ok "compose over the old symlink layout" $CLAWMD compose -C "$R" --modules mods g
check "... the old link is gone" sh -c "test ! -L '$G/.claude-shared.md'"
expect_eq "... the entry is today's" "$(cat "$G/CLAUDE.md")" "$(cat "$T/entry.now")"
check "... nothing set aside, nothing carried" \
	sh -c "! ls -A '$G' | grep -q preserved && ! grep -qs claude-shared '$G/CLAUDE.local.md'"
expect_eq "skill fragment targets the container path" \
	"$(readlink "$G/.claude-fragments/skill-alpha.md")" /app/skills/alpha/instructions.md
expect_eq "module fragment targets the container path" \
	"$(readlink "$G/.claude-fragments/module-web.md")" /app/src/mcp-tools/web.instructions.md
check "mcp fragment is a regular file" test -f "$G/.claude-fragments/mcp-zeta.md" -a ! -L "$G/.claude-fragments/mcp-zeta.md"
expect_file "mcp fragment holds the instructions" "$G/.claude-fragments/mcp-zeta.md" "Zeta server."
check "no fragment for a server without instructions" test ! -e "$G/.claude-fragments/mcp-noinst.md"
check "no fragment for a skill without instructions.md" test ! -e "$G/.claude-fragments/skill-noinstr.md"
check "CLAUDE.local.md created empty" test -f "$G/CLAUDE.local.md" -a ! -s "$G/CLAUDE.local.md"

# The no-op guarantee: nothing is written, not even a rename.
snap() { (cd "$G" && find . -printf '%p %i %T@ %s\n' | sort); }
before=$(snap)
sleep 0.01
expect_ok "second compose succeeds" $CLAWMD compose -C "$R" --modules mods g
expect_eq "second compose changes nothing (inodes, mtimes)" "$(snap)" "$before"
expect_ok "compose --check is clean after compose" $CLAWMD compose -C "$R" --modules mods --check g
expect_eq "--check prints nothing when clean" "$(cat "$T/out")" ""

# cli_scope disabled drops the cli and scheduling modules.
printf '{"cli_scope": "disabled"}' >"$G/container.json"
expect_ok "compose with cli_scope disabled" $CLAWMD compose -C "$R" --modules mods g
check "cli module dropped" test ! -e "$G/.claude-fragments/module-cli.md"
check "scheduling module dropped" test ! -e "$G/.claude-fragments/module-scheduling.md"
check "other modules stay" test -L "$G/.claude-fragments/module-web.md"
check "stale mcp fragments removed" test ! -e "$G/.claude-fragments/mcp-zeta.md"
check "the entry no longer imports them" sh -c "! grep -q 'mcp-\|module-cli' '$G/CLAUDE.md'"

# A skill list: only those, an unknown one warns.
printf '{"skills": ["beta", "ghost", "noinstr"]}' >"$G/container.json"
expect_ok "compose with a skill list" $CLAWMD compose -C "$R" g
expect_grep "unknown skill is a warning naming it" "unknown skill 'ghost'" "$T/err"
check "listed skill present" test -L "$G/.claude-fragments/skill-beta.md"
check "unlisted skill removed" test ! -e "$G/.claude-fragments/skill-alpha.md"
check "modules gone without --modules" test ! -e "$G/.claude-fragments/module-web.md"
printf '{"skills": "all"}' >"$G/container.json"
expect_ok "compose with skills all" $CLAWMD compose -C "$R" g
check "all: every skill with instructions" test -L "$G/.claude-fragments/skill-Zulu.md" -a -L "$G/.claude-fragments/skill-alpha.md"

# Fragments clawmd does not own are left alone.
echo mine >"$G/.claude-fragments/notes.md"
mkdir "$G/.claude-fragments/skill-dir.md"
expect_ok "compose with foreign entries in fragments" $CLAWMD compose -C "$R" g
check "foreign file kept" test -f "$G/.claude-fragments/notes.md"
check "directory in a fragment name kept" test -d "$G/.claude-fragments/skill-dir.md"

# A hand edit is preserved: into CLAUDE.local.md when empty, else aside.
echo "my own notes" >>"$G/CLAUDE.md"
expect_ok "compose after a hand edit" $CLAWMD compose -C "$R" g
expect_grep "hand edit moved into the empty CLAUDE.local.md" "my own notes" "$G/CLAUDE.local.md"
expect_grep "warning says where it went" "its text is now the group.s memory, .*CLAUDE.local.md" "$T/err"
expect_ok "entry rewritten" $CLAWMD compose -C "$R" --check g
echo "second edit" >>"$G/CLAUDE.md"
expect_ok "compose after a hand edit with CLAUDE.local.md in use" $CLAWMD compose -C "$R" g
q=$(ls "$G" | grep '^CLAUDE.md.clawmd-preserved-' | head -n 1)
check "hand edit quarantined inside the group" test -n "$q"
expect_grep "quarantined copy has the edit" "second edit" "$G/$q"
expect_grep "CLAUDE.local.md untouched" "my own notes" "$G/CLAUDE.local.md"

# CLAUDE.role.md only when present; --import-local adds CLAUDE.local.md.
rm "$G/CLAUDE.role.md"
expect_ok "compose without a role" $CLAWMD compose -C "$R" --import-local g
check "role import gone" sh -c "! grep -q CLAUDE.role.md '$G/CLAUDE.md'"
expect_eq "import-local is the last import" "$(tail -n 1 "$G/CLAUDE.md")" "@./CLAUDE.local.md"

# Usage errors.
expect_fail 2 "no group is a usage error" $CLAWMD compose -C "$R"
expect_fail 2 "unknown option is a usage error" $CLAWMD compose -C "$R" --bogus g
expect_fail 2 "bad --mode is a usage error" $CLAWMD compose -C "$R" --mode hardlink g
expect_ok "--help" $CLAWMD compose --help
expect_grep "--help documents exit statuses" "Exit status" "$T/out"
done_testing
