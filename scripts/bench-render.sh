#!/bin/sh
# bench-render.sh [BUILD] - time `clawmd render` as a whole process on a
# 10-level tree holding 300 memory files (CLAUDE.md, CLAUDE.local.md, rules
# and imported files at every level, with imports between them).
set -eu
BUILD=${1:-build}
CLAWMD=$(cd "$BUILD" && pwd)/clawmd
T=$(mktemp -d "${TMPDIR:-/tmp}/clawmd-bench.XXXXXX")
trap 'rm -rf "$T"' EXIT
d="$T/root"
mkdir -p "$T/home/.claude" "$T/managed"
for level in 1 2 3 4 5 6 7 8 9 10; do
	d="$d/l$level"
	mkdir -p "$d/.claude/rules/sub" "$d/docs"
	# 30 files per level: CLAUDE.md, CLAUDE.local.md, 12 rules, 16 imported docs
	{
		printf '# Level %s\n\nSee @./docs/d1.md and @./docs/d2.md.\n\n' "$level"
		printf -- '- keep `code @./docs/never.md` apart\n<!-- a comment -->\n'
	} >"$d/CLAUDE.md"
	printf 'Local notes for %s. @./docs/d3.md\n' "$level" >"$d/CLAUDE.local.md"
	for r in 1 2 3 4 5 6 7 8 9 10; do
		printf 'Rule %s.%s @../../docs/d%s.md\n' "$level" "$r" $((r + 3)) >"$d/.claude/rules/r$r.md"
	done
	printf -- '---\npaths: "src/**/*.ts, {a,b}/*.c"\n---\nconditional\n' >"$d/.claude/rules/sub/c.md"
	printf 'nested rule\n' >"$d/.claude/rules/sub/n.md"
	for k in $(seq 1 16); do
		printf 'Doc %s.%s text, @./d%s.md\n\n```\n@./x.md\n```\n' "$level" "$k" $((k % 16 + 1)) >"$d/docs/d$k.md"
	done
done
n=$(find "$T/root" -name '*.md' | wc -l)
run() { "$CLAWMD" render --cwd "$d" --home "$T/home" --managed-dir "$T/managed" >/dev/null; }
run
bytes=$("$CLAWMD" render --cwd "$d" --home "$T/home" --managed-dir "$T/managed" | wc -c)
echo "render: 10 levels, $n memory files, output $bytes bytes"
if command -v hyperfine >/dev/null 2>&1; then
	hyperfine -N --warmup 3 --runs 30 \
		"$CLAWMD render --cwd $d --home $T/home --managed-dir $T/managed" 2>&1 |
		sed -n '/Time/,/Range/p'
else
	start=$(date +%s%N)
	for i in $(seq 1 20); do run; done
	end=$(date +%s%N)
	echo "render: $(((end - start) / 20000)) us per run (mean of 20)"
fi
