#!/bin/sh
# check and Claude Code's AGENTS.md fallback (2.1.281 on): CM701 for an
# AGENTS.md the default fallback loads, CM702 for one a CLAUDE file
# elsewhere on the walk turns off; quiet where nobody is surprised (a
# CLAUDE.md beside it, an import of it, a release without the fallback).
. "$CLAWMD_TESTS/lib.sh"
TP=$(cd "$T" && pwd -P)
lint() { # DIR [FLAGS...] -> findings in $T/out, status in $st
	d=$1
	shift
	"$CLAWMD" check --no-hints --cwd "$d" "$@" >"$T/out" 2>"$T/err"
	st=$?
}

# An instruction file above the temp directory would join every walk.
above=''
d=$TP
while [ "$d" != / ]; do
	d=$(dirname "$d")
	for n in AGENTS.md CLAUDE.md CLAUDE.local.md .claude; do
		[ -e "$d/$n" ] && above="$d/$n"
	done
done
if [ -n "$above" ]; then
	_report 0 "# SKIP everything: $above is above the temp directory"
	done_testing
fi

# ---- CM701: loaded by the fallback -----------------------------------------
A=$TP/a
mkdir -p "$A/.claude" "$A/docs"
printf 'Run the tests. @docs/more.md\n' >"$A/AGENTS.md"
echo "More." >"$A/docs/more.md"
echo "Also here." >"$A/.claude/AGENTS.md"
lint "$A"
expect_eq "CM701: a note for each AGENTS.md the fallback loads, not for its imports" "$(cat "$T/out")" \
".claude/AGENTS.md:1:1: note: .claude/AGENTS.md loads as project instructions because no CLAUDE.md applies (Claude Code 2.1.281 and later; earlier releases do not read it) [CM701]
AGENTS.md:1:1: note: AGENTS.md loads as project instructions because no CLAUDE.md applies (Claude Code 2.1.281 and later; earlier releases do not read it) [CM701]"
expect_eq "CM701: a note exits 0" "$st" 0
lint "$A" --strict
expect_eq "CM701: --strict exits 1 on it" "$st" 1
"$CLAWMD" check --cwd "$A" --json >"$T/json" 2>/dev/null
expect_ok "CM701 in JSON: code, name, severity" perl -MJSON::PP -e '
	local $/; my $d = decode_json(<STDIN>);
	my @f = grep { $_->{code} eq "CM701" } @{$d->{findings}};
	@f == 2 or die "count";
	$f[0]{name} eq "agents-md-fallback" && $f[0]{severity} eq "note" or die "fields";
	$f[0]{hint} =~ /\@AGENTS\.md/ or die "hint";
' <"$T/json"
"$CLAWMD" check --cwd "$A" --format sarif >"$T/sarif" 2>/dev/null
expect_ok "SARIF: CM701 and CM702 are rules with their page" perl -MJSON::PP -e '
	local $/; my $d = decode_json(<STDIN>);
	my %r = map { $_->{id} => $_ } @{$d->{runs}[0]{tool}{driver}{rules}};
	for my $c ("CM701", "CM702") {
		$r{$c} or die "no $c";
		$r{$c}{fullDescription}{text} =~ /2\.1\.281/ or die "$c description";
	}
' <"$T/sarif"

# ---- quiet: a CLAUDE.md beside it --------------------------------------------
echo "Project CLAUDE.md." >"$A/CLAUDE.md"
lint "$A"
expect_eq "a CLAUDE.md beside the AGENTS.md: nothing to report" "$(cat "$T/out")" ""
rm "$A/CLAUDE.md"
mkdir -p "$A/.claude"
echo "Project .claude/CLAUDE.md." >"$A/.claude/CLAUDE.md"
lint "$A"
expect_eq "a .claude/CLAUDE.md beside it: the same" "$(cat "$T/out")" ""
rm "$A/.claude/CLAUDE.md"

ln -s AGENTS.md "$A/CLAUDE.md"
lint "$A"
expect_eq "CLAUDE.md a symlink to AGENTS.md: its text is sent, nothing to report" "$(cat "$T/out")" ""
rm "$A/CLAUDE.md"

# ---- CM702: turned off by a CLAUDE file elsewhere ----------------------------
echo "Private notes." >"$A/CLAUDE.local.md"
lint "$A"
expect_grep "CM702: a CLAUDE.local.md turns off the AGENTS.md beside it" \
	'^AGENTS\.md:1:1: warning: AGENTS\.md is not loaded: CLAUDE\.local\.md turns off every AGENTS\.md .*\[CM702\]$' "$T/out"
expect_grep "CM702: and the .claude/AGENTS.md" '^\.claude/AGENTS\.md:1:1: warning: .*\[CM702\]$' "$T/out"
expect_eq "CM702: a warning exits 0" "$st" 0
printf 'Private notes.\n@AGENTS.md\n' >"$A/CLAUDE.local.md"
lint "$A"
expect_eq "an AGENTS.md the CLAUDE file imports: only the one not imported" "$(grep -c CM702 "$T/out")" 1
expect_grep "... the .claude/AGENTS.md" '^\.claude/AGENTS\.md:1:1: warning: ' "$T/out"
rm "$A/CLAUDE.local.md"

# A CLAUDE.md above the directory checked: named, relative to it.
U=$TP/up
mkdir -p "$U/proj"
git init -q "$U/proj"
echo "Above the root." >"$U/CLAUDE.md"
echo "Project AGENTS.md." >"$U/proj/AGENTS.md"
lint "$U/proj"
expect_grep "CM702: a CLAUDE.md above the git root turns it off" \
	'^AGENTS\.md:1:1: warning: AGENTS\.md is not loaded: .*up/CLAUDE\.md turns off every AGENTS\.md' "$T/out"
: >"$U/CLAUDE.md"
lint "$U/proj"
expect_grep "an empty CLAUDE.md above does not: CM701" '\[CM701\]$' "$T/out"

# An AGENTS.md with no text: nothing loads, nothing to say.
E=$TP/empty
mkdir -p "$E"
printf '<!-- later -->\n' >"$E/AGENTS.md"
lint "$E"
expect_eq "an AGENTS.md with no text: no finding" "$(cat "$T/out")" ""

# ---- a group: the composed CLAUDE.md is beside its AGENTS.md -----------------
R=$TP/root
make_root "$R"
mkdir -p "$R/groups/main"
"$CLAWMD" compose -q -C "$R" main >/dev/null 2>&1
echo "Written for another agent." >"$R/groups/main/AGENTS.md"
"$CLAWMD" check --no-hints -C "$R" main >"$T/out" 2>"$T/err"
check "a group: its AGENTS.md beside the composed CLAUDE.md is neither finding" \
	sh -c "! grep -q 'CM70[12]' '$T/out'"
rm "$R/groups/main/CLAUDE.md"
"$CLAWMD" check --no-hints -C "$R" main >"$T/out" 2>"$T/err"
expect_grep "a group without its CLAUDE.md: the agent loads AGENTS.md (CM701)" \
	'groups/main/AGENTS\.md:1:1: note: .*\[CM701\]$' "$T/out"
printf '{"claude_version": "2.1.280"}\n' >"$R/clawmd.json"
"$CLAWMD" check --no-hints -C "$R" main >"$T/out" 2>"$T/err"
check "a group on 2.1.280: no AGENTS.md finding (the release never reads it)" \
	sh -c "! grep -q 'CM70[12]' '$T/out'"

done_testing
