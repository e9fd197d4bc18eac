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
exit "$(cat "$log.status")"
