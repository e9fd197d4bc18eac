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
# The flat document of a 1.1 MB persona (or as much MCP instructions in a
# config the flat layout reads past 1 MiB), and OpenCode's AGENTS.md
# inlining a 1.2 MB CLAUDE.local.md: each composed twice is no hand edit,
# and compose --check then finds nothing to do.
preserved() { ls -A "$G" | grep -c 'clawmd-preserved'; }
flat
rm -f "$G/container.json"
python3 -c 'print("line of text\n" * 90000)' >"$G/instructions.prepend.md"
fresh
expect_ok "flat: a 1.1 MB document composes" $CLAWMD compose -C "$R" main
check "flat: ... past 1 MiB" test "$(wc -c <"$G/CLAUDE.md")" -gt 1048576
expect_ok "flat: composed again" $CLAWMD compose -C "$R" main
expect_eq "flat: nothing moved aside" "$(preserved)" 0
expect_ok "flat: compose --check finds nothing to do" $CLAWMD compose --check -C "$R" main
rm -f "$G/instructions.prepend.md"
printf '{}\n' >"$R/clawmd.json" # the default layout: OpenCode's AGENTS.md, inlined
printf '{"provider": "opencode"}\n' >"$G/container.json"
python3 -c 'print("memory line\n" * 110000)' >"$G/CLAUDE.local.md"
fresh
expect_ok "opencode: AGENTS.md inlining a 1.2 MB memory composes" $CLAWMD compose -C "$R" main
check "opencode: ... past 1 MiB" test "$(wc -c <"$G/AGENTS.md")" -gt 1048576
expect_ok "opencode: composed again" $CLAWMD compose -C "$R" main
expect_eq "opencode: nothing moved aside" "$(preserved)" 0
expect_ok "opencode: compose --check finds nothing to do" $CLAWMD compose --check -C "$R" main
rm -f "$G/container.json" "$G/CLAUDE.local.md"

# --- 2. the persona past the loader's cap ------------------------------------
# Flat: a 4.4 MB instructions.prepend.md.  Claude Code skips a CLAUDE.md
# past 4 MiB whole, so the document is cut to the cap: the persona's end
# goes, said in the document, the warning and check; the base stays.
rm -f "$G/container.json"
flat
python3 -c 'print("persona line\n" * 340000)' >"$G/instructions.prepend.md"
fresh
expect_ok "flat: a 4.4 MB persona composes" $CLAWMD compose -C "$R" main
check "flat: CLAUDE.md within Claude Code's 4 MiB" test "$(wc -c <"$G/CLAUDE.md")" -le 4194304
expect_grep "flat: the base is still there" '^# NanoClaw Runtime Contract$' "$G/CLAUDE.md"
expect_grep "flat: the document says what was cut" '^\[The last [0-9]+ bytes of this section were cut to fit the project-document size cap\.\]$' "$G/CLAUDE.md"
expect_grep "flat: the warning says what the agent does not see" "past its cap of 4194304 with nothing left to drop: cut the last [0-9]+ of the [0-9]+ bytes of 'Persona'" "$T/err"
expect_fail 0 "flat: check" $CLAWMD check -C "$R" main
expect_grep "flat: check says it too (CM604)" "cut to fit the size its runtime loads: the last [0-9]+ bytes of the section 'Persona' \[CM604\]" "$T/out"
expect_ok "flat: composed again" $CLAWMD compose -C "$R" main
expect_eq "flat: nothing moved aside" "$(preserved)" 0
rm -f "$G/instructions.prepend.md"

# Imports: persona files past 4 MiB together: those that would pass it
# are left out (Claude Code would skip the whole fragment), named.
imports
for i in 01 02 03 04 05 06 07 08 09 10 11 12 13 14 15 16 17 18 19 20; do
	python3 -c "print('persona $i line\n' * 15000)" >"$G/p$i.prepend.md"
