#!/bin/sh
# make soak: many composes against hostile agents, with loss accounting
# (issue 42; tests/soak.c does the run, doc/security.md says what it
# shows).  Usage: scripts/soak.sh CLAWMD SOAK [LABEL]
#   SOAK_COMPOSES  composes at most (100000)
#   SOAK_SECONDS   seconds at most (1200)
#   SOAK_GROUPS    groups (3)
#   SOAK_KEEP      set: the root is left behind (its path printed)
# A root of its own under $TMPDIR: three groups owned by uid 1000 (when run
# as root), composed round-robin by the driver while the agents write.
# After the run: every tracked line is found, what was moved aside stays
# within the bound (at most CLAWMD_PRESERVED_CAP entries and one overflow
# file per name) and is owned by the group directory's owner, and a no-op
# compose of a soaked group makes no more system calls than one of a fresh
# group (the start's state) and lists no directory: counted, not timed, so
# that the machine's load cannot move the verdict.  Exit 1 otherwise.
set -u
CLAWMD=$1 SOAK=$2 LABEL=${3:-soak}
COMPOSES=${SOAK_COMPOSES:-100000} SECONDS_MAX=${SOAK_SECONDS:-1200} NG=${SOAK_GROUPS:-3}
CAP=16
T=$(mktemp -d "${TMPDIR:-/tmp}/clawmd-soak.XXXXXX") || exit 2
R=$T/root
[ -n "${SOAK_KEEP:-}" ] || trap 'rm -rf "$T"' EXIT # SOAK_KEEP=1: left for a look
chmod 755 "$T" # the agents (uid 1000) reach their groups through it
mkdir -p "$R/container" "$R/groups"
printf '# Shared base\n\nBe helpful.\n' >"$R/container/CLAUDE.md"
for s in alpha beta; do
	mkdir -p "$R/skills/$s"
	printf -- '---\nname: %s\ndescription: soak skill %s\n---\n\nDo %s.\n' "$s" "$s" "$s" \
		>"$R/skills/$s/SKILL.md"
	printf 'Use %s well.\n' "$s" >"$R/skills/$s/instructions.md"
done
printf '{}\n' >"$R/clawmd.json"
groups=
i=1
while [ $i -le "$NG" ]; do
	g=g$i
	groups="$groups $g"
	mkdir -p "$R/groups/$g"
	printf '{"skills": ["alpha", "beta"]}\n' >"$R/groups/$g/container.json"
	[ "$(id -u)" = 0 ] && chown 1000:1000 "$R/groups/$g"
	"$CLAWMD" compose -q -C "$R" -- "$g" || { echo "$LABEL: the first compose of $g failed"; exit 1; }
	i=$((i + 1))
done

# No-op composes per second of group $1: one run of 100.
noop_batch() {
	t0=$(date +%s%N)
	n=0
	while [ $n -lt 100 ]; do "$CLAWMD" compose -q -C "$R" -- "$1" || return 1; n=$((n + 1)); done
	t1=$(date +%s%N)
	echo $((100 * 1000000000 / (t1 - t0 + 1)))
}
# The best of five runs of the soaked group g1 and of group ref (composed
# as g1 was at the start, never soaked), interleaved so that the machine's
# load weighs on both alike: "$g1_rate $ref_rate".
noop_rates() {
	b1=0 b2=0
	for _r in 1 2 3 4 5; do
		x=$(noop_batch g1) || return 1
		y=$(noop_batch ref) || return 1
		[ "$x" -gt "$b1" ] && b1=$x
		[ "$y" -gt "$b2" ] && b2=$y
	done
	echo "$b1 $b2"
}
mkdir -p "$R/groups/ref"
printf '{"skills": ["alpha", "beta"]}\n' >"$R/groups/ref/container.json"
[ "$(id -u)" = 0 ] && chown 1000:1000 "$R/groups/ref"
"$CLAWMD" compose -q -C "$R" -- ref || { echo "$LABEL: the first compose of ref failed"; exit 1; }
start_rate=$(noop_batch g1) || { echo "$LABEL: a no-op compose failed"; exit 1; }

