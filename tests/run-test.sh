#!/bin/sh
# tests/run-test.sh BUILD/tests/NAME - how make test and make check run one
# test (prove --exec): BUILD/tests/NAME.t is a unit test binary, and
# BUILD/tests/tNN-NAME.sh a link to tests/tNN-NAME.sh, run against BUILD's
# clawmd.  The TAP goes to prove and to BUILD/tests/log/NAME.tap, stderr
# only to BUILD/tests/log/NAME.err (a passing run prints nothing else), the
# exit status to BUILD/tests/log/NAME.status: tests/failures.sh reads them.
# The CPU time it took (user and system, its processes and theirs) and its
# wall time go to BUILD/tests/log/NAME.cpu, for tests/profile.sh.
t=$1
build=$(cd "${t%/tests/*}" && pwd) || exit 1
name=${t##*/}
src=$(cd "$(dirname "$0")/.." && pwd)
log=$build/tests/log/$name
mkdir -p "$build/tests/log" || exit 1
export CLAWMD="$build/clawmd" CLAWMD_TESTS="$src/tests" CLAWMD_BUILD="$build" CLAWMD_SRC="$src"
# Every test, shell, unit or Node, runs with its own TERM, never the
# caller's (TERM=dumb turns colour off; tests/lib.sh says the same).
export TERM=xterm
# A sanitizer build's speed helper (tests/prefault.c), preloaded into every
# process of its tests: it changes nothing they see.
if [ -f "$build/tests/prefault.so" ]; then
	export LD_PRELOAD="$build/tests/prefault.so${LD_PRELOAD:+ $LD_PRELOAD}"
fi
case $name in
*.sh) set -- sh "$src/tests/$name" ;;
*) set -- "$build/tests/$name" ;;
esac
# perl (prove's own language) runs it and reads the children's times.
{
	perl -MTime::HiRes=time -e '
		my $out = shift; my $t0 = time; my $r = system { $ARGV[0] } @ARGV;
		my @t = times; open my $f, ">", $out or die "$out: $!\n";
		printf $f "%.2f %.2f %.2f\n", $t[2], $t[3], time - $t0;
		exit($r == -1 ? 127 : $r & 127 ? 128 + ($r & 127) : $r >> 8);' "$log.cpu" "$@" 2>"$log.err"
	echo $? >"$log.status"
} | tee "$log.tap"
st=$(cat "$log.status")
# Progress for make check (prove -Q prints nothing until the
# end): CLAWMD_PROGRESS names a file each finished test adds a line to (an
# O_APPEND write of a few bytes: no lock needed), CLAWMD_PROGRESS_TOTAL the
# number of test files.  prove pipes a test's stderr, so a terminal is
# named by CLAWMD_PROGRESS_TTY (make check sets /dev/tty when its stderr is
# one): there the count is rewritten in place; elsewhere (a CI log) a line
# every 20 files and at the end, on stderr, which prove passes on.
if [ -n "${CLAWMD_PROGRESS:-}" ]; then
	[ "$st" = 0 ] && echo ok >>"$CLAWMD_PROGRESS" || echo FAIL >>"$CLAWMD_PROGRESS"
	done_n=$(wc -l <"$CLAWMD_PROGRESS")
	failed_n=$(grep -c FAIL "$CLAWMD_PROGRESS")
	total=${CLAWMD_PROGRESS_TOTAL:-?}
	msg="check: $done_n/$total test files done"
	[ "$failed_n" = 0 ] || msg="check: $done_n/$total test files done, $failed_n failed"
	if [ -n "${CLAWMD_PROGRESS_TTY:-}" ]; then
		{
			printf '\r%s' "$msg"
			[ "$done_n" != "$total" ] || echo
		} 2>/dev/null >>"$CLAWMD_PROGRESS_TTY"
	elif [ $((done_n % 20)) = 0 ] || [ "$done_n" = "$total" ]; then
		echo "$msg" >&2
	fi
fi
exit "$st"
