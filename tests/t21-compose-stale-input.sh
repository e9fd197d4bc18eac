#!/bin/sh
# compose: a no-op record vouches only for what the plan read, as it read it.
# A host holding a group handle reads container.json (its runtimes), the
# agent edits the file, the host composes on the same handle: that compose
# takes the edit, and every compose after it, from the CLI (the front and
# the full program) or the library, agrees with compose --check.  Before the
# plan recorded its inputs, the edit was never applied (issue 27): the
# record held the identity of the new file and the plan of the old one.
. "$CLAWMD_TESTS/lib.sh"

HC=${CLAWMD_BUILD:-}/tests/handle-compose
R=$T/root
make_root "$R"
make_skill "$R" alpha
make_skill "$R" beta
mkdir -p "$R/groups/g"
printf '{"skills": ["alpha"]}' >"$R/groups/g/container.json"
F=$R/groups/g/.claude-fragments
# there NAME: a fragment is there (a symlink to /app dangles on the host)
there() { [ -L "$F/$1" ] || [ -e "$F/$1" ]; }

printf '{"skills": ["alpha", "beta"]}' >"$T/edited.json"
printf '{"skills": ["alpha"]}' >"$T/first.json"

for mode in symlink copy; do
	printf '{"mode": "%s"}' "$mode" >"$R/clawmd.json"
	printf '{"skills": ["alpha"]}' >"$R/groups/g/container.json"
	$CLAWMD compose -C "$R" g 2>/dev/null
	age_out
	expect_ok "$mode: a no-op, which records" $CLAWMD compose -C "$R" g
	expect_ok "$mode: the front answers the next from the record" $FRONT compose -C "$R" g
	expect_ok "$mode: a handle that read container.json, then the agent's edit, then compose" \
		"$HC" "$R" g sh -c "cp '$T/edited.json' '$R/groups/g/container.json' && sleep 0.05"
	expect_grep "$mode: ... which composed the edit" '^changes [1-9]' "$T/out"
	check "$mode: ... skill beta is composed" there skill-beta.md
	expect_ok "$mode: compose --check agrees" $CLAWMD compose --check -C "$R" g
	age_out
	expect_ok "$mode: compose (the full program)" $CLAWMD compose -C "$R" g
	expect_ok "$mode: compose (the front)" $FRONT compose -C "$R" g
	expect_ok "$mode: compose --check still agrees" $CLAWMD compose --check -C "$R" g
	expect_ok "$mode: status: nothing would change" $CLAWMD status -C "$R" g
	# Taken back, through a handle that read the edited file.
	expect_ok "$mode: the edit taken back through a handle that had read it" \
		"$HC" "$R" g sh -c "cp '$T/first.json' '$R/groups/g/container.json' && sleep 0.05"
	check "$mode: ... skill beta is gone" eval "! there skill-beta.md"
	age_out
	expect_ok "$mode: ... the front" $FRONT compose -C "$R" g
	expect_ok "$mode: ... compose --check agrees" $CLAWMD compose --check -C "$R" g
	check "$mode: ... skill beta is still gone" eval "! there skill-beta.md"
done

done_testing
