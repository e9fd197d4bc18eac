#!/bin/sh
# The read side against a hostile group (issue 9): render --group, check and
# status run as root on a directory the agent writes.  Each block is one
# attack and the safe outcome it must end in.  "Host" files live in $H,
# outside every mount; none of them may ever be opened or shown.
. "$CLAWMD_TESTS/lib.sh"

R=$T/root
H=$T/host
G=$R/groups/g
make_root "$R"
mkdir -p "$G" "$H/secret" "$H/rules"
printf 'HOSTSECRET\n' >"$H/secret/x.md"
printf -- '---\npaths: "HOSTGLOB/**"\n---\nHOSTRULE\n' >"$H/rules/r.md"
printf '[user]\n\tname = HOSTCONFIG\n' >"$H/gitconfig"

have_strace=no
strace -f -o /dev/null true 2>/dev/null && have_strace=yes
# LeakSanitizer cannot run under ptrace; ASan reserves terabytes of address
# space, so the memory bounds below (ulimit -v) apply to plain builds only
NOLEAK="ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
vlimit="ulimit -v 1500000;"
if grep -q __asan_init "$CLAWMD" 2>/dev/null; then vlimit=; fi

# bounded NAME SECONDS CMD...: CMD finishes within SECONDS of CPU time
# (ulimit -t: a loaded machine does not make it fail), and does not hang.
bounded() {
	_name=$1 _secs=$2
	shift 2
	$HANG_GUARD sh -c 'ulimit -t "$0" && exec "$@"' "$_secs" "$@" >"$T/out" 2>"$T/err"
	_st=$?
	if [ "$_st" = 137 ] || [ "$_st" = 152 ]; then
		_report 1 "$_name" "killed (exit $_st): more than ${_secs}s of CPU, or it hung"
	else
		_report 0 "$_name"
	fi
}

# traced NAME CMD...: run CMD under strace (files opened, every process);
# the trace is in $T/trace.
traced() {
	_name=$1
	shift
	$HANG_GUARD env "$NOLEAK" strace -f -qq -o "$T/trace" -e trace=open,openat,openat2,creat \
		"$@" >"$T/out" 2>"$T/err"
	_st=$?
	[ "$_st" = 1 ] && _st=0 # check: findings
	_report $_st "$_name" "$(tail -c 1000 "$T/err")"
}

# runs NAME CMD...: CMD exits 0, or 1 (check's findings at error level:
# the group is never composed here)
runs() {
	_name=$1
	shift
	_run "$@"
	_st=$?
	[ "$_st" -le 1 ] && _report 0 "$_name" || _report 1 "$_name" "exit $_st: $(head -c 1000 "$T/err")"
}

# nothing of the host was opened (a path under $H in an open call)
no_host_open() {
	if grep -F "\"$H" "$T/trace" >"$T/hits"; then
		_report 1 "$1" "$(head -5 "$T/hits")"
	else
		_report 0 "$1"
	fi
}

# nothing under the group was opened by a host path string, except the
# mount root itself (every other open is relative to a directory fd)
no_group_path_open() {
	if grep -F "\"$G/" "$T/trace" >"$T/hits"; then
		_report 1 "$1" "$(head -5 "$T/hits")"
	else
		_report 0 "$1"
	fi
}

skip() { # N REASON
	for _k in $(seq "$1"); do _report 0 "# SKIP $2"; done
}

