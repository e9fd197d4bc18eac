#!/bin/sh
# compose after a crash that left its outputs torn: every file compose
# writes is cut short or emptied the way a crash before its data reached
# the disk can leave it, and the next compose converges to the full
# composition with nothing preserved, carried or lost.  CLAUDE.local.md
# holds the agent's text throughout, so anything wrongly taken for a hand
# edit would have to be moved aside and would show.
. "$CLAWMD_TESTS/lib.sh"

R=$T/root
make_root "$R"
make_skill "$R" alpha
make_skill "$R" beta
mkdir -p "$R/groups/g" "$R/groups/ref"
printf '{"mcpServers": {"m": {"instructions": "mcp text, long enough to cut"}}}' \
	>"$R/groups/g/container.json"
cp "$R/groups/g/container.json" "$R/groups/ref/"
G=$R/groups/g
F=.claude-fragments

snapshot() { # GROUP
	(cd "$R/groups/$1" && find . -mindepth 1 ! -name container.json | sort | while read -r p; do
		if [ -L "$p" ]; then echo "$p -> $(readlink "$p")"
		elif [ -f "$p" ]; then echo "$p: $(cksum <"$p")"
		else echo "$p/"; fi
	done)
}

for mode in symlink copy; do
	c="$CLAWMD compose -C $R --mode $mode"
	$c ref
	$c g
	printf 'the agent notes\n' >"$G/CLAUDE.local.md"
	printf 'the agent notes\n' >"$R/groups/ref/CLAUDE.local.md"
	want=$(snapshot ref)
	entry_len=$(wc -c <"$G/CLAUDE.md")
	header_len=$(head -n 1 "$G/CLAUDE.md" | wc -c)
	# Cut points: empty, inside the header line, right after it, inside
	# an import line, one byte short.
	for cut in 0 1 40 $((header_len - 3)) $header_len $((header_len + 5)) \
		$((header_len + 30)) $((entry_len - 1)); do
		head -c "$cut" "$R/groups/ref/CLAUDE.md" >"$G/CLAUDE.md"
		expect_ok "$mode: CLAUDE.md cut to $cut bytes: compose" $c g
		expect_eq "$mode: CLAUDE.md cut to $cut bytes: converged, nothing preserved" \
			"$(snapshot g)" "$want"
	done
	# Every fragment file, emptied or cut in half.
	for f in $(cd "$G" && find .claude-shared.md $F -type f | sort); do
		size=$(wc -c <"$G/$f")
		for cut in 0 $((size / 2)); do
			head -c "$cut" "$R/groups/ref/$f" >"$G/$f.cut" && mv "$G/$f.cut" "$G/$f"
			expect_ok "$mode: $f cut to $cut bytes: compose" $c g
			expect_eq "$mode: $f cut to $cut bytes: converged" "$(snapshot g)" "$want"
		done
	done
	# One byte that clawmd would not write is a hand edit again.
	{ head -n 2 "$R/groups/ref/CLAUDE.md"; printf 'mine\n'; } >"$G/CLAUDE.md"
	expect_ok "$mode: a line of the agent's own: compose" $c g
	expect_grep "$mode: ... is moved aside, not lost" "was not written by clawmd" "$T/err"
	check "$mode: ... kept in the quarantine" sh -c "grep -l '^mine' '$G'/CLAUDE.md.clawmd-preserved-* >/dev/null"
	rm -f "$G"/CLAUDE.md.clawmd-preserved-*
done

done_testing
