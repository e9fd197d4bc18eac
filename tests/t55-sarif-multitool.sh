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
	# Skipped only when npm cannot reach its registry, saying why (npm's
	# own last error: no network, a TLS proxy whose CA node lacks, which
	# NODE_EXTRA_CA_CERTS names, ...); npm itself make check installs.
	if ! command -v npm >/dev/null; then
		echo "1..0 # SKIP no npm (scripts/install-deps.sh test installs it)"
		exit 0
	fi
	if ! timeout 60 npm ping >"$T/ping.log" 2>&1; then
		why=$(grep -iE 'err|reason|timed? ?out|self.signed|certificate' "$T/ping.log" | tail -n 1 |
			sed 's/^npm ERR! *//; s/[#()]//g' | cut -c1-120)
		echo "1..0 # SKIP npm cannot reach its registry: ${why:-npm ping timed out after 60 s}"
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

# Every log is validated by one start of the Multitool (a .NET program:
# each start costs seconds of CPU), with its default rules and GitHub's
# ingestion rules together (--rule-kind "Sarif;Gh"); its results name the
# log they are about, and each log is then judged on its own.
"$CLAWMD" check --format sarif -C "$R" >"$T/fleet.sarif" 2>/dev/null
check "the fleet has findings of several rules" sh -c "test \$(grep -c '\"ruleId\"' '$T/fleet.sarif') -ge 6"
"$CLAWMD" check --format sarif -C "$R" main nosuch >"$T/fail.sarif" 2>/dev/null
expect_ok "a run that could not start (a missing group) logs the failure as a tool notification" perl -MJSON::PP -e '
	local $/; my $d = decode_json(<STDIN>); my $inv = $d->{runs}[0]{invocations}[0];
	!$inv->{executionSuccessful} && $inv->{toolExecutionNotifications}[0]{message}{text} =~ /nosuch/
		or die' <"$T/fail.sarif"
"$CLAWMD" check --format sarif -C "$R" bad >"$T/bad.sarif" 2>/dev/null
rm -rf "$R/groups/main/CLAUDE.local.md" "$R/groups/main/pic.png"
"$CLAWMD" check --format sarif --cwd "$CLAWMD_TESTS/check/cwd-imports" >"$T/tree.sarif" 2>/dev/null

(cd "$T" && $HANG_GUARD "$MT" validate fleet.sarif fail.sarif bad.sarif tree.sarif \
	-o "$T/v.sarif" --log ForceOverwrite --rule-kind "Sarif;Gh") >"$T/mt.out" 2>&1
expect_ok "the Multitool ran over the four logs" perl -MJSON::PP -e '
	local $/; open my $f, "<", $ARGV[0] or die "no validation log\n";
	my $inv = decode_json(<$f>)->{runs}[0]{invocations}[0];
	$inv && $inv->{executionSuccessful} or die "the Multitool did not run\n";' "$T/v.sarif"

validated() { # NAME LOG: no error and no warning in LOG but the one accepted
	expect_ok "$1" perl -MJSON::PP -e '
		local $/; open my $f, "<", $ARGV[0] or die "no validation log\n";
		my $d = decode_json(<$f>); my (@bad, $seen);
		for my $r (@{$d->{runs}[0]{results} // []}) {
			my $uri = $r->{locations}[0]{physicalLocation}{artifactLocation}{uri} // "";
			next unless $uri =~ m{/\Q$ARGV[1]\E$};
			my $lvl = $r->{level} // "warning";
			# The one accepted warning: the tool has no informationUri,
			# because no https page documents clawmd (a file:// link would
			# name the machine that wrote the log; the rules carry their
			# whole help instead).  Add the link when such a page exists.
			# Every log draws it, so it also shows the log was validated.
			if ($r->{ruleId} eq "SARIF2005"
				&& ($r->{message}{id} // "") eq "Warning_ProvideToolnformationUri") { $seen = 1; next }
			push @bad, "$lvl $r->{ruleId}: " . encode_json($r->{message}) . " at " . encode_json($r->{locations})
				if $lvl eq "error" || $lvl eq "warning";
		}
		push @bad, "no result names $ARGV[1]: it was not validated" unless $seen;
		die join("\n", @bad) . "\n" if @bad;' "$T/v.sarif" "$2"
}
validated "a fleet's log passes the default rules and GitHub's ingestion rules (--rule-kind Gh)" fleet.sarif
validated "a run that could not start (a missing group) still gives a valid log" fail.sarif
validated "an invalid group's log passes" bad.sarif
validated "a --cwd tree's log passes" tree.sarif
done_testing
