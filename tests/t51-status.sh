#!/bin/sh
# status: a mixed fleet (clean, drifted, hand-edited, never composed, invalid)
# as a table and as JSON.
. "$CLAWMD_TESTS/lib.sh"

R=$T/root
make_root "$R"
make_skill "$R" alpha
make_skill "$R" beta
printf '{ "mode": "copy" }\n' >"$R/clawmd.json"
for g in clean drifted hand never bad; do mkdir -p "$R/groups/$g"; done
printf '{ "skills": ["alpha"] }\n' >"$R/groups/drifted/container.json"
printf '{ "skills": ["../x"] }\n' >"$R/groups/bad/container.json"
expect_ok "compose three groups" "$CLAWMD" compose -q -C "$R" clean drifted hand
printf '{ "skills": ["alpha", "beta"] }\n' >"$R/groups/drifted/container.json"
echo "a hand edit" >>"$R/groups/hand/CLAUDE.md"
printf 'Per-group notes for clean.\n' >"$R/groups/clean/CLAUDE.local.md"

before=$(cd "$R" && find . -printf '%p %i %T@ %s\n' | sort)
expect_fail 3 "status on a mixed fleet: exit 3, for the invalid group" "$CLAWMD" status -C "$R"
cp "$T/out" "$T/table"
expect_eq "status reads only" "$(cd "$R" && find . -printf '%p %i %T@ %s\n' | sort)" "$before"
expect_grep "a header row" '^GROUP +STATE +SKILLS +FRAGMENTS +CHARS +TOKENS +FINDINGS' "$T/table"
expect_grep "clean" '^clean +clean +2 +3 ' "$T/table"
expect_grep "drifted: the selected skills (the plan)" '^drifted +would change +2 +3 ' "$T/table"
expect_grep "hand-edited" '^hand +hand-edited ' "$T/table"
expect_grep "never composed" '^never +never composed ' "$T/table"
expect_grep "invalid container.json" '^bad +invalid ' "$T/table"
expect_grep "skill names, with all: for the default" '^clean .* all: alpha,beta$' "$T/table"
expect_eq "one row per group, sorted" "$(tail -n +2 "$T/table" | cut -d' ' -f1 | tr '\n' ' ')" \
	"bad clean drifted hand never "
check "no colour escapes into a file" sh -c "! grep -q \"$(printf '\033')\" '$T/table'"

expect_fail 3 "status --json: exit 3 too" "$CLAWMD" status -C "$R" --json
cp "$T/out" "$T/json"
expect_ok "the JSON document has every group's state" perl -MJSON::PP -e '
	local $/; my $d = decode_json(<STDIN>);
	my %g = map { $_->{group} => $_ } @{$d->{groups}};
	my %want = (clean => "clean", drifted => "would change", hand => "hand-edited",
		    never => "never composed", bad => "invalid");
	for (sort keys %want) { $g{$_}{drift} eq $want{$_} or die "$_: $g{$_}{drift}\n" }
	my $c = $g{clean};
	join(",", @{$c->{skills}}) eq "alpha,beta" or die "skills\n";
	$c->{all_skills} or die "all_skills\n";
	join(",", @{$c->{fragments}}) eq
		".claude-shared.md,.claude-fragments/skill-alpha.md,.claude-fragments/skill-beta.md"
		or die "fragments: @{$c->{fragments}}\n";
	# base 26 + alpha 15 + beta 14 + the entry + the local notes 27
	$c->{memory_chars} > 82 or die "memory_chars $c->{memory_chars}\n";
	$c->{tokens} == int(($c->{memory_chars} + 3) / 4) or die "tokens\n";
	$c->{findings} == 0 or die "clean findings $c->{findings}\n";
	$g{drifted}{findings} >= 1 && $g{drifted}{errors} >= 1 or die "drifted findings\n";
	$g{hand}{findings} >= 1 or die "hand findings\n";
	join(",", @{$g{drifted}{skills}}) eq "alpha,beta" or die "drifted skills (the plan)\n";
	$d->{token_budget} == 20000 or die "budget\n";' <"$T/json"

# The memory size counts what the container loads: a bigger CLAUDE.local.md
# shows up in the token estimate.
awk 'BEGIN { for (i = 0; i < 100; i++) print "0123456789012345678901234567890123456789" }' \
	>"$R/groups/clean/CLAUDE.local.md"
expect_ok "status after growing the notes" "$CLAWMD" status -C "$R" --json clean
cp "$T/out" "$T/json"
expect_ok "the estimate grew by the notes (4,100 characters)" perl -MJSON::PP -e '
	local $/; my $d = decode_json(<STDIN>);
	$d->{groups}[0]{memory_chars} > 4100 or die "$d->{groups}[0]{memory_chars}\n"' <"$T/json"

# Colour only on a terminal and never with NO_COLOR.
if command -v script >/dev/null; then
	esc=$(printf '\033')
	env -u NO_COLOR script -qec "'$CLAWMD' status -C '$R' clean hand" /dev/null >"$T/tty" 2>&1
	expect_grep "the state is coloured on a terminal" "^clean +$esc\[32mclean" "$T/tty"
	NO_COLOR=1 script -qec "'$CLAWMD' status -C '$R' clean hand" /dev/null >"$T/tty" 2>&1
	check "no colour with NO_COLOR" sh -c "! grep -q '$esc' '$T/tty'"
fi

expect_fail 4 "a missing group: exit 4 (as in compose, render and check)" "$CLAWMD" status -C "$R" nosuch
expect_grep "the message names it" nosuch "$T/err"
expect_fail 2 "unknown option: exit 2" "$CLAWMD" status -C "$R" --bogus
expect_ok "--help" "$CLAWMD" status --help
expect_grep "--help documents exit statuses" "^Exit status" "$T/out"
done_testing
