#!/bin/sh
# check: one tree per finding code under tests/check/ (plus a clean tree that
# triggers none), exit statuses, --json and the SARIF log's structure.
#
# A tree with a groups/ directory is a ROOT checked with --all; any other tree
# is checked with --cwd.  setup.sh (run inside a copy of the tree) composes and
# then breaks what the code is about; `expect` holds the exact text output.
. "$CLAWMD_TESTS/lib.sh"

run_tree() { # DIR -> copies it to $T/w, sets it up, runs check; output in $T/out
	rm -rf "$T/w"
	cp -R "$1" "$T/w"
	rm -f "$T/w/expect"
	if [ -f "$T/w/setup.sh" ]; then
		(cd "$T/w" && CLAWMD=$CLAWMD sh ./setup.sh) >"$T/setup.log" 2>&1 ||
			echo "setup failed: $(cat "$T/setup.log")" >&2
		rm -f "$T/w/setup.sh"
	fi
	if [ -d "$T/w/groups" ]; then
		set -- -C "$T/w" --all
	else
		set -- --cwd "$T/w"
	fi
	"$CLAWMD" check --no-hints "$@" >"$T/out" 2>"$T/err"
}

for d in "$CLAWMD_TESTS"/check/*/; do
	name=$(basename "$d")
	run_tree "$d"
	st=$?
	expect_eq "$name: findings" "$(cat "$T/out")" "$(cat "$d/expect")"
	if grep -q ': error: ' "$d/expect"; then want=1; else want=0; fi
	expect_eq "$name: exit status" "$st" "$want"
	case $name in
	CM*) check "$name: the tree triggers its code" grep -q "\[$name\]\$" "$T/out"
	     check "$name: every line carries a code" sh -c "! grep -v ' \[CM[0-9]*\]\$' '$T/out'" ;;
	clean) expect_eq "clean: only the summary on stderr" "$(cat "$T/err")" \
		"clawmd: 0 errors, 0 warnings, 0 notes in 1 group" ;;
	esac
done

# The rule table: every code has a tree, and a line in doc/check.md.
for code in $(sed -n 's/^- `\(CM[0-9]*\)`.*/\1/p' "$CLAWMD_SRC/doc/check.md"); do
	check "$code has a tree" test -d "$CLAWMD_TESTS/check/$code"
done
n=$(sed -n 's/^- `\(CM[0-9]*\)`.*/\1/p' "$CLAWMD_SRC/doc/check.md" | wc -l)
check "doc/check.md lists the codes" test "$n" -ge 18

# Exit statuses.
W=$T/w
run_tree "$CLAWMD_TESTS/check/CM502"
expect_ok "warnings only: exit 0" "$CLAWMD" check -C "$W" main
expect_fail 1 "warnings only with --strict: exit 1" "$CLAWMD" check --strict -C "$W" main
"$CLAWMD" check --hints -C "$W" main >"$T/out" 2>/dev/null
expect_grep "--hints prints a hint line" '^    hint: fix the globs' "$T/out"
expect_fail 2 "unknown option: exit 2" "$CLAWMD" check -C "$W" --bogus
expect_fail 2 "unknown format: exit 2" "$CLAWMD" check -C "$W" --format xml
expect_fail 2 "--cwd with groups: exit 2" "$CLAWMD" check -C "$W" --cwd "$W" main
expect_fail 2 "--all with groups: exit 2" "$CLAWMD" check -C "$W" --all main
expect_fail 4 "a missing group: exit 4 (as in compose, render and status)" "$CLAWMD" check -C "$W" nosuch
expect_grep "the message names the group" "nosuch" "$T/err"
expect_fail 3 "an unreadable --cwd: exit 3" "$CLAWMD" check --cwd "$T/nonexistent"
mv "$W/container/CLAUDE.md" "$W/container/gone.md"
expect_fail 3 "a missing shared base: exit 3" "$CLAWMD" check -C "$W" main
expect_ok "--help" "$CLAWMD" check --help
expect_grep "--help documents exit statuses" "^Exit status" "$T/out"
expect_grep "--help documents --format" "sarif" "$T/out"

# --approve-external: the symlinked fragments load, so no CM105.
run_tree "$CLAWMD_TESTS/check/CM105"
expect_ok "--approve-external drops CM105" "$CLAWMD" check --approve-external -C "$W" main
expect_eq "--approve-external: no findings" "$(cat "$T/out")" ""

# --json: one document with every field.
run_tree "$CLAWMD_TESTS/check/CM303"
expect_fail 1 "--json exits as text does" "$CLAWMD" check --json --strict -C "$W" main
cp "$T/out" "$T/json"
expect_ok "--json is one document with the finding" perl -MJSON::PP -e '
	local $/; my $d = decode_json(<STDIN>);
	my $f = $d->{findings}[0] or die "no finding";
	$f->{$_} // die "missing $_" for qw(code name severity group file line column message hint);
	$f->{code} eq "CM303" or die "code $f->{code}";
	$f->{file} eq "groups/main/container.json" or die "file $f->{file}";
	$f->{line} == 4 && $f->{column} == 6 or die "at $f->{line}:$f->{column}";
	$d->{summary}{warnings} == 1 or die "summary";' <"$T/json"