# ---- item 1: a directory swapped for a host symlink mid-render ----------
# The group imports d/y.md (so the view has met d), then a.md, then d/x.md.
# When clawmd opens a.md for reading, the agent swaps d for a symlink to a
# host directory holding an x.md.  The container would find nothing there.
printf '@./d/y.md\n@./a.md\n@./d/x.md\n' >"$G/CLAUDE.local.md"
mkdir "$G/d"
printf 'Y\n' >"$G/d/y.md"
printf 'GROUPX\n' >"$G/d/x.md"
printf 'A\n' >"$G/a.md"
if [ $have_strace = yes ]; then
	# which openat opens a.md for reading: a dry run counts them (the
	# reopen through /proc/self/fd that follows its O_PATH open)
	env "$NOLEAK" strace -o "$T/count" -e trace=openat "$CLAWMD" render -C "$R" --group g >/dev/null 2>&1
	n=$(grep '^openat' "$T/count" | grep -nE '"([^"]*/)?a\.md", ' | grep O_PATH | head -1 |
		cut -d: -f1)
	check "the dry run opens a.md for reading" test -n "$n"
	n=$((${n:-0} + 1))
	_asan=${ASAN_OPTIONS-}
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	start_stopped "openat:${n:-1}" "$CLAWMD" render -C "$R" --group g
	ASAN_OPTIONS=$_asan
	check "render stopped at the open of a.md" sh -c "grep -qE '\"([^\"]*/)?a\\.md\", .*O_PATH' '$T/stop.trace' &&
		grep -B 3 'stopped by SIGSTOP' '$T/stop.trace' | grep -q '/proc/self/fd/'"
	mv "$G/d" "$G/d.real" && ln -s "$H/secret" "$G/d"
	resume_stopped
	check "render finished after the swap" test $? = 0
	check "the host file did not reach the output" sh -c "! grep -q HOSTSECRET '$T/out'"
	check "what loaded before the swap is there" grep -q '^Y$' "$T/out"
	check "d/x.md is neither the host's nor the old one" sh -c "! grep -q GROUPX '$T/out'"
	rm "$G/d" && mv "$G/d.real" "$G/d"
	traced "render --group, traced" "$CLAWMD" render -C "$R" --group g
	no_group_path_open "no file below the group is opened by a host path"
else
	skip 7 "strace unavailable"
fi
rm -rf "$G/d" "$G/a.md" "$G/CLAUDE.local.md"

# ---- item 2: .claude/rules linked to a host directory ---------------------
mkdir -p "$G/.claude"
ln -s "$H/rules" "$G/.claude/rules"
runs "check on a group whose rules link to the host" "$CLAWMD" check -C "$R" g
check "check: no host rule in the findings" sh -c "! grep -q HOSTGLOB '$T/out'"
expect_ok "render --group on it" "$CLAWMD" render -C "$R" --group g
check "render: no host rule loaded" sh -c "! grep -q HOSTRULE '$T/out'"
if [ $have_strace = yes ]; then
	traced "check, traced" "$CLAWMD" check -C "$R" g
	no_host_open "check opens nothing of the host directory"
	traced "status, traced" "$CLAWMD" status -C "$R"
	no_host_open "status opens nothing of the host directory"
	traced "render --group, traced" "$CLAWMD" render -C "$R" --group g
	no_host_open "render opens nothing of the host directory"
else
	skip 6 "strace unavailable"
fi
rm "$G/.claude/rules"

# ---- item 3: FIFOs and includes planted in the group's git files ----------
(cd "$R" && git init -q . && git add container) >/dev/null 2>&1
mkdir -p "$G/.git/objects" "$G/.git/refs"
printf 'ref: refs/heads/main\n' >"$G/.git/HEAD"
mkfifo "$G/.git/config"
mkfifo "$G/.gitignore"
for cmd in "check -C $R g" "status -C $R" "render -C $R --group g"; do
	bounded "FIFO .git/config and .gitignore: $cmd finishes" 20 $CLAWMD $cmd
done
rm -rf "$G/.git"
# a .git file leading to a FIFO config, commondir and gitdir
mkdir -p "$G/wt"
printf 'gitdir: /workspace/agent/wt\n' >"$G/.git"
mkfifo "$G/wt/config" "$G/wt/commondir" "$G/wt/gitdir"
printf 'ref: refs/heads/main\n' >"$G/wt/HEAD"
for cmd in "check -C $R g" "status -C $R" "render -C $R --group g"; do
	bounded ".git file to FIFOs: $cmd finishes" 20 $CLAWMD $cmd
done
rm -rf "$G/wt" "$G/.git"
# a repository whose config includes a host file
mkdir -p "$G/.git/objects" "$G/.git/refs"
printf 'ref: refs/heads/main\n' >"$G/.git/HEAD"
printf '[core]\n\trepositoryformatversion = 0\n[include]\n\tpath = %s\n' "$H/gitconfig" \
	>"$G/.git/config"
