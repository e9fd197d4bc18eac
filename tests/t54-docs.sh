#!/bin/sh
# Every command's --help options, its man page's OPTIONS and the README's
# option table list the same options, so they cannot drift apart.  The
# options every command takes (layout, --color, --help) are compared the
# same way against clawmd(1) and the README's table under "The command line".
. "$CLAWMD_TESTS/lib.sh"
MAN=$CLAWMD_SRC/doc/man
README=$CLAWMD_SRC/README.md

# The long options a --help section lists (its "Options:" or "Layout
# options" part), sorted, one a line.
help_opts() { # CMD SECTION(own|layout)
	"$CLAWMD" "$1" --help | awk -v want="$2" '
		/^Options:/ { sec = "own"; next }
		/^Layout options/ { sec = "layout"; next }
		/^[^ ]/ { sec = "" }
		sec != "" && /^  +(-[A-Za-z], )?--[a-z]/ {
			match($0, /--[a-z-]+/); o = substr($0, RSTART, RLENGTH)
			if (o == "--color" || o == "--help") { if (want == "layout") print o; next }
			if (sec == want) print o
		}' | sort -u
}

# The long options on the .TP header lines of a man page's OPTIONS section.
man_opts() { # PAGE
	awk '/^\.SH OPTIONS/ { on = 1; next } /^\.SH / { on = 0 }
		on && tp { gsub(/\\-/, "-"); while (match($0, /--[a-z-]+/)) {
			print substr($0, RSTART, RLENGTH); $0 = substr($0, RSTART + RLENGTH) } }
		{ tp = on && /^\.TP/ }' "$1" | sort -u
}

# The long options in the first cell of the option table of a README
# section (from its heading to the next "## ").
readme_opts() { # HEADING
	awk -v h="$1" '$0 == h { on = 1; next } on && /^## / { on = 0 }
		on && /^\| `-/ { split($0, c, "|"); s = c[2]
			while (match(s, /--[a-z-]+/)) { print substr(s, RSTART, RLENGTH); s = substr(s, RSTART + RLENGTH) } }' \
		"$README" | sort -u
}

for cmd in compose migrate render check status init; do
	h=$(help_opts $cmd own)
	check "$cmd: --help lists options" test -n "$h"
	m=$(man_opts "$MAN/clawmd-$cmd.1" | grep -vx -e --root -e --color -e --help)
	r=$(readme_opts "## clawmd $cmd" | grep -vx -e --root -e --color -e --help)
	# init takes -C/--root as its own option (the directory to scaffold).
	[ $cmd = init ] && m=$(man_opts "$MAN/clawmd-init.1") r=$(readme_opts "## clawmd init")
	expect_eq "$cmd: the man page lists the --help options" "$m" "$h"
	expect_eq "$cmd: the README table lists the --help options" "$r" "$h"
done
for cmd in compose migrate render check status; do
	expect_eq "$cmd: the same layout options as compose" "$(help_opts $cmd layout)" \
		"$(help_opts compose layout)"
done
l=$(help_opts compose layout)
expect_eq "clawmd(1) lists the layout and common options" \
	"$(man_opts "$MAN/clawmd.1" | grep -vx -e --version -e --quiet)" "$l"
expect_grep "clawmd(1) lists -q/--quiet (before the command)" '^\.BR \\-q ", " \\-\\-quiet$' "$MAN/clawmd.1"
expect_eq "the README lists the layout and common options" \
	"$(readme_opts "## The command line")" "$l"
check "every command has a man page" sh -c "for c in compose migrate render check status init; do test -f '$MAN'/clawmd-\$c.1 || exit 1; done"
check "clawmd(1) names every command" sh -c "for c in compose migrate render check status init; do grep -q \"^\\.B \$c\$\" '$MAN/clawmd.1' || exit 1; done"

# The rule codes: the library's table, the README list and clawmd-check(1).
"$CLAWMD" check --format sarif --cwd "$T" 2>/dev/null >"$T/sarif"
codes=$(perl -MJSON::PP -e 'local $/; print "$_->{id}\n" for @{decode_json(<STDIN>)->{runs}[0]{tool}{driver}{rules}}' <"$T/sarif")
expect_eq "the README lists every rule" "$(sed -n 's/^- `\(CM[0-9]*\)`.*/\1/p' "$README")" "$codes"
expect_eq "clawmd-check(1) lists every rule" \
	"$(sed -n 's/^\.B \(CM[0-9]*\) .*/\1/p' "$MAN/clawmd-check.1")" "$codes"
for c in $codes; do
	lc=$(echo "$c" | tr 'A-Z' 'a-z')
	check "README anchor for $c (its helpUri)" grep -q "<a id=\"$lc\"></a>" "$README"
done
# The depth limit is worded as Claude Code loads it, everywhere.
check "no 'five levels'/'5 levels' wording left" sh -c "! grep -rniE '(5|five) (levels|imports deep)|at most 5([^0-9,]|$)' '$README' '$MAN' '$CLAWMD_SRC/lib/lint'"
done_testing