# SARIF 2.1.0: what code-scanning tools require.
run_tree "$CLAWMD_TESTS/check/CM101"
"$CLAWMD" check --format sarif -C "$W" main >"$T/sarif" 2>/dev/null
cat >"$T/sarif.pl" <<'PL'
use strict; use warnings; use JSON::PP;
local $/; my $d = decode_json(<STDIN>);
sub need { my ($c, $what) = @_; die "$what\n" unless $c; }
need($d->{version} eq '2.1.0', 'version is 2.1.0');
need(($d->{'$schema'} // '') =~ /sarif-2\.1\.0/, '$schema names SARIF 2.1.0');
need(ref $d->{runs} eq 'ARRAY' && @{$d->{runs}} == 1, 'one run');
my $run = $d->{runs}[0];
my $drv = $run->{tool}{driver} or die "tool.driver\n";
need($drv->{name} eq 'clawmd', 'driver name');
need(defined $drv->{version}, 'driver version');
need(encode_json($drv) !~ m{file:}, 'no file: link in the tool and its rules');
need(ref $drv->{rules} eq 'ARRAY' && @{$drv->{rules}} >= 15, 'driver rules');
my %ids;
for my $r (@{$drv->{rules}}) {
	need(defined $r->{id} && defined $r->{shortDescription}{text}, 'rule id and shortDescription');
	need(length $r->{fullDescription}{text} && length $r->{help}{text} && length $r->{help}{markdown},
	     "rule $r->{id}: fullDescription and help (text, markdown)");
	# The whole help is in the log: what it means, then what to do.
	my $desc = $r->{fullDescription}{text};
	need(index($r->{help}{text}, $desc =~ s/\.$//r) == 0 && $r->{help}{text} =~ /\n\nWhat to do: \S/,
	     "rule $r->{id}: help.text is the description and what to do");
	need($r->{help}{markdown} =~ /^\*\*$r->{id} [a-z-]+\*\* \((error|warning|note)\)\n\n.+\n\n\*\*What to do:\*\* \S/s,
	     "rule $r->{id}: help.markdown names the rule, then the description and what to do");
	need(!exists $r->{helpUri}, "rule $r->{id}: no helpUri (no https page holds the rules)");
	$ids{$r->{id}} = 1;
}
need(ref $run->{results} eq 'ARRAY' && @{$run->{results}} >= 1, 'results');
for my $x (@{$run->{results}}) {
	need($ids{$x->{ruleId}}, "ruleId $x->{ruleId} is a declared rule");
	need($drv->{rules}[$x->{ruleIndex}]{id} eq $x->{ruleId}, 'ruleIndex points at the rule');
	need($x->{level} =~ /^(error|warning|note|none)$/, 'level');
	need(length $x->{message}{text}, 'message.text');
	my $pl = $x->{locations}[0]{physicalLocation} or die "physicalLocation\n";
	need(length $pl->{artifactLocation}{uri}, 'artifactLocation.uri');
	need($pl->{region}{startLine} >= 1 && $pl->{region}{startColumn} >= 1, 'region');
}
my $x = $run->{results}[0];
need($x->{ruleId} eq 'CM101' && $x->{level} eq 'error', 'the CM101 result');
need($x->{locations}[0]{physicalLocation}{artifactLocation}{uri} eq 'groups/main/CLAUDE.local.md', 'uri');
need($x->{locations}[0]{physicalLocation}{region}{startLine} == 2, 'startLine');
print "ok\n";
PL
expect_ok "the SARIF log has what code scanning requires" perl "$T/sarif.pl" <"$T/sarif"
run_tree "$CLAWMD_TESTS/check/clean"
"$CLAWMD" check --format sarif -C "$W" --all >"$T/sarif" 2>/dev/null
expect_ok "a clean SARIF log has an empty results array" perl -MJSON::PP -e '
	local $/; my $d = decode_json(<STDIN>);
	ref $d->{runs}[0]{results} eq "ARRAY" && !@{$d->{runs}[0]{results}} or die' <"$T/sarif"

# Colour: only on a terminal, never with NO_COLOR; hints by default on one.
run_tree "$CLAWMD_TESTS/check/CM303"
esc=$(printf '\033')
check "no escapes in a file" sh -c "! grep -q '$esc' '$T/out'"
if command -v script >/dev/null; then
	env -u NO_COLOR script -qec "'$CLAWMD' check -C '$W' main" /dev/null >"$T/tty" 2>&1
	expect_grep "colour on a terminal" "$esc\[1;33mwarning$esc\[0m: " "$T/tty"
	expect_grep "hints on a terminal" '^    hint: ' "$T/tty"
	NO_COLOR=1 script -qec "'$CLAWMD' check -C '$W' main" /dev/null >"$T/tty" 2>&1
	check "no colour with NO_COLOR, even on a terminal" sh -c "! grep -q '$esc' '$T/tty'"
	expect_grep "NO_COLOR: still the finding" 'warning: skill .ghost.' "$T/tty"
fi
done_testing