rm -f "$G/.gitignore"
printf 'CLAUDE.local.md\n' >"$G/.gitignore"
printf 'notes\n' >"$G/CLAUDE.local.md"
if [ $have_strace = yes ]; then
	traced "check with [include] path=host file" "$CLAWMD" check -C "$R" g
	no_host_open "check does not open the included host file"
	check "CM403 comes from ROOT's repository (the group's .gitignore counts)" \
		sh -c "! grep -q CM403 '$T/out'"
	traced "status with [include] path=host file" "$CLAWMD" status -C "$R"
	no_host_open "status does not open the included host file"
else
	skip 4 "strace unavailable"
fi
rm -f "$G/.gitignore"
runs "check without the group's .gitignore" "$CLAWMD" check -C "$R" g
expect_grep "CM403 from ROOT's repository" 'CLAUDE.local.md is not ignored by git \[CM403\]' "$T/out"
ln -s "$H/gitignore-host" "$G/.gitignore"
printf 'CLAUDE.local.md\n' >"$H/gitignore-host"
runs "check with a symlinked .gitignore" "$CLAWMD" check -C "$R" g
expect_grep "a symlinked .gitignore is not followed (as git)" '\[CM403\]' "$T/out"
rm -rf "$G/.git" "$G/.gitignore" "$G/CLAUDE.local.md" "$R/.git"

# ---- item 4: four links to "." in the rules -------------------------------
mkdir -p "$G/.claude/rules"
printf 'RULE\n' >"$G/.claude/rules/r.md"
for l in a b c d; do ln -s . "$G/.claude/rules/$l"; done
bounded "check with four links to . finishes" 10 "$CLAWMD" check -C "$R" g
bounded "status with four links to . finishes" 10 "$CLAWMD" status -C "$R"
bounded "render with four links to . finishes" 10 "$CLAWMD" render -C "$R" --group g --format files
expect_eq "the rule loads once" "$(grep -c 'rules/r.md' "$T/out")" 1
rm -rf "$G/.claude"
# 5,000 rules, each a link into a chain of 40 links of 1,900 components:
# without a bound, every entry costs 76,000 steps
mkdir -p "$G/.claude/rules" "$G/ch"
perl -e '
	my $long = "./" x 1900;
	symlink("${long}l" . ($_ + 1), "$ARGV[0]/ch/l$_") for 0 .. 38;
	symlink("${long}l39.md", "$ARGV[0]/ch/l39");
	symlink("/workspace/agent/ch/l0", "$ARGV[0]/.claude/rules/e$_.md") for 1 .. 5000;
' "$G"
bounded "5,000 rules through 40-link chains: render finishes" 20 \
	"$CLAWMD" render -C "$R" --group g --format files
bounded "5,000 rules through 40-link chains: check finishes" 20 "$CLAWMD" check -C "$R" g
rm -rf "$G/.claude" "$G/ch"

# ---- item 5: brace bombs, sparse files, many files ------------------------
mkdir -p "$G/.claude/rules"
printf -- '---\npaths: "%s"\n---\nB\n' "$(for i in $(seq 26); do printf '{a,b}'; done)" \
	>"$G/.claude/rules/bomb.md"
bounded "26 brace groups: check finishes" 60 sh -c "${vlimit%1500000;}${vlimit:+1000000;} exec $CLAWMD check -C $R g"
expect_grep "26 brace groups: capped, with a finding" '\[CM503\]' "$T/out"
rm -f "$G/.claude/rules/bomb.md"
for i in $(seq 100); do truncate -s 4194304 "$G/.claude/rules/s$i.md"; done
truncate -s 10G "$G/CLAUDE.local.md"
bounded "100 sparse 4 MiB rules: render finishes" 300 \
	sh -c "$vlimit exec $CLAWMD render -C $R --group g --format files"
expect_eq "render reads at most 64 MiB (16 files of 4 MiB)" "$(grep -c '/s[0-9]*\.md' "$T/out")" 16
check "the sparse 10 GiB CLAUDE.local.md is skipped" sh -c "! grep -q CLAUDE.local.md '$T/out'"
# status loads through the same bounded loader as render, and lints what
# it loads: Markdown of 64 MiB of NULs (md4c's costliest input, one mark a
# NUL, unless clawmd_md_parse's copy spares it that)
bounded "100 sparse 4 MiB rules: status finishes" 300 \
	sh -c "$vlimit exec $CLAWMD status -C $R"