done
fresh
expect_ok "imports: 5 MB of persona files compose" $CLAWMD compose -C "$R" main
check "imports: persona.md within Claude Code's 4 MiB" test "$(wc -c <"$G/.claude-fragments/persona.md")" -le 4194304
expect_grep "imports: the warning names a file left out" "p20.prepend.md: left out of the persona: with it the persona would pass the 4194304 bytes Claude Code loads" "$T/err"
expect_fail 0 "imports: check" $CLAWMD check -C "$R" main
expect_grep "imports: check names it too (CM604)" "p20.prepend.md: left out of the persona.*\[CM604\]" "$T/out"
rm -f "$G"/p*.prepend.md

# --- 3. the "Omitted for size" note is bounded -------------------------------
# 21,000 tiny MCP servers for Codex (flat), 1,024 in the import layout:
# the note names the first few and counts the rest; AGENTS.md fits.
flat
python3 -c 'import json; print(json.dumps({"provider": "codex", "mcpServers": {"s%05d" % i: {"command": "x", "instructions": "t"} for i in range(21000)}}))' >"$G/container.json"
fresh
expect_ok "flat: 21,000 MCP servers compose" $CLAWMD compose -C "$R" main
check "flat: AGENTS.md within Codex's 32 KiB" test "$(wc -c <"$G/AGENTS.md")" -le 32768
expect_grep "flat: the note counts what it does not name" 'MCP Server: s[0-9]+, and [0-9]+ more\. Their tools still work' "$G/AGENTS.md"
imports
python3 -c 'import json; print(json.dumps({"provider": "codex", "mcpServers": {"server-number-%05d" % i: {"command": "x", "instructions": "t"} for i in range(1024)}}))' >"$G/container.json"
fresh
expect_ok "imports: 1,024 MCP servers compose" $CLAWMD compose -C "$R" main
check "imports: AGENTS.md within Codex's 32 KiB" test "$(wc -c <"$G/AGENTS.md")" -le 32768
expect_grep "imports: the note counts what it does not name" 'instructions, and [0-9]+ more\. Their tools still work' "$G/AGENTS.md"
rm -f "$G/container.json"

# --- 7. report: the page bounded by what is on disk ---------------------------
# CLAUDE.local.md importing 20 sparse files of 4 MiB - 1 (about 28 KB on
# disk): the page shows the first 256 KiB of the text, a run of NULs as one
# span, and counts the rest.
imports
: >"$G/CLAUDE.local.md"
for i in 01 02 03 04 05 06 07 08 09 10 11 12 13 14 15 16 17 18 19 20; do
	truncate -s 4194303 "$G/n$i.md"
	echo "@./n$i.md" >>"$G/CLAUDE.local.md"
done
fresh
$CLAWMD compose -C "$R" main 2>/dev/null
$CLAWMD report -C "$R" main >"$T/page.html" 2>"$T/err"
expect_eq "report: exit 0" "$?" 0
check "report: the page is under 1 MB" test "$(wc -c <"$T/page.html")" -lt 1000000
expect_grep "report: a run of NULs is one span" '<span class=esc>\\x00&#215;[0-9]+</span>' "$T/page.html"
expect_grep "report: the rest is counted, render named" '[0-9]+ more bytes not shown here: <code>clawmd render --group main</code>' "$T/page.html"
rm -f "$G"/n*.md "$G/CLAUDE.local.md"

# --- 10. providers in clawmd.json --------------------------------------------
# A name holding NUL is refused (cJSON read it as "codex", with its cap);
# a container_path over the agent's files, the base, or above the group
# is refused naming the key; one outside every mount is taken.
echo '{}' >"$G/container.json"
printf '{"preset": "nanoclaw", "providers": {"codex\\u0000evil": {"cap": 5}}}\n' >"$R/clawmd.json"
expect_fail 3 "providers: a name holding NUL is refused" $CLAWMD compose -C "$R" main
expect_grep "... naming the file" 'clawmd.json:1: a NUL character' "$T/err"
for p in /workspace/agent/CLAUDE.local.md /workspace/agent/container.json /app/CLAUDE.md /workspace /; do
	printf '{"preset": "nanoclaw", "providers": {"x": {"like": "codex", "container_path": "%s"}}}\n' "$p" >"$R/clawmd.json"
	expect_fail 3 "providers: container_path $p is refused" $CLAWMD mounts -C "$R" main
	expect_grep "... naming the key" "providers\.x\.container_path: '$p' is " "$T/err"
