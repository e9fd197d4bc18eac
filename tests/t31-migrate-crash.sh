#!/bin/sh
# migrate killed at every mutating syscall in turn (kill -9 through strace),
# and failing with a full disk, EIO and failed renames at each one: run again,
# it must reach exactly the state of an uninterrupted run, with nothing lost,
# nothing appended twice and no temp left behind (issue 3, item 5).
. "$CLAWMD_TESTS/lib.sh"

if ! command -v strace >/dev/null 2>&1 || ! strace -f -o /dev/null true 2>/dev/null; then
	echo "1..0 # SKIP strace unavailable"
	exit 0
fi
# A private copy of the binary: the loop runs long, and a shared build
# directory may be relinking $CLAWMD meanwhile.
private_clawmd
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"

S=$T/start
make_root "$S"
G=$S/groups
mkdir -p "$G/global/sub" "$G/a" "$G/b" "$G/c" "$G/d" "$G/f" "$G/.dot"
printf '# Global\n\nBe helpful.\n\nAlways sign with -- bot.\n' >"$G/global/CLAUDE.md"
echo "global notes" >"$G/global/notes.txt"
echo "deep" >"$G/global/sub/deep.txt"
printf '@./.claude-global.md\n\n# Persona A\n' >"$G/a/CLAUDE.md"
ln -s /workspace/global/CLAUDE.md "$G/a/.claude-global.md"
printf '@./.claude-global.md\n# Persona B\n' >"$G/b/CLAUDE.md"
printf 'B remembers.\n' >"$G/b/CLAUDE.local.md"
ln -s /workspace/global/CLAUDE.md "$G/b/.claude-global.md"
printf 'own file\n' >"$G/c/.claude-global.md"
printf '# C\n@./.claude-global.md\nmore C\n' >"$G/c/CLAUDE.md"
: >"$G/c/CLAUDE.local.md"
printf '@./.claude-global.md\n' >"$G/d/CLAUDE.md"
ln -s /workspace/global/CLAUDE.md "$G/d/.claude-global.md"
ln -s /etc/hostname "$G/f/CLAUDE.md"
printf '@./.claude-global.md\n' >"$G/.dot/CLAUDE.md"

R=$T/root
reset() { rm -rf "$R" && cp -a "$S" "$R"; }
# Everything under ROOT with contents, the record last; the random or
# time-dependent parts of names (archive stamps, quarantine names)
# normalized.  One perl, since it runs after every kill.
state() {
	perl -MFile::Find -MDigest::MD5 -e '
		my $root = shift; my @out;
		find({ no_chdir => 1, wanted => sub {
			my $p = $File::Find::name;
			return if $p eq $root;
			my $r = "." . substr($p, length $root);
			if (-l $p) { push @out, "$r -> " . readlink $p }
			elsif (-d _) { push @out, "$r/" }
			elsif ($r !~ m{/migrated\.json$}) {
				open my $f, "<:raw", $p or die "$p: $!";
				push @out, "$r " . Digest::MD5->new->addfile($f)->hexdigest;
			}
		} }, $root);
		if (open my $f, "<", "$root/.clawmd/migrated.json") { push @out, "record:", <$f> }
		chomp @out;
		s/global-[0-9]{8}T[0-9]{6}Z(-[0-9]+)?/global-X/g, s/clawmd-preserved-[0-9A-Za-z-]*/clawmd-preserved-X/g for @out;
		print "$_\n" for sort @out;' "$R"
}

reset
expect_ok "reference run" $CLAWMD migrate -C "$R" -q
want=$(state)
check "reference: the record exists" test -f "$R/.clawmd/migrated.json"
check "reference: persona A carried" grep -q "Persona A" "$R/groups/a/CLAUDE.local.md"
check "reference: global archived" sh -c "test -f '$R'/.clawmd/archive/global-*/sub/deep.txt"

