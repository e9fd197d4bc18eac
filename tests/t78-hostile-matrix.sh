#!/bin/sh
# Every command against every kind of hostile entry an agent can leave in
# its group (the red team's matrix, doc/security.md): a FIFO, a device, a
# 4 GiB sparse file, a directory, a symlink loop and a symlink to a host
# secret, each in place of container.json, CLAUDE.local.md, CLAUDE.md,
# .claude-shared.md, a fragment, .claude-fragments, a rule and an import.
# One group per case, so that each command meets all of them at once and
# each alone.  What must hold, for compose, compose --check, status,
# render --group, render --cwd, check, migrate and mounts: each ends (no
# hang on a FIFO, no 4 GiB read: bounded in CPU time), with a documented
# exit status (0 to 4, 6); a refusal names the file; the secret's bytes
# never appear in any output or anywhere in the tree; the secret is never
# written; every other group composes (nothing darkens a neighbour); and
# nothing the agent wrote is lost (its notes are still there, byte for byte,
# and its links outside the names compose writes links to in symlink mode
# are kept or moved aside).
. "$CLAWMD_TESTS/lib.sh"

R=$T/root
G=$R/groups
make_root "$R"
make_skill "$R" alpha
printf '{}' >"$R/clawmd.json"
SECRET=$T/secret
printf 'CANARY-host-secret-7f3a\n' >"$SECRET"
chmod 600 "$SECRET"
secret_before=$(ls -l --time-style=+%s.%N "$SECRET")

# g NAME: a group holding the agent's notes, which nothing may lose
g() {
	mkdir -p "$G/$1"
	printf 'notes of %s\n' "$1" >"$G/$1/NOTES.md"
}
dev=no
for what in fifo dev sparse dir loop secret; do
	for f in container.json CLAUDE.local.md CLAUDE.md .claude-shared.md; do
		n="$what-$(printf %s "$f" | tr -cd 'A-Za-z')"
		g "$n"
		p="$G/$n/$f"
		case $what in
		fifo) mkfifo "$p" ;;
		dev) if mknod "$p" c 1 3 2>/dev/null; then dev=yes; else rmdir "$G/$n" 2>/dev/null; rm -rf "${G:?}/$n"; fi ;;
		sparse) truncate -s 4G "$p" ;;
		dir) mkdir "$p" ;;
		loop) ln -s "$f" "$p" ;;
		secret) ln -s "$SECRET" "$p" ;;
		esac
	done
done
# inside the fragments, the rules and the imports
g frag-fifo && mkdir "$G/frag-fifo/.claude-fragments" && mkfifo "$G/frag-fifo/.claude-fragments/skill-alpha.md"
g frag-secret && mkdir "$G/frag-secret/.claude-fragments" &&
	ln -s "$SECRET" "$G/frag-secret/.claude-fragments/skill-alpha.md"
g frags-secret && ln -s "$(dirname "$SECRET")" "$G/frags-secret/.claude-fragments"
g frags-loop && ln -s .claude-fragments "$G/frags-loop/.claude-fragments"
g rules && mkdir -p "$G/rules/.claude/rules" && mkfifo "$G/rules/.claude/rules/f.md" &&
	truncate -s 4G "$G/rules/.claude/rules/big.md" && ln -s . "$G/rules/.claude/rules/loop" &&
	ln -s "$SECRET" "$G/rules/.claude/rules/s.md"
g dotclaude && ln -s "$(dirname "$SECRET")" "$G/dotclaude/.claude"
g imports && mkfifo "$G/imports/p.md" && truncate -s 4G "$G/imports/big.md" &&
	ln -s "$SECRET" "$G/imports/s.md" &&
	printf '@./p.md\n@./big.md\n@./s.md\n@%s\n@../../../secret\n' "$SECRET" >"$G/imports/CLAUDE.local.md"
g main

groups=$(cd "$G" && ls)
# The agent's links, but those in the names compose writes links to in
# symlink mode (a fragment, .claude-shared.md): clawmd's, replaced.
links() { find "$G" -lname "$SECRET" ! -path '*/.claude-fragments/*' ! -name .claude-shared.md | wc -l; }
links_before=$(links)
nok=0
bad=
for n in $groups; do
	for cmd in "compose $n" "compose --check $n" "render --group $n" "render --cwd $G/$n" "mounts $n"; do
		# shellcheck disable=SC2086 # the command's words
		(ulimit -t 20; $HANG_GUARD $CLAWMD -C "$R" $cmd) >"$T/out" 2>"$T/err"
		st=$?
		case $st in
		0 | 1) ;;
		3 | 4) grep -q "groups/$n" "$T/err" || bad="$bad
$cmd: exit $st without naming the group's file: $(head -c 300 "$T/err")" ;;
		*) bad="$bad
$cmd: exit $st: $(head -c 300 "$T/err")" ;;
		esac
		if grep -q CANARY "$T/out" "$T/err"; then bad="$bad
$cmd: printed the host secret"; fi
		nok=$((nok + 1))
	done
done
check "each of $nok per-group runs ends with a documented status, a refusal naming the file, no secret" \
	[ -z "$bad" ]
[ -n "$bad" ] && printf '%s\n' "$bad" | sed 's/^/# /'

for cmd in "compose --all" "status" "status --json" "check" "check --format json" "migrate"; do
	# shellcheck disable=SC2086
	(ulimit -t 60; $HANG_GUARD $CLAWMD -C "$R" $cmd) >"$T/out" 2>"$T/err"
	st=$?
	check "$cmd ends with a documented status ($st)" sh -c "[ $st -le 4 ] || [ $st = 6 ]"
	check "$cmd prints no host secret" sh -c "! grep -q CANARY '$T/out' '$T/err'"
done

# Nothing outside was read into, or written to.
check "the host secret is unchanged" [ "$(ls -l --time-style=+%s.%N "$SECRET")" = "$secret_before" ]
expect_eq "no file in the tree holds the secret" \
	"$(find "$R" -type f -size -2M -exec grep -l CANARY {} + | head -3)" ""
# Nothing darkened a neighbour, nothing the agent wrote was lost.
expect_grep "main composed" '^@\./\.claude-fragments/skill-alpha\.md$' "$G/main/CLAUDE.md"
lost=
for n in $groups; do
	[ "$(cat "$G/$n/NOTES.md" 2>/dev/null)" = "notes of $n" ] || lost="$lost $n"
done
expect_eq "every group's notes kept" "$lost" ""
expect_eq "the planted links to the secret kept or moved aside, never removed" \
	"$(links)" "$links_before"
if [ $dev = no ]; then _report 0 "# SKIP mknod failed (not root): no device cases"; fi
done_testing