done
printf '{"preset": "nanoclaw", "providers": {"x": {"like": "gemini", "container_path": "/etc/x"}, "y": {"like": "codex", "container_path": "/etc/x/AGENTS.md"}}}\n' >"$R/clawmd.json"
expect_fail 3 "providers: two entries at nested paths are refused" $CLAWMD mounts -C "$R" main
expect_grep "... naming both" "providers\.y\.container_path: '/etc/x/AGENTS.md' collides with providers\.x\.container_path '/etc/x'" "$T/err"
printf '{"preset": "nanoclaw", "providers": {"x": {"like": "codex", "container_path": "/etc/codex/AGENTS.md"}}}\n' >"$R/clawmd.json"
printf '{"provider": "x"}\n' >"$G/container.json"
$CLAWMD compose -C "$R" main 2>/dev/null
expect_ok "providers: a container_path no mount holds is taken" $CLAWMD mounts -C "$R" main
expect_grep "... and mounted there" '/etc/codex/AGENTS.md' "$T/out"
rm -f "$G/container.json"
imports

# --- 8. mounts: no YAML line break in a path ------------------------------------
# A ROOT whose name holds U+0085, U+2028 or U+2029 followed by spaces: a
# YAML 1.1 parser reads another path; refused with the way out.
for cp in 0085 2028 2029; do
	case $cp in 0085) ch='\302\205' ;; 2028) ch='\342\200\250' ;; 2029) ch='\342\200\251' ;; esac
	R2=$T/$(printf "r${ch}  x")
	rm -rf "$R2"
	mkdir -p "$R2/groups/main" "$R2/container/skills"
	printf '# Base\n' >"$R2/container/CLAUDE.md"
	printf '{"preset": "nanoclaw"}\n' >"$R2/clawmd.json"
	$CLAWMD compose -C "$R2" main 2>/dev/null
	for f in kubernetes docker; do
		expect_fail 3 "mounts --format $f refuses a ROOT holding U+$cp" \
			$CLAWMD mounts -C "$R2" --format $f main
		expect_grep "... saying why" 'a control character, a line separator or invalid UTF-8 in the path: use --format json' "$T/err"
	done
	expect_ok "mounts --format json carries U+$cp" $CLAWMD mounts -C "$R2" --format json main
done

# --- suspected: the pod template ---------------------------------------------------
# Its record container's command, run as the template has it (clawmd the
# image's, the volumes here): a failing render fails it; a good one
# prints render's digest.  Its state volume is no emptyDir.
pod=$CLAWMD_TESTS/../contrib/kubernetes/pod.yaml
pcmd=$(sed -n 's/^ *command: \["sh", "-c", "\(.*\)"\] *$/\1/p' "$pod" | head -n1)
mkdir -p "$T/bin"
ln -sf "$CLAWMD" "$T/bin/clawmd"
pcmd=$(printf '%s' "$pcmd" | sed "s#-C /layout#-C $R#; s#--groups /groups#--groups $R/groups#; s#--state /state#--state $T/state#")
imports
fresh
$CLAWMD compose -C "$R" main 2>/dev/null
got=$(PATH=$T/bin:$PATH sh -c "$pcmd" 2>/dev/null)
expect_eq "pod: the record command prints render's digest" "$got" "$($CLAWMD render -C "$R" --preset nanoclaw --mode copy --group main 2>/dev/null | sha256sum)"
mv "$G" "$G.away"
expect_fail 4 "pod: the record command fails when render fails (a missing group)" env PATH="$T/bin:$PATH" sh -c "$pcmd"
mv "$G.away" "$G"
check "pod: the state volume is no emptyDir (two pods of a group share its lock)" \
	sh -c "! sed -n '/- name: clawmd-state *#/,/- name:/p' '$pod' | grep -q '^ *emptyDir:'"
# podman kube play deletes init containers once they ran, and runs them
# at the first start only, unless the pod says always (make e2e plays it:
# scripts/e2e/podman.sh)
check "pod: podman kube play keeps the init containers and runs them at every start (the annotation)" \
	grep -qx '    io.podman.annotations.init.container.type: always' "$pod"

done_testing