# Killed at every call that changes the disk (kill_points, tests/lib.sh).
calls=openat,write,fsync,mkdir,mkdirat,rename,renameat,renameat2,unlink,unlinkat,symlinkat
reset
kill_points $calls $CLAWMD migrate -C "$R" -q >"$T/killpoints"
expect_eq "a traced run reaches the same state" "$(state)" "$want"
kills=0
bad=
while read -r sc n; do
	reset
	if ! kill_at "$sc" "$n" $CLAWMD migrate -C "$R" -q; then
		bad="$bad
$sc#$n: not killed there: the run ended first, or the call does not write"
		continue
	fi
	kills=$((kills + 1))
	if ! $CLAWMD migrate -C "$R" -q >/dev/null 2>"$T/err2" </dev/null; then
		bad="$bad
$sc#$n: rerun failed: $(cat "$T/err2")"
	elif [ "$(state)" != "$want" ]; then
		bad="$bad
$sc#$n: state differs:
$(state)"
	fi
done <"$T/killpoints"
check "killed at $kills mutating syscalls" test "$kills" -gt 20
expect_eq "every rerun after a kill reached the uninterrupted state" "$bad" ""

# Failing syscalls: a message naming a path, no temp left, and the rerun
# (with the disk fixed) reaches the same state.  A failure inside one group
# fails that group only: exit 6, and the record lists it (the rerun retries
# it); a failure of the run itself (the record) is exit 4 with no record.
# The groups the record lists as failed, read from the layout cJSON_Print
# gives it (one key a line; only "failed" holds "group" keys): awk, since
# this runs at every injected failure and python3 starts slowly.
failed_groups() {
	awk '/^\t"failed":/ { f = 1 } /^\t"archives":/ { f = 0 }
	f && /^\t+"group":/ { sub(/^[^:]*:[ \t]*"/, ""); sub(/",?$/, ""); printf "%s%s", s, $0; s = " " }
	END { print "" }' "$1" 2>/dev/null
}
fails=0
partial=0
bad=
for spec in write:error=ENOSPC fsync:error=EIO rename,renameat,renameat2:error=ENOSPC \
	unlinkat:error=EIO; do
	n=1
	while [ $n -le 100 ]; do
		reset
		strace -f -o /dev/null -e inject="$spec:when=$n" $CLAWMD migrate -C "$R" -q \
			>/dev/null 2>"$T/err1"
		st=$?
		[ $st -eq 0 ] && break
		fails=$((fails + 1))
		if [ $st -eq 6 ]; then partial=$((partial + 1)); fi
		if [ $st -ne 4 ] && [ $st -ne 6 ]; then
			bad="$bad
$spec#$n: exit $st: $(cat "$T/err1")"
		elif ! grep -q "'/" "$T/err1"; then
			bad="$bad
$spec#$n: message names no path: $(cat "$T/err1")"
		elif [ $st -eq 4 ] && [ -e "$R/.clawmd/migrated.json" ]; then
			bad="$bad
$spec#$n: record written despite a failure of the run"
		elif [ $st -eq 6 ] && [ -z "$(failed_groups "$R/.clawmd/migrated.json")" ]; then
			bad="$bad
$spec#$n: exit 6 but the record lists no failed group"
		elif [ $st -eq 6 ] && ! grep -q "^clawmd: $(failed_groups "$R/.clawmd/migrated.json" | cut -d' ' -f1): " "$T/err1"; then
			bad="$bad
$spec#$n: the failed group is not named on stderr: $(cat "$T/err1")"
		elif find "$R" -name '*.tmp' | grep -q .; then
			bad="$bad
$spec#$n: temp left: $(find "$R" -name '*.tmp')"
		elif ! $CLAWMD migrate -C "$R" -q >/dev/null 2>"$T/err2"; then
			bad="$bad
$spec#$n: rerun failed: $(cat "$T/err2")"
		elif [ "$(state)" != "$want" ]; then
			bad="$bad
$spec#$n: state differs:
$(state)"
		fi
		n=$((n + 1))
	done
