#!/bin/sh
# One table of exit statuses: 'clawmd --help', clawmd(1) and doc/layout.md
# hold the same rows, word for word, 0 to 6; and the statuses are the ones
# the commands return for those causes.
. "$CLAWMD_TESTS/lib.sh"

# Each source as "N<TAB>meaning" lines, markup removed, lines joined.
"$CLAWMD" --help | awk '
	/^Exit status/ { on = 1; next }
	on && /^  [0-9]  / { if (n != "") print n "\t" t; n = $1; sub(/^  [0-9]  /, ""); t = $0; next }
	on && /^     / { sub(/^ +/, ""); t = t " " $0; next }
	on && n != "" { print n "\t" t; n = ""; on = 0 }
	END { if (n != "") print n "\t" t }' >"$T/help"
awk '
	/^\.SH EXIT STATUS/ { on = 1; next }
	on && /^\.SH/ { if (n != "") print n "\t" t; n = ""; on = 0 }
	on && /^\.TP/ { if (n != "") print n "\t" t; n = ""; want = 1; next }
	on && want && /^\.B [0-9]$/ { n = $2; t = ""; want = 0; next }
	on && n != "" { t = t (t == "" ? "" : " ") $0 }
	END { if (n != "") print n "\t" t }' "$CLAWMD_SRC/doc/man/clawmd.1" |
	sed 's/\\-/-/g' >"$T/man"
awk '
	/^## Exit statuses/ { on = 1; next }
	on && /^## / { on = 0 }
	on && /^\| [0-9] \|/ { split($0, c, " \\| "); sub(/^\| /, "", c[1]); sub(/ \|$/, "", c[2]); print c[1] "\t" c[2] }' \
	"$CLAWMD_SRC/doc/layout.md" | tr -d '`' >"$T/doc"

expect_eq "--help lists the statuses 0 to 6" "$(cut -f1 "$T/help" | tr '\n' ' ')" "0 1 2 3 4 5 6 "
expect_eq "clawmd(1) has the rows of --help" "$(cat "$T/man")" "$(cat "$T/help")"
expect_eq "doc/layout.md has the rows of --help" "$(cat "$T/doc")" "$(cat "$T/help")"

# The statuses are what the commands return for those causes.
R=$T/root
make_root "$R"
make_skill "$R" web
mkdir -p "$R/groups/good" "$R/groups/bad"
printf '{}\n' >"$R/clawmd.json"
printf '{"skills": ["web",]}\n' >"$R/groups/bad/container.json"
expect_ok "0: success" "$CLAWMD" -C "$R" compose good
printf 'x\n' >>"$R/groups/good/CLAUDE.md"
expect_fail 1 "1: drift (compose --check)" "$CLAWMD" -C "$R" compose --check good
expect_fail 2 "2: an unknown option" "$CLAWMD" -C "$R" compose --bogus good
expect_fail 2 "2: a bad value of a flag" "$CLAWMD" -C "$R" status --format xml
expect_fail 3 "3: invalid input (container.json)" "$CLAWMD" -C "$R" compose bad
expect_grep "... which says what was expected and found" \
	"container.json:1:19: expected a value after ',' but found ']'" "$T/err"
expect_fail 3 "3: status with an invalid group" "$CLAWMD" -C "$R" status
expect_fail 4 "4: a missing group" "$CLAWMD" -C "$R" compose nosuch
# A root without its groups directory: every command that lists the
# groups says which directory is missing, with the same status.
E=$T/empty
mkdir -p "$E"
printf '{}\n' >"$E/clawmd.json"
for c in "check --all" "check" "status" "status --json" "compose --all" "report" "migrate"; do
	expect_fail 4 "4: no groups directory ($c)" "$CLAWMD" -C "$E" $c
	expect_grep "... named as given, with what to do" \
		"no groups directory 'groups': create it \\(clawmd init does\\)" "$T/err"
done
if command -v flock >/dev/null; then
	# held by this shell for as long as the test needs (as t12)
	mkdir -p "$R/.clawmd/locks"
	exec 9>>"$R/.clawmd/locks/good"
	flock -x 9
	expect_fail 5 "5: lock timeout" "$CLAWMD" -C "$R" compose --lock-timeout 0.2 good
	exec 9>&-
fi
mkdir -p "$R/groups/global"
printf 'Global.\n' >"$R/groups/global/CLAUDE.md"
mkdir -p "$R/groups/huge"
head -c 5000000 /dev/zero | tr '\0' a >"$R/groups/huge/CLAUDE.md"
expect_fail 6 "6: migrate with a failed group (over the size cap)" "$CLAWMD" -C "$R" migrate
done_testing
