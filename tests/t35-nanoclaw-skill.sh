#!/bin/sh
# contrib/nanoclaw (SKILL.md, REMOVE.md), what can be checked without a
# nanoclaw checkout or the network (issue 32, item 6): the platform gate
# comes before any change; every install route it lists is one this tree
# builds (the package path and tarball name are what make node and make
# node-pack produce); every function it imports from clawmd/nanoclaw is one
# the package exports; the clawmd.json it writes and the check it runs
# behave as it says; each shell block parses.  The skill applied by hand to
# real nanoclaw trees is in doc/nanoclaw.md.
. "$CLAWMD_TESTS/lib.sh"

S=$CLAWMD_SRC/contrib/nanoclaw/SKILL.md
R=$CLAWMD_SRC/contrib/nanoclaw/REMOVE.md
NC=$CLAWMD_SRC/bindings/node/nanoclaw.js
NC_MJS=$CLAWMD_SRC/bindings/node/nanoclaw.mjs
unset MAKEFLAGS MFLAGS MAKELEVEL

# The fenced blocks of a file, one file each: $T/DOC-N.LANG.
python3 - "$S" "$T/skill" "$R" "$T/remove" <<'EOF'
import re, sys
for src, out in ((sys.argv[1], sys.argv[2]), (sys.argv[3], sys.argv[4])):
    for n, (lang, body) in enumerate(re.findall(r'^```(\w*)\n(.*?)^```$', open(src).read(), re.S | re.M)):
        open(f'{out}-{n}.{lang or "txt"}', 'w').write(body)
EOF

expect_grep "the skill has a name" '^name: use-clawmd$' "$S"
expect_grep "... and a description" '^description: .+' "$S"

# 1. The platform gate, before anything is installed or edited.
line() { grep -n -m1 -F -- "$1" "$S" | cut -d: -f1; }
gate=$(line 'uname -s') add=$(line 'pnpm add') edit=$(line 'Replace the whole file with')
check "the platform is asked first (uname -s before pnpm add and any edit)" \
	test -n "$gate" -a -n "$add" -a -n "$edit" -a "${gate:-0}" -lt "${add:-0}" -a "${gate:-0}" -lt "${edit:-0}"
expect_grep "... and it stops on macOS, saying nothing was changed" 'macOS prints `Darwin`\), \*\*stop here\*\*' "$S"
expect_grep "the package says the same platform (os: linux)" '"os": \["linux"\]' "$CLAWMD_SRC/bindings/node/package.json"

# 2. The install routes: the directory make node stages and the tarball make
# node-pack writes, named as the skill names them.
mk() { make --no-print-directory -C "$CLAWMD_SRC" "$@"; }
expect_ok "make -n node" mk -n BUILD=build node
expect_grep "... stages the package in build/node/package" 'mkdir -p build/node/package' "$T/out"
expect_grep "the skill installs that directory" '^pnpm add /path/to/clawmd/build/node/package$' "$S"
expect_ok "make -n node-pack" mk -n BUILD=build node-pack
expect_grep "... packs it in build/node" '^cd build/node && npm pack --silent ./package$' "$T/out"
version=$(sed -n 's/^  "version": "\(.*\)",$/\1/p' "$CLAWMD_SRC/bindings/node/package.json")
expect_grep "the skill's tarball is npm pack's name for this version ($version)" \
	"^pnpm add /path/to/clawmd/build/node/clawmd-$version\\.tgz$" "$S"
check "no route packs bindings/node itself (it lacks the addon and the command)" \
	sh -c "! grep -q 'npm pack. in clawmd' '$S' && ! grep -q 'use its\$' '$S'"
check "no route installs from the registry (clawmd is not published)" \
	sh -c "! grep -Eq '^pnpm add (clawmd|\"clawmd\")\$' '$S'"

