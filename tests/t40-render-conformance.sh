#!/bin/sh
# The render conformance suite: one directory per case under tests/render/.
#
#   tree/      the input tree, copied into a fresh temp directory (ROOT)
#   setup.sh   optional: run in ROOT with $ROOT set (symlinks, git repos)
#   args       the flags of `clawmd render`, one line, shell words;
#              @ROOT@ stands for ROOT
#   expected   the exact output, with @ROOT@ for ROOT
#   expected.sh instead of expected: run in ROOT after setup.sh, with
#              $CLAUDE_VERSION the release rendered for, prints the
#              expected output (for raw readdir(3) order, which depends on
#              the filesystem: `readdir DIR` prints DIR's names in the order
#              the kernel returns them)
#   claude-version  optional: the releases to render for (--claude-version),
#              blank-separated: one test each, all against the same expectation
#
# Every case passes --managed-dir and --home inside ROOT, so nothing depends
# on /etc/claude-code or $HOME.  CLAWMD_RENDER_BLESS=1 writes `expected`
# from the current output instead (review the diff before committing).
. "$CLAWMD_TESTS/lib.sh"
cases_dir="$CLAWMD_TESTS/render"
# Every case's tree first, the .keep placeholders removed in one go: the
# suite starts a few processes per case, not a dozen (it runs 120 cases).
TP=$(cd "$T" && pwd -P)
for dir in "$cases_dir"/*/; do
	name=${dir%/}
	name=${name##*/}
	mkdir "$TP/$name" && cp -R "$dir/tree/." "$TP/$name/"
done
find "$TP" -name .keep -delete
for dir in "$cases_dir"/*/; do
	name=${dir%/}
	name=${name##*/}
	root=$TP/$name
	if [ -f "$dir/setup.sh" ]; then
		(cd "$root" && ROOT=$root sh "$dir/setup.sh") >"$T/setup.out" 2>&1 ||
			{ _report 1 "$name: setup" "$(cat "$T/setup.out")"; continue; }
	fi
	IFS= read -r rest <"$dir/args"
	args=
	while :; do
		case $rest in *@ROOT@*) ;; *) break ;; esac
		args=$args${rest%%@ROOT@*}$root
		rest=${rest#*@ROOT@}
	done
	args=$args$rest
	versions=-
	[ -f "$dir/claude-version" ] && versions=$(cat "$dir/claude-version")
	for v in $versions; do
		expected=$dir/expected
		if [ -f "$dir/expected.sh" ]; then
			(cd "$root" && ROOT=$root CLAUDE_VERSION=$v PATH="$CLAWMD_TESTS/render:$PATH" \
				sh "$dir/expected.sh") >"$T/exp.raw" 2>"$T/setup.out" ||
				{ _report 1 "$name: expected.sh" "$(cat "$T/setup.out")"; continue; }
			sed "s|$root|@ROOT@|g" "$T/exp.raw" >"$T/expected"
			expected=$T/expected
		fi
		eval "set -- $args"
		test_name=$name
		if [ "$v" != - ]; then
			set -- "$@" --claude-version "$v"
			[ "$v" = "$versions" ] || test_name="$name @ $v"
		fi
		(cd "$root" && "$CLAWMD" render "$@") >"$T/got" 2>"$T/err"
		st=$?
		sed "s|$root|@ROOT@|g" "$T/got" >"$T/got.sub"
		# sed adds a final newline the output may not have: compare raw bytes
		if [ -n "$(tail -c1 "$T/got")" ]; then
			printf '%s' "$(cat "$T/got.sub")" >"$T/got.sub2"
			mv "$T/got.sub2" "$T/got.sub"
		fi
		if [ "${CLAWMD_RENDER_BLESS:-}" = 1 ] && [ ! -f "$dir/expected.sh" ]; then
			cp "$T/got.sub" "$dir/expected"
		fi
		if [ "$st" = 0 ] && cmp -s "$T/got.sub" "$expected"; then
			_report 0 "$test_name"
		else
			_report 1 "$test_name" "exit $st; $(head -c 500 "$T/err")
$(diff "$expected" "$T/got.sub" | head -40)"
		fi
	done
done
done_testing
