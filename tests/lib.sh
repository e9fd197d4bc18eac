# lib.sh - the shell test library: each test script sources it, gets a fresh
# temp directory as $T (removed at exit), and reports TAP through these:
#
#   expect_ok  NAME CMD...          CMD exits 0
#   expect_fail STATUS NAME CMD...  CMD exits with STATUS
#   expect_eq  NAME GOT WANT        strings equal
#   expect_file NAME FILE WANT      file content equals WANT
#   expect_grep NAME PATTERN FILE   FILE has a line matching PATTERN (ERE)
#   check NAME CMD...               CMD (a test) is true
#   done_testing
#
# Output of the last command run by expect_* is in $T/out and $T/err.
set -u
: "${CLAWMD:?run through make check}"
# The front (bin/clawmd, cmd/front.c) answers a no-op compose and hands
# every other run to the full program.  Under sanitizers it is a dynamic
# program like the full one, and the hand-over a second sanitizer start
# (about 20 ms of CPU here, a sixth of the sanitizer suite), so there the
# tests run the full program; t19, which tests the front, runs $FRONT.
FRONT=$CLAWMD
if [ -x "${CLAWMD_BUILD:-}/libexec/clawmd/clawmd" ] && grep -q __asan_init "$CLAWMD" 2>/dev/null; then
	CLAWMD=$CLAWMD_BUILD/libexec/clawmd/clawmd
fi
T=$(mktemp -d "${TMPDIR:-/tmp}/clawmd-test.XXXXXX")
trap 'rm -rf "$T"' EXIT
_n=0
_failed=0
export LC_ALL=C NO_COLOR=1
# The tests' own terminal type, not the caller's: TERM=dumb (some CI
# systems, an editor's compile buffer) turns colour off, and a test that
# makes a terminal to see colour there sets NO_COLOR aside, not TERM.
# A test of TERM itself sets it on the command (t53).
export TERM=xterm
unset CLAWMD_ROOT

# The tests' python3 is the system's (scripts/install-deps.sh installs it):
# a version manager's shim first on PATH (pyenv) starts a dozen shell
# processes at every call, half a second of CPU here.
if [ -x /usr/bin/python3 ]; then
	python3() { /usr/bin/python3 "$@"; }
fi

# A guard against a hang (a run blocked for ever), not a time limit: it is
# only there to end a suite that would never end, so no load can reach it.
# What a test bounds, it bounds in CPU time (ulimit -t; t45's bounded).
HANG_GUARD="timeout -s KILL 1800"