# shellcheck disable=SC2086
"$SOAK" "$CLAWMD" "$R" "$COMPOSES" "$SECONDS_MAX" $groups >"$T/closing" 2>"$T/progress"
rc=$?
grep -v '^soak: [0-9]* composes, ' "$T/progress" | head -40
if [ -s "$R/soak-stderr.log" ] && [ $rc -ne 0 ]; then
	echo "$LABEL: compose's messages (the first 20 distinct):"
	sed 's/[0-9a-f]\{6,\}/X/g' "$R/soak-stderr.log" | sort | uniq -c | sort -rn | head -20
fi

# What was moved aside: within the bound, the group directory's owner's.
bad=0
entries=0
worst=0
past=0
for g in $groups; do
	G=$R/groups/$g
	n=$(find "$G" -path "$G/agent-kept" -prune -o -name '*.clawmd-preserved-*' -print | wc -l)
	entries=$((entries + n))
	past=$((past + $(find "$G" -path "$G/agent-kept" -prune -o -name '*.clawmd-preserved-overflow-*' -print | wc -l)))
	per=$(find "$G" -path "$G/agent-kept" -prune -o -name '*.clawmd-preserved-*' \
		! -name '*.clawmd-preserved-overflow*' -print | sed 's/\.clawmd-preserved-.*//' |
		sort | uniq -c | sort -rn | awk 'NR == 1 { print $1 }')
	[ "${per:-0}" -gt "$worst" ] && worst=${per:-0}
	if [ "$(id -u)" = 0 ]; then
		notown=$(find "$G" -path "$G/agent-kept" -prune -o -name '*.clawmd-preserved-*' ! -user 1000 -print | head -5)
		[ -z "$notown" ] || { echo "$LABEL: moved aside but not the group owner's: $notown"; bad=1; }
	fi
done
[ "$worst" -le "$CAP" ] || { echo "$LABEL: $worst entries moved aside under one name (the cap is $CAP)"; bad=1; }

"$CLAWMD" compose -q -C "$R" -- ref # the host source edits of the soak
rates=$(noop_rates) || { echo "$LABEL: a no-op compose failed"; exit 1; }
end_rate=${rates% *} ref_rate=${rates#* }
# The fast path unaffected by a full directory, judged by what the machine's
# load cannot move: the system calls of one no-op (strace -c), the soaked
# group's against the fresh one's, and no directory listed.  The rates
# above are printed, never judged (doc/speed.md: speed is make bench's).
syscalls() { # syscalls GROUP: "CALLS GETDENTS" of one no-op compose
	# LeakSanitizer cannot run under ptrace: off for this one run
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		strace -f -qq -c -o "$T/sc" "$CLAWMD" compose -q -C "$R" -- "$1" || return 1
	awk '$NF == "total" { t = $4 } $NF ~ /^getdents/ { d += $4 } END { print t + 0, d + 0 }' "$T/sc"
}
if command -v strace >/dev/null; then
	sc_g1=$(syscalls g1) && sc_ref=$(syscalls ref) || { echo "$LABEL: a no-op compose failed under strace"; exit 1; }
	[ "${sc_g1#* }" = 0 ] || { echo "$LABEL: a no-op compose of a soaked group lists a directory (${sc_g1#* } getdents)"; bad=1; }
	[ "${sc_g1% *}" -le "${sc_ref% *}" ] ||
		{ echo "$LABEL: a no-op compose of a soaked group makes ${sc_g1% *} system calls, of a fresh one ${sc_ref% *}"; bad=1; }
	sc_say="; a no-op's system calls: ${sc_g1% *} soaked, ${sc_ref% *} fresh, no directory listed"
else
	sc_say="; strace not installed: the no-op's system calls not compared"
fi

sed "s/^soak:/$LABEL:/" "$T/closing"
[ -z "${SOAK_KEEP:-}" ] || echo "$LABEL: the root is left in $R"
echo "$LABEL: $entries entries moved aside (at most $worst per name, the cap $CAP, plus one overflow file; $past past the cap, open for writing or not a file), $( [ "$(id -u)" = 0 ] && echo 'owned by the groups'"'"' owner (uid 1000), ')no-op composes $start_rate/s at the start; at the end $end_rate/s, a fresh group $ref_rate/s$sc_say"
[ $rc -eq 0 ] && [ $bad -eq 0 ]
