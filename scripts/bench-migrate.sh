#!/bin/sh
# bench-migrate.sh BUILD: migrate 2,000 legacy groups (issue 3, item 7).
# Each group has a hand-owned CLAUDE.md starting with the legacy import and a
# .claude-global.md symlink; half also have a CLAUDE.local.md, so both the
# move and the append path are timed.  groups/global has a CLAUDE.md with one
# block missing from the base.  Reported: the cutover (every write fsynced),
# the second run (one stat of the record) and a --force rerun over the
# migrated tree (every group examined, nothing written), per group.
set -eu
build=${1:-build}
clawmd=$build/clawmd
n=${CLAWMD_BENCH_GROUPS:-2000}
work=$(mktemp -d "${TMPDIR:-/tmp}/clawmd-bench-migrate.XXXXXX")
trap 'rm -rf "$work"' EXIT

R=$work/root
mkdir -p "$R/container" "$R/groups/global"
printf '# Shared base\n\nBe helpful.\n' >"$R/container/CLAUDE.md"
printf '# Shared base\n\nBe helpful.\n\nSign with -- bot.\n' >"$R/groups/global/CLAUDE.md"
i=0
while [ $i -lt "$n" ]; do
	g=$R/groups/g$i
	mkdir "$g"
	printf '@./.claude-global.md\n\n# Persona %d\n\nYou are agent %d.\n' $i $i >"$g/CLAUDE.md"
	ln -s /workspace/global/CLAUDE.md "$g/.claude-global.md"
	[ $((i % 2)) = 1 ] && printf 'Memory of %d.\n' $i >"$g/CLAUDE.local.md"
	i=$((i + 1))
done
sync

s1=$(date +%s%N)
"$clawmd" migrate -C "$R" -q
s2=$(date +%s%N)
"$clawmd" migrate -C "$R" -q
s3=$(date +%s%N)
"$clawmd" migrate -C "$R" -q --force
s4=$(date +%s%N)
[ "$(ls "$R/groups" | wc -l)" = "$n" ] && [ ! -e "$R/groups/g0/CLAUDE.md" ] &&
	grep -q 'Memory of 1' "$R/groups/g1/CLAUDE.local.md" || { echo "bench-migrate: wrong result" >&2; exit 1; }

echo "migrate over $n legacy groups"
awk -v a="$s1" -v b="$s2" -v c="$s3" -v d="$s4" -v n="$n" 'BEGIN {
	printf "  cutover (fsynced)       %8.0f ms   %6.1f us/group\n", (b - a) / 1e6, (b - a) / 1e3 / n
	printf "  second run (recorded)   %8.3f ms\n", (c - b) / 1e6
	printf "  --force rerun (no-op)   %8.0f ms   %6.1f us/group\n", (d - c) / 1e6, (d - c) / 1e3 / n }'