_report() { # STATUS NAME [DIAG]
	_n=$((_n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $_n - $2"
	else
		_failed=$((_failed + 1))
		echo "not ok $_n - $2"
		[ -n "${3:-}" ] && printf '%s\n' "$3" | sed 's/^/#   /'
	fi
	return 0
}

_run() { "$@" >"$T/out" 2>"$T/err"; }

expect_ok() {
	_name=$1; shift
	if _run "$@"; then _report 0 "$_name"
	else _report 1 "$_name" "exit $?; stderr: $(head -c 2000 "$T/err")"; fi
}

expect_fail() {
	_want=$1 _name=$2; shift 2
	_run "$@"; _st=$?
	if [ "$_st" = "$_want" ]; then _report 0 "$_name"
	else _report 1 "$_name" "exit $_st, wanted $_want; stderr: $(head -c 2000 "$T/err")"; fi
}

expect_eq() {
	if [ "$2" = "$3" ]; then _report 0 "$1"
	else _report 1 "$1" "got:
$2
expected:
$3"; fi
}

expect_file() {
	if [ -f "$2" ] && [ "$(cat "$2"; echo x)" = "$3
x" ] || { [ -f "$2" ] && [ "$(cat "$2"; echo x)" = "${3}x" ]; }; then
		_report 0 "$1"
	else
		_report 1 "$1" "file $2: $(cat "$2" 2>&1 | head -c 2000)"
	fi
}

expect_grep() {
	if grep -Eq -- "$2" "$3"; then _report 0 "$1"
	else _report 1 "$1" "no line matches /$2/ in $3: $(head -c 2000 "$3")"; fi
}

check() {
	_name=$1; shift
	if "$@"; then _report 0 "$_name"; else _report 1 "$_name"; fi
}

done_testing() {
	echo "1..$_n"
	[ "$_failed" = 0 ]
	exit $?
}

# age_out: return once everything changed so far is out of compose's racy
# window (lib/fs/stamp.c: a record or kept copy vouches only for what was
# last changed more than 10 ms before the run began, 2 s where times have
# no nanoseconds).  It polls the filesystem's own clock (a fresh file's
# ctime: the coarse clock compose reads too), so a slow or loaded machine
# only makes it return later; no test guesses a duration.  The window is
# waited out with a margin of 20 ms: compose takes its start from the
# kernel's coarse clock, which may lag a fresh file's ctime by up to a tick
# (fine-grained timestamps), and under load a run refused its record as
# "changed too recently" when the wait was exactly 10 ms.
age_out() {
	: >"$T/.clock"
	_t0=$(stat -c %.9Z "$T/.clock")
	_win=30000000
	[ "${_t0#*.}" = 000000000 ] && _win=2000000000
	_t0=${_t0%.*}${_t0#*.}
	while : >"$T/.clock" && _t=$(stat -c %.9Z "$T/.clock") &&
		[ $((${_t%.*}${_t#*.} - _t0)) -le $_win ]; do :; done
}

# Crash tests kill a command at each system call that changes the disk
# (strace injects SIGKILL at its entry, so the call never runs).  A kill at
# a call that changes nothing (an openat that only reads, an fsync) leaves
# the disk as a kill at the next call that does, and one after the last call
# that writes leaves what the uninterrupted run leaves (the reference every
# crash test starts from), so neither is a kill point.  kill_points CALLS CMD... runs CMD once, tracing CALLS (a
# comma-separated list), and prints the kill points as "CALL N" (the N-th
# call of CALL), one a line.  kill_at CALL N CMD... runs CMD killed there;
# it fails when the run ended without meeting that call, or met an openat
# that does not write (the calls changed since kill_points: the test must
# fail rather than silently test less).
kill_points() { # CALLS CMD...
	_calls=$1
	shift
	strace -f -o "$T/kp.trace" -e trace="$_calls" "$@" >/dev/null 2>&1 </dev/null
	awk '{ sc = $2; sub(/\(.*/, "", sc); if (sc !~ /^[a-z0-9]+$/) next
		n[sc]++; w = sc != "fsync" && (sc != "openat" || /O_CREAT|O_WRONLY|O_RDWR|O_TRUNC/)
		if (w) print sc, n[sc] }' "$T/kp.trace"
}
kill_at() { # CALL N CMD...
	_kcall=$1 _kn=$2
	shift 2
	strace -f -o "$T/kill.trace" -e trace="$_kcall" -e inject="$_kcall:signal=KILL:when=$_kn" \
		"$@" >/dev/null 2>&1 </dev/null && return 1
	[ "$_kcall" != openat ] || grep "^[0-9]* *openat(" "$T/kill.trace" | tail -n 1 |
		grep -qE 'O_CREAT|O_WRONLY|O_RDWR|O_TRUNC'
}

# A private copy of clawmd for a long test, since a shared build directory
# may be relinking $CLAWMD meanwhile; laid out as installed, the front
# finding the full program as ../libexec/clawmd/clawmd.  Sets CLAWMD to the
# copy of the program it was (the front, or the full program).
private_clawmd() {
	mkdir -p "$T/bin" "$T/libexec/clawmd" &&
		cp "$CLAWMD_BUILD/libexec/clawmd/clawmd" "$T/libexec/clawmd/" &&
		cp "$CLAWMD_BUILD/bin/clawmd" "$T/bin/" &&
		case $CLAWMD in
		*/libexec/clawmd/clawmd) CLAWMD=$T/libexec/clawmd/clawmd ;;
		*) CLAWMD=$T/bin/clawmd ;;
		esac
}

# A root with the repository's shape: container/CLAUDE.md, skills/, groups/.
make_root() { # DIR
	mkdir -p "$1/container" "$1/skills" "$1/groups"
	printf '# Shared base\n\nBe helpful.\n' >"$1/container/CLAUDE.md"
}

# A nanoclaw host composing the flat document: its base, one skill (web)
# in its install tree, groups/main; BASE (a printf format) replaces the
# base's text.
make_flat_root() { # DIR [BASE]
	mkdir -p "$1/groups/main" "$1/container/skills/web"
	# shellcheck disable=SC2059
	printf "${2:-# Base\n\nRules.\n}" >"$1/container/CLAUDE.md"
	printf 'Web prose.\n' >"$1/container/skills/web/instructions.md"
	printf '{"preset": "nanoclaw", "document": "flat"}\n' >"$1/clawmd.json"
}

# make_skill ROOT NAME [with-instructions]
make_skill() {
	mkdir -p "$1/skills/$2"
	printf -- '---\nname: %s\ndescription: test skill %s\n---\n\nDo %s.\n' "$2" "$2" "$2" \
		>"$1/skills/$2/SKILL.md"
	[ "${3:-yes}" = yes ] && printf 'Use %s well.\n' "$2" >"$1/skills/$2/instructions.md"
	return 0
}

# Stop CMD at its first call of SYSCALL (strace injects SIGSTOP there), so a
# test can act "while it works"; resume_stopped lets it go on and returns its
# exit status.  strace's log tells when the stop really happened (/proc's
# state cannot tell a group stop from the tracing stops at every syscall),
# and every wait ends when the process does (or at the hang guard's 30 min,
# 36000 looks): a stopped process is never left behind.
# start_stopped fails when the stop never came.
start_stopped() { # SYSCALL[:N] CMD...  (N: at its Nth call, default the first)
	_sc=${1%%:*} _when=${1#*:}
	[ "$_when" = "$1" ] && _when=1
	shift
	: >"$T/stop.trace"
	strace -o "$T/stop.trace" -e trace="$_sc" -e inject="$_sc:signal=SIGSTOP:when=$_when" \
		"$@" >"$T/out" 2>"$T/err" &
	_spid=$!
	_i=0
	while [ $_i -lt 36000 ] && kill -0 $_spid 2>/dev/null &&
		! grep -q 'stopped by SIGSTOP' "$T/stop.trace"; do
		sleep 0.05
		_i=$((_i + 1))
	done
	_child=$(pgrep -P $_spid | head -n 1)
	grep -q 'stopped by SIGSTOP' "$T/stop.trace" # the status: did it stop?
}

resume_stopped() {
	_i=0
	while kill -0 $_spid 2>/dev/null && [ $_i -lt 36000 ]; do
		[ -n "$_child" ] && kill -CONT "$_child" 2>/dev/null
		sleep 0.05
		_i=$((_i + 1))
	done
	kill -9 $_spid $_child 2>/dev/null
	wait $_spid
}

# The name clawmd stages CONTENT-FILE's content under for BASE:
# ".<BASE>.<8 hex random><8 hex digest>.tmp", the digest being the low 32
# bits of the FNV-1a 64 digest of the content (lib/fs/temp.c, clawmd_fs_temp_name).
staged_temp() { # BASE CONTENT-FILE [RANDOM-HEX8]
	_h=$(fnv64 "$2")
	printf '.%.24s.%s%s.tmp\n' "$1" "${3:-01234567}" "${_h#????????}"
}

# FILE's FNV-1a 64 digest, 16 hex digits (clawmd_fnv1a64: the temp names
# above, and the flat entries' digests clawmd_entry_digest() keeps).
fnv64() { # FILE
	python3 -c 'import sys
h = 0xcbf29ce484222325
for b in open(sys.argv[1], "rb").read():
    h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
print("%016x" % h)' "$1"
}

# FILE is one strict JSON document: its bytes are well-formed UTF-8 (Python's
# strict decoder: no overlong form, no surrogate, nothing past U+10FFFF), it
# parses (no NaN or Infinity, no duplicate key), and no string holds a lone
# surrogate escape (\udc80), which would decode to no Unicode text.  Python
# because the tests already need it (staged_temp, t30); cJSON, the only
# JSON library clawmd links, does not check UTF-8.
json_strict() { # FILE
	python3 -c 'import json, sys
def no_constant(c): raise ValueError("not JSON: " + c)
def pairs(p):
    if len(set(k for k, _ in p)) != len(p): raise ValueError("duplicate key")
    return dict(p)
def walk(v):
    if isinstance(v, str): v.encode("utf-8")
    elif isinstance(v, list): [walk(x) for x in v]
    elif isinstance(v, dict): [walk(k) or walk(x) for k, x in v.items()]
walk(json.loads(open(sys.argv[1], "rb").read().decode("utf-8"),
                parse_constant=no_constant, object_pairs_hook=pairs))' "$1"
}
