#!/bin/sh
# render and Claude Code's AGENTS.md fallback (2.1.281 on; doc/render.md,
# "AGENTS.md").  Every e2e case tests/e2e/agents-* is rebuilt here on the
# host, rendered for each release it was run on, and compared byte for byte
# with the string that release really sent (tests/e2e/expected/<case>/
# <release>.txt): no Claude Code, no root, no network.  Then what the
# strings do not show: the files and JSON formats, --instruction-files, the
# settings file's edge cases, and the setting sources.
. "$CLAWMD_TESTS/lib.sh"
E2E=$CLAWMD_TESTS/e2e
TP=$(cd "$T" && pwd -P)

# An instruction file above the temp directory would join every walk.
above=''
d=$TP
while [ "$d" != / ]; do
	d=$(dirname "$d")
	for n in AGENTS.md CLAUDE.md CLAUDE.local.md .claude; do
		[ -e "$d/$n" ] && above="$d/$n"
	done
done

# ---- the e2e cases, replayed on the host ----------------------------------
ncases=0
for cdir in "$E2E"/agents-*/; do
	c=${cdir%/}
	c=${c##*/}
	kind='' cwd=. mounts='' render_args='' claude_args='' desc='' overlay=''
	. "$cdir/case"
	ncases=$((ncases + 1))
	if [ "$kind" != tree ]; then
		_report 1 "$c: a plain tree" "kind=$kind"
		continue
	fi
	root=$TP/$c
	mkdir -p "$root"
	(cd "$root" && ROOT=$root CT_ROOT=$root sh -e "$cdir/setup.sh") >"$T/setup.out" 2>&1 ||
		{ _report 1 "$c: setup" "$(cat "$T/setup.out")"; continue; }
	n=0
	for exp in "$E2E/expected/$c"/*.txt; do
		[ -f "$exp" ] || continue
		case $exp in */readdir.txt) continue ;; esac
		n=$((n + 1))
		v=${exp##*/}
		v=${v%.txt}
		name="$c $v: $desc"
		if [ -n "$above" ]; then
			_report 0 "# SKIP $name ($above is above the temp directory)"
			continue
		fi
		# the container's paths are the tree's here
		R=$root perl -0pe 's/\@ROOT\@/$ENV{R}/g; s{/e2e-home}{$ENV{R}/home}g;
			s{/etc/claude-code}{$ENV{R}/managed}g' "$exp" >"$T/want"
		# shellcheck disable=SC2086
		"$CLAWMD" render --cwd "$root/$cwd" --home "$root/home" --managed-dir "$root/managed" \
			--claude-version "$v" $render_args >"$T/got" 2>"$T/err"
		st=$?
		if [ $st = 0 ] && cmp -s "$T/got" "$T/want"; then
			_report 0 "$name"
		else
			_report 1 "$name" "exit $st $(head -c 500 "$T/err")
$(diff "$T/want" "$T/got" | head -n 20)"
		fi
	done
	check "$c: strings pinned by real runs on 2.1.88, 2.1.280, 2.1.281 and the newest" test "$n" -ge 4
done
check "the AGENTS.md cases are all here" test "$ncases" -ge 18

# ---- the files and JSON formats -------------------------------------------
I=$TP/agents-imports
expect_ok "--format files: AGENTS.md and its imports, as Project" \
	"$CLAWMD" render --cwd "$I/proj" --home "$TP/nohome" --format files --claude-version 2.1.332
expect_eq "--format files: in the order sent, each import under its parent" "$(cat "$T/out")" \
	"Project	$I/proj/AGENTS.md	-
Project	$I/proj/docs/style.md	$I/proj/AGENTS.md
Project	$I/proj/docs/deep.md	$I/proj/docs/style.md
Project	$I/proj/.claude/AGENTS.md	-
Project	$I/proj/docs/testing.md	$I/proj/.claude/AGENTS.md
Project	$I/proj/docs/extra.md	$I/proj/.claude/AGENTS.md"
expect_ok "--format json" "$CLAWMD" render --cwd "$I/proj" --home "$TP/nohome" --json --claude-version 2.1.332
json_strict "$T/out"
cp "$T/out" "$T/json"
expect_ok "json: the mode, the AGENTS.md files and the imports" perl -MJSON::PP -e '
	local $/; my $d = decode_json(<STDIN>);
	$d->{instruction_files} eq "claude-md-or-agents-md" or die "mode $d->{instruction_files}";
	my @a = @{$d->{agents_md}};
	@a == 2 && $a[0]{loaded} && $a[1]{loaded} or die "agents_md";
	$a[0]{path} =~ m{/proj/AGENTS\.md$} && $a[1]{path} =~ m{/proj/\.claude/AGENTS\.md$} or die "paths";
	defined $d->{agents_md_off_by} and die "off_by";
	my %st = map { $_->{import} => $_->{status} } @{$d->{imports}};
	$st{"./docs/style.md"} eq "loaded" or die "style";
	$st{"docs/testing.md."} eq "missing" or die "testing.";
	$st{"../outside/far.md"} eq "external and not approved" or die "far";
	$st{"./docs/in-code.md"} eq "inside code" or die "in code";
	scalar(grep { $_->{path} =~ /AGENTS/ } @{$d->{files}}) == 2 or die "files";
	# the approval prompt lists what getMemoryFiles loads, not the module
	@{$d->{external_includes}} == 0 or die "external_includes";
' <"$T/json"
B=$TP/agents-claude-below
expect_ok "json: what turned the fallback off" \
	"$CLAWMD" render --cwd "$B/proj/sub" --home "$TP/nohome" --json --claude-version 2.1.332
cp "$T/out" "$T/json"
expect_ok "json: the AGENTS.md not loaded, and the CLAUDE.md that turned it off" perl -MJSON::PP -e '
	local $/; my $d = decode_json(<STDIN>);
	my @a = @{$d->{agents_md}};
	@a == 1 && !$a[0]{loaded} or die "agents_md";
	$d->{agents_md_off_by} =~ m{/proj/sub/CLAUDE\.md$} or die "off_by";
' <"$T/json"
expect_ok "json: before 2.1.281 no mode at all" \
	"$CLAWMD" render --cwd "$B/proj/sub" --home "$TP/nohome" --json --claude-version 2.1.280
expect_grep "json: instruction_files is null" '"instruction_files":[[:space:]]*null' "$T/out"

# ---- --instruction-files and the settings file ------------------------------
S=$TP/settings
mkdir -p "$S/p/.claude" "$S/home/.claude"
git init -q "$S/p"
echo "Project CLAUDE.md." >"$S/p/CLAUDE.md"
echo "Project AGENTS.md." >"$S/p/AGENTS.md"
echo "Managed CLAUDE.md." >"$S/home/managed.md"
files() { # FLAGS... -> the paths loaded, one a line, relative to $S
	"$CLAWMD" render --cwd "$S/p" --home "$S/home" --managed-dir "$S/m" --format files "$@" |
		cut -f2 | sed "s|^$S/||"
}
setting() { # KEY OPTIONS [KEY2 OPTIONS2]: the module's options in the user's settings
	if [ $# -gt 2 ]; then
		echo "{\"pluginConfigs\":{\"$1\":{\"options\":$2},\"$3\":{\"options\":$4}}}"
	else
		echo "{\"pluginConfigs\":{\"$1\":{\"options\":$2}}}"
	fi >"$S/home/.claude/settings.json"
}
both="p/CLAUDE.md
p/AGENTS.md"
expect_eq "default: CLAUDE.md alone" "$(files)" "p/CLAUDE.md"
expect_eq "--instruction-files claude-md-and-agents-md" \
	"$(files --instruction-files claude-md-and-agents-md)" "$both"
expect_eq "--instruction-files managed-only: nothing (no managed file here)" \
	"$(files --instruction-files managed-only)" ""
setting cc-plugin-agents-md@builtin '{"instructionFiles":"claude-md-and-agents-md"}'
expect_eq "settings: instructionFiles" "$(files)" "$both"
expect_eq "--instruction-files wins over the settings" "$(files --instruction-files claude-md)" "p/CLAUDE.md"
expect_eq "settings: the new key is not read before 2.1.285" "$(files --claude-version 2.1.284)" "p/CLAUDE.md"
setting agents-md@builtin '{"instructionFiles":"claude-md-and-agents-md"}'
expect_eq "settings: not read before 2.1.281" "$(files --claude-version 2.1.280)" "p/CLAUDE.md"
expect_eq "settings: the first key is read on 2.1.281" "$(files --claude-version 2.1.281)" "$both"
expect_eq "settings: and still on the newest" "$(files --claude-version 2.1.332)" "$both"
setting cc-plugin-agents-md@builtin '{"instructionFiles":"claude-md"}' \
	agents-md@builtin '{"instructionFiles":"claude-md-and-agents-md"}'
expect_eq "settings: the new key wins from 2.1.285" "$(files --claude-version 2.1.332)" "p/CLAUDE.md"
expect_eq "settings: the first key alone before" "$(files --claude-version 2.1.284)" "$both"
setting cc-plugin-agents-md@builtin '{"instructionFiles":"agents-md"}'
expect_eq "settings: an unknown value is the default" "$(files)" "p/CLAUDE.md"
setting cc-plugin-agents-md@builtin '{"instructionFiles":7}'
expect_eq "settings: a value that is not a string is the default" "$(files)" "p/CLAUDE.md"
setting cc-plugin-agents-md@builtin '{"projectInstructions":"both"}'
expect_eq "settings: projectInstructions both (the older option)" "$(files)" "$both"
setting cc-plugin-agents-md@builtin '{"instructionFiles":"agents-md","projectInstructions":"both"}'
expect_eq "settings: projectInstructions counts while instructionFiles is the default" "$(files)" "$both"
setting cc-plugin-agents-md@builtin '{"instructionFiles":"claude-md","projectInstructions":"both"}'
expect_eq "settings: instructionFiles set wins over projectInstructions" "$(files)" "p/CLAUDE.md"
echo '{"pluginConfigs":{"cc-plugin-agents-md@builtin":{"options":{"projectInstructions":"whatever"}}}}' \
	>"$S/home/.claude/settings.json"
rm "$S/p/CLAUDE.md"
expect_eq "settings: an unknown projectInstructions is claude-md" "$(files)" ""
echo '{"pluginConfigs":{"cc-plugin-agents-md@builtin":{"options":{"projectInstructions":"none"}}}}' \
	>"$S/home/.claude/settings.json"
expect_eq "settings: projectInstructions none is managed-only" "$(files)" ""
echo '{"enabledPlugins":{"cc-plugin-agents-md@builtin":false}}' >"$S/home/.claude/settings.json"
expect_eq "settings: the module disabled: no AGENTS.md" "$(files)" ""
expect_eq "settings: ... under its name of the release: not before 2.1.285" \
	"$(files --claude-version 2.1.284)" "p/AGENTS.md"
echo '{"enabledPlugins":{"agents-md@builtin":false}}' >"$S/home/.claude/settings.json"
expect_eq "settings: the first name disables it on 2.1.284" "$(files --claude-version 2.1.284)" ""
echo '{"enabledPlugins":{"cc-plugin-agents-md@builtin":true}}' >"$S/home/.claude/settings.json"
expect_eq "settings: enabled: the default" "$(files)" "p/AGENTS.md"
echo '{"pluginConfigs":' >"$S/home/.claude/settings.json"
expect_ok "settings: a file that is not JSON sets nothing" "$CLAWMD" render --cwd "$S/p" \
	--home "$S/home" --managed-dir "$S/m" --format files
expect_eq "settings: ... the default applies" "$(cut -f2 "$T/out" | sed "s|^$S/||")" "p/AGENTS.md"
mkfifo "$S/home/.claude/fifo"
rm "$S/home/.claude/settings.json"
ln -s fifo "$S/home/.claude/settings.json"
expect_ok "settings: a FIFO is never opened" timeout 10 "$CLAWMD" render --cwd "$S/p" \
	--home "$S/home" --managed-dir "$S/m" --format files
rm "$S/home/.claude/settings.json"
echo '{"pluginConfigs":{"cc-plugin-agents-md@builtin":{"options":{"instructionFiles":"claude-md"}}}}' \
	>"$S/home/.claude/settings.json"
expect_eq "--setting-sources project: the user's settings are not read" \
	"$(files --setting-sources project)" "p/AGENTS.md"
expect_eq "--setting-sources user,local: no project files, no AGENTS.md" \
	"$(files --setting-sources user,local --instruction-files claude-md-and-agents-md)" ""
expect_fail 2 "--instruction-files: an unknown mode is a usage error" \
	"$CLAWMD" render --cwd "$S/p" --instruction-files both
expect_grep "... naming the flag and the modes" \
	"--instruction-files: expected claude-md, claude-md-or-agents-md, claude-md-and-agents-md or managed-only, not 'both'" \
	"$T/err"
expect_ok "--help documents --instruction-files" "$CLAWMD" render --help
expect_grep "--help: the modes" "claude-md-and-agents-md" "$T/out"

# ---- what turns the fallback off ------------------------------------------
F=$TP/off
mkdir -p "$F/p/sub"
git init -q "$F/p"
echo "Project AGENTS.md." >"$F/p/AGENTS.md"
echo "Private." >"$F/p/sub/CLAUDE.local.md"
expect_eq "a CLAUDE.local.md the setting sources leave unloaded still turns it off" \
	"$("$CLAWMD" render --cwd "$F/p/sub" --home "$TP/nohome" --setting-sources project,user \
		--format files)" ""
expect_eq "... and loaded, it alone is sent" \
	"$("$CLAWMD" render --cwd "$F/p/sub" --home "$TP/nohome" --format files | cut -f2)" \
	"$F/p/sub/CLAUDE.local.md"
rm "$F/p/sub/CLAUDE.local.md"
printf -- '---\npaths: x\n---\n' >"$F/p/sub/CLAUDE.md"
expect_eq "a CLAUDE.md with no text does not" \
	"$("$CLAWMD" render --cwd "$F/p/sub" --home "$TP/nohome" --format files | cut -f2)" "$F/p/AGENTS.md"
printf 'See @../AGENTS.md\n' >"$F/p/sub/CLAUDE.md"
expect_eq "an AGENTS.md a CLAUDE.md imports loads once, as its import" \
	"$("$CLAWMD" render --cwd "$F/p/sub" --home "$TP/nohome" --approve-external --format files |
		cut -f2)" \
	"$F/p/sub/CLAUDE.md
$F/p/AGENTS.md"

done_testing
