#!/bin/sh
# render --runtime codex against what the real Codex CLI sent
# (doc/runtime-codex.md).  Every plain-tree e2e case of Codex
# (tests/e2e/codex-*) is rebuilt here on the host, rendered, and compared
# byte for byte with the string the real release sent in it
# (tests/e2e/expected/<case>/<release>.txt): no Codex, no root, no network.
# Then what a host tree cannot show in an e2e case (symlinks with host
# paths, the container view of a group), the hostile cases (a FIFO, a link
# to a host file in container mode, a huge sparse file: never opened, never
# read past the budget) and the flags' errors.
. "$CLAWMD_TESTS/lib.sh"
E2E=$CLAWMD_TESTS/e2e
TP=$(cd "$T" && pwd -P)

# A .git above the temp directory would make a root for the trees with none.
git_above=''
d=$TP
while [ "$d" != / ]; do
	d=$(dirname "$d")
	[ -e "$d/.git" ] && git_above=$d
done

# ---- the e2e cases, replayed on the host ----------------------------------
for cdir in "$E2E"/codex-*/; do
	c=${cdir%/}
	c=${c##*/}
	runtime='' kind='' cwd=. mounts='' render_args='' tree_of='' desc=''
	. "$cdir/case"
	# a group case runs compose's entry: make e2e's alone
	[ "$kind" = group ] && continue
	if [ "$runtime" != codex ] || [ "$kind" != tree ]; then
		_report 1 "$c: a plain tree of runtime codex" "runtime=$runtime kind=$kind"
		continue
	fi
	src=$E2E/${tree_of:-$c}
	root=$TP/$c
	mkdir -p "$root"
	[ -d "$src/tree" ] && cp -R "$src/tree/." "$root/"
	if [ -f "$src/setup.sh" ]; then
		(cd "$root" && ROOT=$root CT_ROOT=$root sh -e "$src/setup.sh") >"$T/setup.out" 2>&1 ||
			{ _report 1 "$c: setup" "$(cat "$T/setup.out")"; continue; }
	fi
	# The home is the tree's home/ when the case binds it at /e2e-home;
	# other mounts (files outside the tree) have no host equivalent here.
	other=''
	for m in $mounts; do
		case $m in "@ROOT@/home:/e2e-home") ;; *) other=$m ;; esac
	done
	for exp in "$E2E/expected/$c"/*.txt; do
		v=${exp##*/}
		v=${v%.txt}
		name="$c $v: $desc"
		if [ ! -f "$exp" ]; then
			_report 1 "$c: a string pinned by a real run" "no $E2E/expected/$c/*.txt"
			continue
		fi
		if [ -n "$other" ]; then
			_report 0 "# SKIP $name (mount $other: covered below and by make e2e)"
			continue
		fi
		if [ -n "$git_above" ] && [ "$c" = codex-nogit ]; then
			_report 0 "# SKIP $name ($git_above/.git is above the temp directory)"
			continue
		fi
		R=$root perl -0pe 's/\@ROOT\@/$ENV{R}/g' "$exp" >"$T/want"
		# shellcheck disable=SC2086
		"$CLAWMD" render --runtime codex --cwd "$root/$cwd" --home "$root/home" \
			$render_args >"$T/got" 2>"$T/err"
		st=$?
		if [ $st = 0 ] && cmp -s "$T/got" "$T/want"; then
			_report 0 "$name"
		else
			_report 1 "$name" "exit $st $(head -c 500 "$T/err")
$(diff "$T/want" "$T/got" | head -n 20)"
		fi
	done
done

# ---- symlinks with host paths (codex-symlinks, outside mount here) ----------
S=$TP/links
mkdir -p "$S/p/.git" "$S/p/sub" "$S/home/.codex" "$S/outside"
echo "Real file inside the tree." >"$S/p/real.md"
ln -s real.md "$S/p/AGENTS.md"
echo "File outside the tree." >"$S/outside/proj.md"
ln -s "$S/outside/proj.md" "$S/p/sub/AGENTS.md"
echo "Global file outside the home." >"$S/outside/global.md"
ln -s "$S/outside/global.md" "$S/home/.codex/AGENTS.md"
for exp in "$E2E"/expected/codex-symlinks/*.txt; do
	"$CLAWMD" render --runtime codex --cwd "$S/p/sub" --home "$S/home" >"$T/got" 2>"$T/err"
	check "symlinks inside and outside the tree, as codex-symlinks ${exp##*/}" cmp -s "$T/got" "$exp"
done
# --codex-home instead of HOME/.codex, relative to the current directory
(cd "$S" && "$CLAWMD" render --runtime codex --cwd p/sub --codex-home home/.codex --home /nonexistent) \
	>"$T/got" 2>"$T/err"
check "--codex-home (relative) replaces HOME/.codex" cmp -s "$T/got" "$exp"
expect_ok "--format files: the global file is User, the project files Project" \
	"$CLAWMD" render --runtime codex --cwd "$S/p/sub" --home "$S/home" --format files
expect_eq "--format files lists them in the prompt's order" "$(cat "$T/out")" "User	$S/home/.codex/AGENTS.md	-
Project	$S/p/AGENTS.md	-
Project	$S/p/sub/AGENTS.md	-"
expect_ok "--format json" "$CLAWMD" render --runtime codex --cwd "$S/p/sub" --home "$S/home" --json
json_strict "$T/out" && expect_grep "json: the files with their sizes" '"size":[[:space:]]*30' "$T/out"

