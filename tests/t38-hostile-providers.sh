#!/bin/sh
# Attacks on issue 32's providers and issue 27's record, from the agent
# (container.json, its group) and a careless host (clawmd.json): what
# report, compose and mounts do with them.
. "$CLAWMD_TESTS/lib.sh"

R=$T/root
G=$R/groups/main
mkdir -p "$G" "$R/container/skills/web" "$R/container/agent-runner/src/mcp-tools"
printf '# Base\n\n{{provider-memory-note}}\n\nDone.\n' >"$R/container/CLAUDE.md"
printf 'Web prose.\n' >"$R/container/skills/web/instructions.md"

# report knows the providers of clawmd.json: a group running one is a
# group like any other, not "unreadable: no loader for runtime 10", and
# its title and cap are the contract's (host text, escaped).
printf '{"preset": "nanoclaw", "document": "flat", "providers": {"acme": {"like": "codex", "title": "Acme<b>&", "entry": "AGENTS.md", "cap": 5000}, "codex": {"cap": 4000}}}\n' >"$R/clawmd.json"
printf '{"provider": "acme"}\n' >"$G/container.json"
printf '</pre><script>alert(1)</script>\n' >"$G/instructions.prepend.md"
expect_ok "compose a group of a provider of clawmd.json" $CLAWMD compose -C "$R" main
expect_ok "report on it" $CLAWMD report -C "$R"
cp "$T/out" "$T/page"
check "the group is not unreadable" sh -c "! grep -q 'unreadable</td>' '$T/page'"
expect_grep "the provider column names it" '<td class=provider>acme' "$T/page"
expect_grep "the agent text is under its title, escaped" 'What the agent gets \(Acme&lt;b&gt;&amp;, ' "$T/page"
expect_grep "the cap column is the contract's" '/ 5000 bytes' "$T/page"
expect_grep "the persona is in the page as text" '&lt;/pre&gt;&lt;script&gt;alert' "$T/page"
expect_eq "the page's only script is its own" "$(grep -c '<script' "$T/page")" 1
# a built-in provider whose cap clawmd.json lowered
printf '{"provider": "codex"}\n' >"$G/container.json"
expect_ok "compose a codex group" $CLAWMD compose -C "$R" main
expect_ok "report on it" $CLAWMD report -C "$R"
expect_grep "codex's cap is clawmd.json's" '/ 4000 bytes' "$T/out"
# mock writes no entry: a row all the same
printf '{"provider": "mock"}\n' >"$G/container.json"
expect_ok "compose a mock group" $CLAWMD compose -C "$R" main
expect_ok "report on it" $CLAWMD report -C "$R"
check "the mock group is not unreadable" sh -c "! grep -q 'unreadable</td>' '$T/out'"
check "no (null) entry" sh -c "! grep -q '(null)' '$T/out'"

# The agent's .claude-shared.md is its text where clawmd wrote none (the
# flat layout, no compose yet): going to the imports layout in copy mode
# moves it aside, never overwrites it.  Once clawmd's import entry imports
# it, the name is clawmd's again (a stale copy is simply replaced).
# Symlink mode links the base from .claude-fragments/shared.md: the name is
# the agent's there, left as it is; the stale copy clawmd's copy-mode entry
# imported goes when the group turns to symlink mode.
for mode in copy symlink; do
	rm -rf "$G" && mkdir -p "$G"
	printf '{"preset": "nanoclaw", "document": "flat", "mode": "%s"}\n' $mode >"$R/clawmd.json"
	printf '{}\n' >"$G/container.json"
	expect_ok "$mode: compose flat" $CLAWMD compose -C "$R" main
	printf 'SHARED-MINE\n' >"$G/.claude-shared.md"
	printf '{"preset": "nanoclaw", "document": "imports", "mode": "%s"}\n' $mode >"$R/clawmd.json"
	expect_ok "$mode: compose into the imports layout" $CLAWMD compose -C "$R" main
	if [ $mode = symlink ]; then
		expect_file "symlink: the agent's .claude-shared.md is left as it is" "$G/.claude-shared.md" SHARED-MINE
		check "symlink: nothing set aside" sh -c "! ls -a '$G' | grep -q preserved"
		continue
	fi
	check "$mode: the agent's .claude-shared.md text is kept aside" \
		sh -c "cat '$G'/.claude-shared.md.clawmd-preserved-* | grep -q SHARED-MINE"
	check "$mode: .claude-shared.md is clawmd's now" sh -c "! grep -qs SHARED-MINE '$G/.claude-shared.md'"
	printf 'STALE\n' >"$G/.claude-shared.md.new" && mv "$G/.claude-shared.md.new" "$G/.claude-shared.md"
	expect_ok "$mode: compose over a stale copy" $CLAWMD compose -C "$R" main
	expect_eq "$mode: a stale copy under clawmd's entry is replaced, not kept" \
		"$(ls -a "$G" | grep -c 'claude-shared.md.clawmd-preserved')" 1
	printf 'STALE\n' >"$G/.claude-shared.md.new" && mv "$G/.claude-shared.md.new" "$G/.claude-shared.md"
	printf '{"preset": "nanoclaw", "document": "imports", "mode": "symlink"}\n' >"$R/clawmd.json"
	expect_ok "copy -> symlink over a stale copy" $CLAWMD compose -C "$R" main
	check "... the copy clawmd's entry imported is gone, nothing set aside anew" \
		sh -c "test ! -e '$G/.claude-shared.md' && test \$(ls -a '$G' | grep -c 'claude-shared.md.clawmd-preserved') = 1"
