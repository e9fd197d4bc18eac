#!/bin/sh
# valgrind-summary.sh DIR - one line per process valgrind traced (its logs,
# DIR/PID.log, written with --log-file=DIR/%p.log): the command, its errors,
# its leaks; exit 1 when any process had an error or a leak it reports.  A
# log without a summary is a process that exec'd a program valgrind was told
# not to trace (--trace-children-skip): it is left out; one where valgrind
# itself gave up (FATAL) fails the run.
set -eu
dir=${1:?usage: valgrind-summary.sh DIR}
bad=0 n=0
for f in "$dir"/*.log; do
	[ -f "$f" ] || continue
	if grep -q '== FATAL' "$f"; then # valgrind could not run it at all
		sed -n 's/^==\([0-9]*\)== FATAL: /\1 FATAL: /p' "$f"
		bad=1 n=$((n + 1))
		continue
	fi
	grep -q 'ERROR SUMMARY' "$f" || continue
	n=$((n + 1))
	cmd=$(sed -n 's/^==[0-9]*== Command: //p' "$f" | head -n 1 | cut -c1-90)
	errs=$(sed -n 's/^==[0-9]*== ERROR SUMMARY: \([0-9]*\) errors.*/\1/p' "$f")
	supp=$(sed -n 's/.*(suppressed: \([0-9]*\) from.*/\1/p' "$f" | tail -n 1)
	def=$(sed -n 's/^==[0-9]*== *definitely lost: \([0-9,]*\) bytes.*/\1/p' "$f")
	printf '%-6s errors %s (suppressed %s), definitely lost %s bytes  %s\n' \
		"$(basename "$f" .log)" "$errs" "${supp:-0}" "${def:-0}" "$cmd"
	[ "$errs" = 0 ] || bad=1
done
echo "valgrind: $n processes, $([ $bad = 0 ] && echo clean || echo 'errors: see the logs in '"$dir")"
exit $bad