done
check "failed $fails syscalls, $partial of them inside one group" test "$fails" -gt 10 -a "$partial" -gt 5
expect_eq "every failure: exit 6 with the group recorded or exit 4 with no record, path named, no temp; rerun converged" "$bad" ""

# The agent writing its memory while migrate writes it: stop migrate at its
# first fsync (the staged CLAUDE.local.md, before the rename), write, let it
# go on.  The agent's write must survive and CLAUDE.md must stay until a
# rerun carries it.
race() { # NAME SETUP-LOCAL(yes/no)
	RR=$T/race-$1
	rm -rf "$RR"
	make_root "$RR"
	mkdir -p "$RR/groups/a"
	echo persona >"$RR/groups/a/CLAUDE.md"
	[ "$2" = yes ] && echo memory >"$RR/groups/a/CLAUDE.local.md"
	start_stopped fsync $CLAWMD migrate -C "$RR" -q
	echo "agent wrote" >>"$RR/groups/a/CLAUDE.local.md"
	resume_stopped
	expect_eq "$1: that group failed: exit 6" "$?" 6
	expect_grep "$1: the message names CLAUDE.local.md" "groups/a/CLAUDE.local.md" "$T/err"
	expect_file "$1: the agent's memory is intact" "$RR/groups/a/CLAUDE.local.md" \
		"$( [ "$2" = yes ] && echo memory; echo "agent wrote")"
	expect_file "$1: CLAUDE.md is still there" "$RR/groups/a/CLAUDE.md" "persona"
	check "$1: no temp left" sh -c "! ls -A '$RR/groups/a' | grep -q tmp"
	expect_eq "$1: the record lists the group as failed" "$(failed_groups "$RR/.clawmd/migrated.json")" "a"
	expect_ok "$1: the rerun completes" $CLAWMD migrate -C "$RR" -q
	expect_eq "$1: and the record lists no failure any more" "$(failed_groups "$RR/.clawmd/migrated.json")" ""
	expect_eq "$1: memory, then the persona under a marker" \
		"$(sed 's/fnv1a64=[0-9a-f]*/X/' "$RR/groups/a/CLAUDE.local.md")" \
		"$( [ "$2" = yes ] && echo memory; printf 'agent wrote\n\n<!-- clawmd migrate: carried from CLAUDE.md (X) -->\npersona')"
}
if command -v pgrep >/dev/null 2>&1; then
	race append yes
	race move no
fi
# Issue 9, item 12: a temp name that holds the agent's file (what a compose
# killed mid-swap leaves) is not migrate's leftover: moved aside, not
# removed.  One that holds what was staged (its digest) is removed.
RT=$T/temps
rm -rf "$RT"
make_root "$RT"
mkdir -p "$RT/groups/a"
echo persona >"$RT/groups/a/CLAUDE.md"
echo "agent notes" >"$RT/groups/a/.CLAUDE.local.md.0123456789abcdef.tmp"
echo "staged text" >"$T/staged"
own=$(staged_temp CLAUDE.local.md "$T/staged")
cp "$T/staged" "$RT/groups/a/$own"
expect_ok "migrate with leftover temps" $CLAWMD migrate -C "$RT"
check "the temp holding what was staged is removed" test ! -e "$RT/groups/a/$own"
expect_grep "and reported as such" "^remove-temp +groups/a/$own" "$T/out"
check "the temp holding the agent's file is moved aside, content intact" \
	sh -c "grep -qx 'agent notes' '$RT'/groups/a/CLAUDE.local.md.clawmd-preserved-*"
expect_grep "and reported as a move-aside" '^move-aside +groups/a/\.CLAUDE\.local\.md\.0123456789abcdef\.tmp -> groups/a/CLAUDE\.local\.md\.clawmd-preserved-' "$T/out"
expect_file "the persona is carried as usual" "$RT/groups/a/CLAUDE.local.md" "persona"
done_testing