check "status succeeded${vlimit:+ within 1.5 GB of address space}" test "$_st" = 0
rm -rf "$G/.claude" "$G/CLAUDE.local.md"
# time linear in the number of files: 20,000 rules against 2,500
mkdir -p "$G/.claude/rules"
many() { # N
	rm -rf "$G/.claude/rules" && mkdir -p "$G/.claude/rules"
	(cd "$G/.claude/rules" && seq "$1" | sed 's/$/.md/' | xargs touch &&
		for f in $(seq 1 97 "$1"); do echo "r$f" >"$f.md"; done)
}
elapsed() { # CMD... -> CPU milliseconds (user + system) in $ms: the
	# machine may be shared, wall-clock time is not the program's
	ms=$(perl -e 'my $pid = fork; if (!$pid) { open(STDOUT, ">/dev/null"); open(STDERR, ">/dev/null"); exec @ARGV; }
		waitpid($pid, 0); my @t = times; printf "%d\n", ($t[2] + $t[3]) * 1000' "$@")
}
many 2500
elapsed "$CLAWMD" check -C "$R" g
small=$ms
many 20000
elapsed "$CLAWMD" check -C "$R" g
big=$ms
echo "# check: 2,500 rules ${small} ms, 20,000 rules ${big} ms of CPU"
# 8 times the files; quadratic would be 64 times the time
check "20,000 rules: time grows linearly (${small} -> ${big} ms)" test "$big" -lt $((small * 20 + 2000))
bounded "20,000 rules: render finishes" 300 "$CLAWMD" render -C "$R" --group g --format files
rm -rf "$G/.claude"

# ---- item 8: FIFOs and devices where memory files belong ------------------
mkfifo "$G/CLAUDE.local.md"
mkfifo "$G/.claude-shared.md"
mknod "$G/CLAUDE.md" c 1 3 2>/dev/null || mkfifo "$G/CLAUDE.md"
for cmd in "check -C $R g" "status -C $R" "render -C $R --group g"; do
	bounded "FIFO/device memory files: $cmd finishes" 20 $CLAWMD $cmd
done
if [ $have_strace = yes ]; then
	for cmd in "check -C $R g" "status -C $R" "render -C $R --group g"; do
		traced "traced: $cmd" $CLAWMD $cmd
		# opened only as O_PATH (no driver, no blocking) or O_NONBLOCK
		if grep -E '["/](CLAUDE\.local\.md|CLAUDE\.md|\.claude-shared\.md)"' "$T/trace" |
			grep -v O_PATH | grep -v O_NONBLOCK >"$T/hits"; then
			_report 1 "$cmd: memory files are never opened blocking" "$(head -5 "$T/hits")"
		else
			_report 0 "$cmd: memory files are never opened blocking"
		fi
	done
else
	skip 6 "strace unavailable"
fi
rm -f "$G/CLAUDE.local.md" "$G/.claude-shared.md" "$G/CLAUDE.md"

# ---- item 9: agent-controlled names in render --format files --------------
mkdir -p "$G/.claude/rules"
nl='
'
esc=$(printf '\033')
printf 'forged\n' >"$G/.claude/rules/x${nl}Project	EVIL	-.md"
printf 'title\n' >"$G/.claude/rules/t${esc}]0;pwned$(printf '\007')	\\.md"
expect_ok "render --format files with hostile names" "$CLAWMD" render -C "$R" --group g --format files
expect_eq "one line per file" "$(wc -l <"$T/out" | tr -d ' ')" 2
check "no raw ESC or BEL in the output" sh -c "! grep -q \"[$esc$(printf '\007')]\" '$T/out'"
expect_grep "newline and tab escaped" '/x\\nProject\\tEVIL\\t-\.md	-$' "$T/out"
expect_grep "ESC, BEL and backslash escaped" '/t\\x1b\]0;pwned\\x07\\t\\\\\.md	-$' "$T/out"
rm -rf "$G/.claude"

done_testing