# 3. Every function the skill imports from clawmd/nanoclaw is exported.
exports=$(sed -n 's/^module\.exports = { \(.*\) };$/\1/p' "$NC" | tr -d ' ' | tr ',' '\n')
for f in $(grep -ho "import { [A-Za-z]* [a-zA-Z ]*} from 'clawmd/nanoclaw'" "$S" | awk '{ print $3 }' | sort -u); do
	case $f in
	composeGroupProjectDoc)
		if ! echo "$exports" | grep -qx "$f"; then
			_report 0 "clawmd/nanoclaw exports $f # SKIP the adapter is not in this tree yet"
			continue
		fi ;;
	esac
	check "clawmd/nanoclaw exports $f" sh -c "echo '$exports' | grep -qx '$f'"
	# nanoclaw is an ES module: its import reaches nanoclaw.mjs, not .js.
	expect_grep "... and its ESM face (nanoclaw.mjs) too" "^export const \\{.* $f[,} ]" "$NC_MJS"
done
# The flat route swaps nanoclaw's module: every name it exports comes from
# clawmd/nanoclaw, the signature is nanoclaw 2.4's, and the row and the
# logger are wired once through configure().
if echo "$exports" | grep -qx composeGroupProjectDoc; then
	expect_grep "composeGroupProjectDoc takes (group, groupDir, spec, runtimeSkills, options)" \
		'async function composeGroupProjectDoc\(group, groupDir, spec, runtimeSkills, options\)' "$NC"
	for f in composeGroupProjectDoc DEFAULT_PROJECT_DOC BASE_INSTRUCTIONS_PATH MEMORY_NOTE_PLACEHOLDER \
		renderBaseInstructions renderNativeSkillsSection configure; do
		check "clawmd/nanoclaw exports $f, as the swapped module must" sh -c "echo '$exports' | grep -qx '$f'"
		check "... and its ESM face too" grep -q "^export const {.* $f[,} ]" "$NC_MJS"
		[ $f = configure ] || check "... and the skill's module re-exports it" grep -q "^  $f,\$" "$S"
	done
	check "the skill wires nanoclaw's row reader and logger" grep -qxF 'clawmd.configure({ getContainerConfig, log });' "$S"
	expect_grep "the skill runs nanoclaw's own composer tests against clawmd" \
		'^pnpm exec vitest run src/project-doc-compose.test.ts$' "$S"
fi

# 4. Each shape is recognised by the file it has.
for w in src/project-doc-compose.ts src/claude-md-compose.ts composeGroupProjectDoc composeGroupClaudeMd; do
	expect_grep "the skill names $w" "$w" "$S"
done

# 5. clawmd.json as the skill writes it, and check as it says: on a
# checkout that never ran (no groups/), exit 4 naming groups/; a group
# clawmd has not composed is CM402 until compose --all, then no error.
for j in "$T"/skill-*.json; do
	r=$T/root-${j##*/}
	mkdir -p "$r/container" && cp "$j" "$r/clawmd.json" && echo "# base" >"$r/container/CLAUDE.md"
	if grep -q '"document"' "$j" && ! echo "$exports" | grep -qx composeGroupProjectDoc; then
		_report 0 "check --all with $(tr -d ' \n' <"$j") # SKIP the flat document is not in this tree yet"
		continue
	fi
	expect_fail 4 "check --all with $(tr -d ' \n' <"$j"), no groups/ yet: exit 4" "$CLAWMD" -C "$r" check --all
	expect_grep "... naming groups/" "no groups directory 'groups'" "$T/err"
	mkdir -p "$r/groups/main"
	expect_fail 1 "... a group nanoclaw composed: error until clawmd composes it" "$CLAWMD" -C "$r" check --all
	expect_grep "... CM402, as the skill says" 'CM402' "$T/out"
	expect_ok "... compose --all" "$CLAWMD" -C "$r" compose --all
	expect_ok "... then no error: exit 0" "$CLAWMD" -C "$r" check --all
done

# 6. Every shell block of both files parses.
for b in "$T"/skill-*.bash "$T"/remove-*.bash; do
	expect_ok "sh -n ${b##*/}" sh -n "$b"
done

# 7. REMOVE.md undoes what the skill does.
expect_grep "REMOVE.md restores nanoclaw's module" \
	"^git checkout <the commit before the switch> -- src/project-doc-compose.ts$" "$R"
for w in 'pnpm remove clawmd' 'rm -f clawmd.json' '\.clawmd' 'claude-md-compose.js' 'composeGroupClaudeMd\(agentGroup\)'; do
	expect_grep "REMOVE.md: $w" "$w" "$R"
done
done_testing
