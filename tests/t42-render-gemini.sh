#!/bin/sh
# render --runtime gemini: Gemini CLI's loading (doc/runtime-gemini.md).
#
# 1. Every plain-tree e2e case of Gemini CLI (tests/e2e/gemini-*/), built here
#    on the host, must render exactly the string the real CLI sent, pinned in
#    tests/e2e/expected/<case>/<release>.txt by `E2E_SAVE=1 make e2e`
#    (@ROOT@ for the tree, /e2e-home for its HOME).
# 2. Rules pinned by hand from the same runs, in small trees.
# 3. The flags, and the hostile cases: FIFOs, a huge sparse file, links to
#    host files from a group; none is opened, none stops the load.
. "$CLAWMD_TESTS/lib.sh"
TP=$(cd "$T" && pwd -P)
release=0.61.0

# --- 1. the real runs -----------------------------------------------------
for dir in "$CLAWMD_TESTS"/e2e/gemini-*/; do
	c=${dir%/}
	c=${c##*/}
	kind='' cwd=. render_args='' mounts=''
	# shellcheck disable=SC1090
	. "$dir/case"
	[ "$kind" = tree ] || continue
	exp=$CLAWMD_TESTS/e2e/expected/$c/$release.txt
	[ -f "$exp" ] || { _report 1 "$c: pinned string" "no $exp"; continue; }
	root=$TP/$c
	mkdir "$root"
	[ -d "$dir/tree" ] && cp -R "$dir/tree/." "$root/"
	find "$root" -name .keep -delete
	if [ -f "$dir/setup.sh" ]; then
		(cd "$root" && ROOT=$root CT_ROOT=$root sh -e "$dir/setup.sh") >"$T/setup.out" 2>&1 ||
			{ _report 1 "$c: setup" "$(cat "$T/setup.out")"; continue; }
	fi
	# the run bound the tree's home/ at /e2e-home: here it lies outside the
	# tree, so no .git of the tree is above it
	home=$TP/home.$c
	if [ -d "$root/home" ]; then mv "$root/home" "$home"; else mkdir "$home"; fi
	# shellcheck disable=SC2086
	"$CLAWMD" render --runtime gemini --cwd "$root/$cwd" --home "$home" $render_args \
		>"$T/got" 2>"$T/err"
	st=$?
	sed -e "s|$home|/e2e-home|g" -e "s|$root|@ROOT@|g" "$T/got" >"$T/got.sub"
	if [ -n "$(tail -c1 "$T/got")" ]; then
		printf '%s' "$(cat "$T/got.sub")" >"$T/got.sub2"
		mv "$T/got.sub2" "$T/got.sub"
	fi
	if [ "$st" = 0 ] && cmp -s "$T/got.sub" "$exp"; then
		_report 0 "$c: as Gemini CLI $release sent it"
	else
		_report 1 "$c: as Gemini CLI $release sent it" "exit $st; $(head -c 500 "$T/err")
$(diff "$exp" "$T/got.sub" | head -40)"
	fi
done

# --- 2. rules in small trees ------------------------------------------------
# render_is NAME WANT ARGS...: render --runtime gemini ARGS prints WANT
render_is() {
	_name=$1 _want=$2
	shift 2
	"$CLAWMD" render --runtime gemini "$@" >"$T/out" 2>"$T/err"
	_st=$?
	_got=$(cat "$T/out"; echo x)
	_got=${_got%x}
	if [ "$_st" = 0 ] && [ "$_got" = "$_want" ]; then _report 0 "$_name"
	else _report 1 "$_name" "exit $_st; $(head -c 300 "$T/err")
got:
$_got
wanted:
$_want"; fi
}
block() { # PATH TEXT: one file's block
	printf -- '--- Context from: %s ---\n%s\n--- End of Context from: %s ---' "$1" "$2" "$1"
}

R=$TP/r
mkdir -p "$R/h/.gemini" "$R/p"
render_is "nothing to load: empty output" "" --cwd "$R/p" --home "$R/h"
printf 'G\n' >"$R/h/.gemini/GEMINI.md"
printf 'P\n' >"$R/p/GEMINI.md"
render_is "the global file, then the project's, a blank line between" \
	"$(block "$R/h/.gemini/GEMINI.md" G)

$(block "$R/p/GEMINI.md" P)" --cwd "$R/p" --home "$R/h"
render_is "no --home, no global file" "$(block "$R/p/GEMINI.md" P)" --cwd "$R/p" --home ''

# the walk never enters HOME/.gemini, and stops there
mkdir -p "$R/h2/.gemini/w" && : >"$R/h2/.git"
printf 'GG\n' >"$R/h2/.gemini/GEMINI.md"
printf 'W\n' >"$R/h2/.gemini/w/GEMINI.md"
printf 'H2\n' >"$R/h2/GEMINI.md"
render_is "a cwd inside HOME/.gemini: the walk up stops at it" \
	"$(block "$R/h2/.gemini/GEMINI.md" GG)

$(block "$R/h2/.gemini/w/GEMINI.md" W)" --cwd "$R/h2/.gemini/w" --home "$R/h2"

# a .git that is a dangling link is no git root; one to a file is
mkdir -p "$R/g/w"
printf 'TOP\n' >"$R/g/GEMINI.md"
printf 'W\n' >"$R/g/w/GEMINI.md"
ln -s nowhere "$R/g/.git"
render_is "a dangling .git link: no git root" "$(block "$R/g/w/GEMINI.md" W)" --cwd "$R/g/w" --home ''
rm "$R/g/.git" && : >"$R/g/gitfile" && ln -s gitfile "$R/g/.git"
render_is "a .git link to a file: the git root" "$(block "$R/g/GEMINI.md" TOP)

$(block "$R/g/w/GEMINI.md" W)" --cwd "$R/g/w" --home ''

# code regions: an unclosed fence still pairs shorter runs; a longer run
# closes only on its own length
mkdir -p "$R/c"
printf 'X\n' >"$R/c/x.md"
printf '```@./x.md`\n' >"$R/c/GEMINI.md"
render_is "three backticks and one: the first two pair, the import after is code" \
	"$(block "$R/c/GEMINI.md" '```@./x.md`')" --cwd "$R/c" --home ''
printf '`` a ` @./x.md ``\n' >"$R/c/GEMINI.md"
render_is "a single backtick inside a double-backtick span" \
	"$(block "$R/c/GEMINI.md" '`` a ` @./x.md ``')" --cwd "$R/c" --home ''
printf '`a` @./x.md\n' >"$R/c/GEMINI.md"
render_is "after a closed span, imports are followed" "$(block "$R/c/GEMINI.md" '`a` <!-- Imported from: ./x.md -->
X

<!-- End of import from: ./x.md -->')" --cwd "$R/c" --home ''
printf '@./x.md' >"$R/c/GEMINI.md"
render_is "an import at the very start and end of the text" "$(block "$R/c/GEMINI.md" '<!-- Imported from: ./x.md -->
X

<!-- End of import from: ./x.md -->')" --cwd "$R/c" --home ''
printf '%s\n' '@http://x.md @file:///etc/passwd' >"$R/c/GEMINI.md"
render_is "URLs never pass the gate" "$(block "$R/c/GEMINI.md" '<!-- Import failed: http://x.md - Path traversal attempt --> <!-- Import failed: file:///etc/passwd - Path traversal attempt -->')" \
	--cwd "$R/c" --home ''

# --format files and json
printf 'Y\n' >"$R/c/y.md"
printf '@./y.md @./nope.md\n' >"$R/c/GEMINI.md"
expect_ok "--format files" "$CLAWMD" render --runtime gemini --cwd "$R/c" --home "$R/h" --format files
expect_eq "--format files: User then Project" "$(cat "$T/out")" "User	$R/h/.gemini/GEMINI.md	-
Project	$R/c/GEMINI.md	-"
expect_ok "--format json" "$CLAWMD" render --runtime gemini --cwd "$R/c" --home '' --json
check "--format json: the imports with their status" \
	grep -q '"import":[[:space:]]*"./nope.md"' "$T/out"
check "--format json: loaded and missing" sh -c "grep -q '\"status\":[[:space:]]*\"loaded\"' '$T/out' && grep -q '\"status\":[[:space:]]*\"missing\"' '$T/out'"

# --- 3. flags and hostile files ---------------------------------------------
expect_fail 2 "--gemini-file-name with a slash is a usage error" \
	"$CLAWMD" render --runtime gemini --cwd "$R/p" --gemini-file-name a/b.md
expect_grep "... naming the flag" "--gemini-file-name" "$T/err"
expect_fail 2 "--gemini-file-name without --runtime gemini is a usage error" \
	"$CLAWMD" render --cwd "$R/p" --gemini-file-name AGENTS.md
expect_grep "... naming the runtime it needs" "needs --runtime gemini" "$T/err"
expect_fail 2 "--gemini-file-name '' is a usage error" \
	"$CLAWMD" render --runtime gemini --cwd "$R/p" --gemini-file-name ''
printf 'A\n' >"$R/p/AGENTS.md"
render_is "--gemini-file-name AGENTS.md: AGENTS.md, then GEMINI.md still" \
	"$(block "$R/p/AGENTS.md" A)

$(block "$R/p/GEMINI.md" P)" --cwd "$R/p" --home '' --gemini-file-name AGENTS.md
render_is "--gemini-file-name GEMINI.md twice: loaded once" "$(block "$R/p/GEMINI.md" P)" \
	--cwd "$R/p" --home '' --gemini-file-name GEMINI.md --gemini-file-name GEMINI.md

# A FIFO as GEMINI.md (Gemini CLI would block on it) and as an import: never
# opened; the load goes on.
mkdir -p "$R/f/w"
: >"$R/f/.git"
mkfifo "$R/f/GEMINI.md" "$R/f/w/pipe.md"
printf 'W @./pipe.md\n' >"$R/f/w/GEMINI.md"
bounded_render() { # NAME WANT ARGS...: as render_is, in at most 60 s of CPU, never hanging
	_name=$1 _want=$2
	shift 2
	$HANG_GUARD sh -c 'ulimit -t 60 && exec "$@"' sh "$CLAWMD" render --runtime gemini "$@" \
		>"$T/out" 2>"$T/err"
	_st=$?
	_got=$(cat "$T/out"; echo x)
	_got=${_got%x}
	if [ "$_st" = 0 ] && [ "$_got" = "$_want" ]; then _report 0 "$_name"
	else _report 1 "$_name" "exit $_st; $(head -c 300 "$T/err")
got:
$_got
wanted:
$_want"; fi
}
bounded_render "FIFOs: the entry skipped, the import says render did not read it" \
	"$(block "$R/f/w/GEMINI.md" 'W <!-- Import failed: ./pipe.md - clawmd render: not a regular file, not read -->')" \
	--cwd "$R/f/w" --home ''

# A huge sparse file: skipped as an entry, refused as an import, unread.
mkdir -p "$R/s/w"
: >"$R/s/.git"
truncate -s 10G "$R/s/GEMINI.md"
truncate -s 10G "$R/s/w/huge.md"
printf 'W @./huge.md\n' >"$R/s/w/GEMINI.md"
bounded_render "10 GB sparse files: never read past the bound" \
	"$(block "$R/s/w/GEMINI.md" 'W <!-- Import failed: ./huge.md - clawmd render: over its read bounds, not read -->')" \
	--cwd "$R/s/w" --home ''

# Many backticks with no closing run: the code scan stays linear.
mkdir -p "$R/b"
{ head -c 2000 /dev/zero | tr '\0' '`'; head -c 3000000 /dev/zero | tr '\0' 'a'; echo; } >"$R/b/GEMINI.md"
$HANG_GUARD sh -c 'ulimit -t 60 && exec "$@"' sh "$CLAWMD" render --runtime gemini --cwd "$R/b" \
	--home '' >"$T/out" 2>"$T/err"
expect_eq "2,000 backticks then 3 MB of text: rendered within 60 s of CPU" "$?" 0

# Under ASan every import tried costs ~100 us: the sanitized build checks
# the bounds with fewer (still past the 50,000 cap), the plain build at
# full size.
if grep -q __asan_init "$CLAWMD" 2>/dev/null; then many=60000; else many=1000000; fi

# A million imports of a missing file (plain build): the first 50,000 are tried (each an
# "Import failed" comment), the rest left as written; bounded in CPU time.
mkdir -p "$R/m/w"
: >"$R/m/.git"
awk -v n="$many" 'BEGIN { for (i = 0; i < n; i++) printf "@a "; print "" }' >"$R/m/w/GEMINI.md"
$HANG_GUARD sh -c 'ulimit -t 60 && exec "$@"' sh "$CLAWMD" render --runtime gemini --cwd "$R/m/w" \
	--home '' >"$T/out" 2>"$T/err"
expect_eq "$many imports: rendered within 60 s of CPU" "$?" 0
expect_eq "... 50,000 tried" "$(grep -o 'Import failed: a - ' "$T/out" | wc -l | tr -d ' ')" 50000
check "... the rest left as written" grep -q '@a @a$' "$T/out"

# 400,000 code spans before 400,000 imports (plain build): the code check stays linear.
mkdir -p "$R/q/w"
: >"$R/q/.git"
awk -v n="$((many * 2 / 5))" 'BEGIN { for (i = 0; i < n; i++) printf "`a` "; for (i = 0; i < n; i++) printf "@a "; print "" }' \
	>"$R/q/w/GEMINI.md"
$HANG_GUARD sh -c 'ulimit -t 60 && exec "$@"' sh "$CLAWMD" render --runtime gemini --cwd "$R/q/w" \
	--home '' >"$T/out" 2>"$T/err"
expect_eq "$((many * 2 / 5)) code spans and as many imports: rendered within 60 s of CPU" "$?" 0

# An import path of a million components: no deep recursion, bounded.
mkdir -p "$R/l/w"
: >"$R/l/.git"
awk 'BEGIN { printf "@./"; for (i = 0; i < 1000000; i++) printf "a/"; print "x.md" }' >"$R/l/w/GEMINI.md"
$HANG_GUARD sh -c 'ulimit -t 60 && exec "$@"' sh "$CLAWMD" render --runtime gemini --cwd "$R/l/w" \
	--home '' >"$T/out" 2>"$T/err"
expect_eq "a million-component import path: rendered within 60 s of CPU" "$?" 0
check "... ENAMETOOLONG, as the CLI says" grep -q 'ENAMETOOLONG: name too long' "$T/out"

# A group, rendered in its container's view: a GEMINI.md linking to a host
# file outside every mount is not read; links into the mounts are, through
# the mount table; imports outside /workspace/agent are refused.
G=$TP/root/groups/g
make_root "$TP/root"
mkdir -p "$G" "$TP/host"
printf 'HOSTSECRET\n' >"$TP/host/secret.md"
ln -s "$TP/host/secret.md" "$G/GEMINI.md"
expect_ok "group: a GEMINI.md linked to a host file" \
	"$CLAWMD" render -C "$TP/root" --group g --runtime gemini
check "... the host file is not read" sh -c "! grep -q HOSTSECRET '$T/out'"
expect_eq "... nothing loads" "$(cat "$T/out")" ""
rm "$G/GEMINI.md"
ln -s /app/CLAUDE.md "$G/GEMINI.md"
printf 'AGENT\n@/app/CLAUDE.md\n@%s\n' "$TP/host/secret.md" >"$G/notes.md"
printf 'LOCAL\n' >"$G/local.md"
expect_ok "group: a GEMINI.md linked to the shared base" \
	"$CLAWMD" render -C "$TP/root" --group g --runtime gemini
expect_eq "... read through the mount table, under the link's path" "$(cat "$T/out")" \
	"$(block /workspace/agent/GEMINI.md '# Shared base

Be helpful.')"
rm "$G/GEMINI.md"
printf 'TOP\n@./notes.md\n@./local.md\n' >"$G/GEMINI.md"
expect_ok "group: imports from the group's GEMINI.md" \
	"$CLAWMD" render -C "$TP/root" --group g --runtime gemini
expect_eq "... inside followed, /app and host paths refused" "$(cat "$T/out")" \
	"$(block /workspace/agent/GEMINI.md "TOP
<!-- Imported from: ./notes.md -->
AGENT
<!-- Import failed: /app/CLAUDE.md - Path traversal attempt -->
<!-- Import failed: $TP/host/secret.md - Path traversal attempt -->

<!-- End of import from: ./notes.md -->
<!-- Imported from: ./local.md -->
LOCAL

<!-- End of import from: ./local.md -->")"
printf '{ "provider": "gemini" }\n' >"$G/container.json"
printf 'TOP\n' >"$G/GEMINI.md"
expect_ok "group: render --group follows container.json's provider" \
	"$CLAWMD" render -C "$TP/root" --group g
expect_eq "... Gemini CLI's text, no --runtime given" "$(cat "$T/out")" \
	"$(block /workspace/agent/GEMINI.md TOP)"

done_testing
