#!/bin/sh
# The SARIF log passes the real SARIF Multitool (Microsoft's validator, from
# npm: @microsoft/sarif-multitool and its linux platform package) with its
# default rule set and its GitHub ingestion rules (--rule-kind Gh): no error
# and no warning but the missing informationUri (see validate).  The install
# is cached in the repository's build/ (one for every build directory: make
# check runs this test against build/ and build/san at once, so the install
# holds a lock); the test is skipped only when npm cannot reach its registry.
. "$CLAWMD_TESTS/lib.sh"

CACHE=$CLAWMD_SRC/build/sarif-multitool
MT=$CACHE/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool
mkdir -p "$CACHE"
exec 8>"$CACHE.lock"
flock -x 8
if [ ! -f "$MT" ]; then
	if ! command -v npm >/dev/null || ! timeout 30 npm ping >/dev/null 2>&1; then
		echo "1..0 # SKIP npm or its registry is unreachable"
		exit 0
	fi
	timeout 600 npm install --no-audit --no-fund --silent --prefix "$CACHE" \
		@microsoft/sarif-multitool >"$T/npm.log" 2>&1 ||
		{ _report 1 "npm install @microsoft/sarif-multitool" "$(tail -20 "$T/npm.log")"; done_testing; }
fi
exec 8>&-
chmod u+x "$MT" 2>/dev/null
check "the Multitool is installed" test -x "$MT"

# A fleet with findings of many rules, an unreadable group (a tool
# execution notification) and an agent-written file name.
R=$T/root
make_root "$R"
make_skill "$R" alpha
mkdir -p "$R/groups/main" "$R/groups/ops" "$R/groups/bad"
printf '{ "mode": "symlink", "grups": "x" }\n' >"$R/clawmd.json"
"$CLAWMD" compose -q -C "$R" main ops
printf '@./missing.md\n@./pic.png\n' >"$R/groups/main/CLAUDE.local.md"
: >"$R/groups/main/pic.png"
printf '{ "skils": ["alpha"], "mcpServers": { "s": { "instructions": "see @./x.md" } } }\n' \
	>"$R/groups/ops/container.json"
printf '{ "skills": ["../x"] }\n' >"$R/groups/bad/container.json"
mkdir -p "$R/groups/ops/.claude/rules"
printf -- '---\npaths: [\n---\nx\n' >"$R/groups/ops/.claude/rules/a b%%.md"
echo "hand" >>"$R/groups/main/CLAUDE.md"

validate() { # NAME SARIF [--rule-kind Gh]
	_name=$1 _log=$2
	shift 2
	(cd "$T" && $HANG_GUARD "$MT" validate "$_log" -o "$T/v.sarif" --log ForceOverwrite "$@") \
		>"$T/mt.out" 2>&1
	expect_ok "$_name" perl -MJSON::PP -e '
		local $/; open my $f, "<", $ARGV[0] or die "no validation log\n";
		my $d = decode_json(<$f>); my @bad;
		for my $r (@{$d->{runs}[0]{results} // []}) {
			my $lvl = $r->{level} // "warning";
			# The one accepted warning: the tool has no informationUri,
			# because no https page documents clawmd (a file:// link would
			# name the machine that wrote the log; the rules carry their
			# whole help instead).  Add the link when such a page exists.
			next if $r->{ruleId} eq "SARIF2005"
				&& ($r->{message}{id} // "") eq "Warning_ProvideToolnformationUri";
			push @bad, "$lvl $r->{ruleId}: " . encode_json($r->{message}) . " at " . encode_json($r->{locations})
				if $lvl eq "error" || $lvl eq "warning";
		}
		my $inv = $d->{runs}[0]{invocations}[0];
		push @bad, "the Multitool did not run" unless $inv && $inv->{executionSuccessful};
		die join("\n", @bad) . "\n" if @bad;' "$T/v.sarif"
}

"$CLAWMD" check --format sarif -C "$R" >"$T/fleet.sarif" 2>/dev/null
check "the fleet has findings of several rules" sh -c "test \$(grep -c '\"ruleId\"' '$T/fleet.sarif') -ge 6"
validate "a fleet's log passes the default rules" "$T/fleet.sarif"
validate "... and GitHub's ingestion rules (--rule-kind Gh)" "$T/fleet.sarif" --rule-kind Gh
"$CLAWMD" check --format sarif -C "$R" main nosuch >"$T/fail.sarif" 2>/dev/null
validate "a run that could not start (a missing group) still gives a valid log" "$T/fail.sarif" --rule-kind Gh
expect_ok "... with the failure as a tool notification" perl -MJSON::PP -e '
	local $/; my $d = decode_json(<STDIN>); my $inv = $d->{runs}[0]{invocations}[0];
	!$inv->{executionSuccessful} && $inv->{toolExecutionNotifications}[0]{message}{text} =~ /nosuch/
		or die' <"$T/fail.sarif"
"$CLAWMD" check --format sarif -C "$R" bad >"$T/bad.sarif" 2>/dev/null
validate "an invalid group's log passes" "$T/bad.sarif" --rule-kind Gh
rm -rf "$R/groups/main/CLAUDE.local.md" "$R/groups/main/pic.png"
"$CLAWMD" check --format sarif --cwd "$CLAWMD_TESTS/check/cwd-imports" >"$T/tree.sarif" 2>/dev/null
validate "a --cwd tree's log passes" "$T/tree.sarif"
validate "... with the Gh rules" "$T/tree.sarif" --rule-kind Gh
done_testing