# ---- the container view: a group ------------------------------------------
R=$TP/root
make_root "$R"
G=$R/groups/g
mkdir -p "$G"
printf '{"provider": "codex"}\n' >"$G/container.json"
echo "Host secret." >"$TP/secret.md"
ln -s "$TP/secret.md" "$G/AGENTS.md"
expect_ok "group: a link to a host path no mount shows" "$CLAWMD" render -C "$R" --group g --runtime codex
expect_eq "group: reads nothing through it (the container has no such file)" "$(cat "$T/out")" ""
ln -s /app/CLAUDE.md "$G/AGENTS.override.md"
expect_ok "group: a link to a mounted container path" "$CLAWMD" render -C "$R" --group g --runtime codex
expect_eq "group: reads the file the mount shows there" "$(cat "$T/out")" "# Shared base

Be helpful."
expect_ok "group: --format files shows container paths" \
	"$CLAWMD" render -C "$R" --group g --runtime codex --format files
expect_eq "group: the override's container path" "$(cat "$T/out")" \
	"Project	/workspace/agent/AGENTS.override.md	-"
rm "$G/AGENTS.override.md" "$G/AGENTS.md"
mkfifo "$G/AGENTS.override.md"
echo "Group AGENTS.md." >"$G/AGENTS.md"
expect_ok "group: a FIFO override" $HANG_GUARD "$CLAWMD" render -C "$R" --group g --runtime codex
expect_eq "group: is passed over for AGENTS.md" "$(cat "$T/out")" "Group AGENTS.md."

# ---- hostile files on the host ---------------------------------------------
H=$TP/hostile
mkdir -p "$H/.git" "$H/home/.codex"
mkfifo "$H/AGENTS.override.md"
echo "Plain AGENTS.md." >"$H/AGENTS.md"
expect_ok "a FIFO override: render finishes" $HANG_GUARD "$CLAWMD" render --runtime codex --cwd "$H" --home "$H/home"
expect_eq "a FIFO override is passed over for AGENTS.md" "$(cat "$T/out")" "Plain AGENTS.md."
NOLEAK="ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
if strace -f -o /dev/null true 2>/dev/null; then
	$HANG_GUARD env "$NOLEAK" strace -f -qq -o "$T/trace" -e trace=open,openat,openat2 \
		"$CLAWMD" render --runtime codex --cwd "$H" --home "$H/home" >/dev/null 2>&1
	grep 'AGENTS\.override\.md"' "$T/trace" | grep -v O_PATH >"$T/hits"
	check "the FIFO is never opened but O_PATH" test ! -s "$T/hits"
else
	_report 0 "# SKIP strace unavailable"
fi

rm "$H/AGENTS.override.md" "$H/AGENTS.md"
printf 'Start of a huge sparse file.\n' >"$H/AGENTS.md"
if truncate -s 8G "$H/AGENTS.md" 2>/dev/null && truncate -s 8G "$H/home/.codex/AGENTS.md" 2>/dev/null; then
	head -c 32768 "$H/AGENTS.md" >"$T/want"
	"$CLAWMD" render --runtime codex --cwd "$H" --home "$H/home" >"$T/got" 2>"$T/err"
	check "an 8 GiB project file: its first 32768 bytes, the global one (over 4 MiB) skipped" \
		cmp -s "$T/got" "$T/want"
	"$CLAWMD" render --runtime codex --cwd "$H" --home "$H/home" --codex-max-bytes 10 >"$T/got"
	expect_eq "--codex-max-bytes 10: its first 10 bytes" "$(cat "$T/got")" "Start of a"
	if strace -f -o /dev/null true 2>/dev/null; then
		env "$NOLEAK" strace -f -qq -o "$T/trace" -e trace=read,pread64,readv,mmap \
			"$CLAWMD" render --runtime codex --cwd "$H" --home "$H/home" >/dev/null 2>&1
		total=$(awk '/^[0-9]+ +read\(/ { n = $NF; if (n ~ /^[0-9]+$/) s += n } END { print s + 0 }' "$T/trace")
		check "never read past the budget ($total bytes read in all, under 1 MiB)" \
			test "$total" -lt 1048576
	else
		_report 0 "# SKIP strace unavailable"
	fi
else
	_report 0 "# SKIP no sparse files here"
	_report 0 "# SKIP no sparse files here"
	_report 0 "# SKIP no sparse files here"
fi

# ---- flags -----------------------------------------------------------------
expect_fail 2 "--codex-max-bytes takes a number" "$CLAWMD" render --runtime codex --codex-max-bytes 12k
expect_grep "it names the flag and the value" "--codex-max-bytes: expected a number of bytes, not '12k'" "$T/err"
expect_fail 2 "--codex-max-bytes is not negative" "$CLAWMD" render --runtime codex --codex-max-bytes -1
expect_fail 2 "--codex-fallback-filenames: no empty name" "$CLAWMD" render --runtime codex --codex-fallback-filenames "A.md,,B.md"
expect_grep "it names the flag" "--codex-fallback-filenames: an empty name in 'A.md,,B.md'" "$T/err"
expect_fail 2 "--codex-root-markers: no absolute name" "$CLAWMD" render --runtime codex --codex-root-markers /x
expect_grep "it says why" "--codex-root-markers: '/x' is absolute" "$T/err"
expect_fail 2 "a --codex-* flag needs --runtime codex" "$CLAWMD" render --codex-max-bytes 5
expect_grep "it names the flag and the runtime" "--codex-max-bytes is Codex's: it needs --runtime codex \\(the runtime here is claude\\)" "$T/err"
expect_fail 2 "--target is Claude Code's alone" "$CLAWMD" render --runtime codex --target x
check "--help lists the --codex-* flags" sh -c "'$CLAWMD' render --help | grep -q -- '--codex-root-markers L'"

done_testing