done
rm -rf "$G" && mkdir -p "$G"
printf '{"preset": "nanoclaw"}\n' >"$R/clawmd.json"
printf 'SHARED-FIRST\n' >"$G/.claude-shared.md"
expect_ok "a first compose over an agent's .claude-shared.md" $CLAWMD compose -C "$R" main
check "its text is kept aside" sh -c "cat '$G'/.claude-shared.md.clawmd-preserved-* | grep -q SHARED-FIRST"

# The flat layout never fails on what the agent writes in container.json,
# and never stays silent about it either: a provider that is no name (a
# number, a list, a NUL in it) is a warning naming the key, and the
# default surfaces are composed.
printf '{"preset": "nanoclaw", "document": "flat"}\n' >"$R/clawmd.json"
rm -rf "$G" && mkdir -p "$G"
for bad in '7' '["codex"]' '"a\u0000b"'; do
	printf '{"provider": %s}\n' "$bad" >"$G/container.json"
	expect_ok "flat: provider $bad composes" $CLAWMD compose -C "$R" main
	expect_grep "flat: provider $bad is warned about, naming the file and key" \
		'warning: groups/main/container.json(:[0-9:]+)?: (provider|contains a NUL)' "$T/err"
	check "flat: provider $bad: the default surfaces" test -f "$G/CLAUDE.md"
done

# In the flat layout .claude-fragments is nobody's but the agent's: a
# symlink (to anywhere), a file or a FIFO there is neither followed nor a
# reason to fail a compose that has something to write.
for kind in link-dir link-file dangling file fifo; do
	rm -rf "$G" && mkdir -p "$G"
	printf '{"provider": "codex"}\n' >"$G/container.json"
	expect_ok "flat, $kind: compose" $CLAWMD compose -C "$R" main
	case $kind in
	link-dir) ln -s "$T" "$G/.claude-fragments" ;;
	link-file) ln -s "$R/clawmd.json" "$G/.claude-fragments" ;;
	dangling) ln -s "$T/nowhere" "$G/.claude-fragments" ;;
	file) printf 'agent notes\n' >"$G/.claude-fragments" ;;
	fifo) mkfifo "$G/.claude-fragments" ;;
	esac
	printf 'A new persona.\n' >"$G/instructions.prepend.md"
	expect_ok "flat, $kind at .claude-fragments: a compose with a change exits 0" \
		$CLAWMD compose -C "$R" main
	expect_grep "flat, $kind: the change is written" '^A new persona\.$' "$G/AGENTS.md"
	check "flat, $kind: left where the agent put it" sh -c "test -L '$G/.claude-fragments' || test -e '$G/.claude-fragments'"
done

# a cap of "nan" (a string strtod reads as NaN): refused before any cast
R2=$T/nancap
make_root "$R2"
printf '{"providers": {"codex": {"cap": "%s"}}}\n' nan >"$R2/clawmd.json"
expect_fail 3 "a cap of nan" "$CLAWMD" status -C "$R2"
expect_grep "... names the key and the value" "providers\.codex\.cap: expected a whole number of bytes, 0 to 1073741824 \(0: no cap\), not 'nan'" "$T/err"

done_testing
