#!/bin/sh
# tests/failures.sh BUILD... - after prove: name every test that failed in
# these builds (tests/run-test.sh's logs): its file, each "not ok N - name"
# with its diagnostics, and, for a run that died or broke its plan, its
# exit status and the end of its stderr.  Exits 1 when anything failed.
failed=0
for b in "$@"; do
	for st in "$b"/tests/log/*.status; do
		[ -f "$st" ] || continue
		log=${st%.status}
		t=${log%/log/*}/${log##*/}
		status=$(cat "$st")
		nok=$(grep -c '^not ok' "$log.tap")
		plan=$(sed -n 's/^1\.\.\([0-9]*\).*/\1/p' "$log.tap" | head -n 1)
		ran=$(grep -cE '^(not )?ok' "$log.tap")
		[ "$status" = 0 ] && [ "$nok" = 0 ] && [ "$plan" = "$ran" ] && continue
		failed=$((failed + 1))
		echo "FAIL $t (exit $status, $nok of $ran failed${plan:+, plan 1..$plan})"
		# each failing test with its diagnostics (lines starting with #)
		awk '/^not ok/ { on = 1; n = 0; print "  " $0; next }
			on && /^#/ && n < 8 { n++; print "  " $0; next } { on = 0 }' "$log.tap"
		if [ "$nok" = 0 ] || [ "$plan" != "$ran" ]; then
			echo "  last lines of stderr ($log.err):"
			tail -n 15 "$log.err" | sed 's/^/  | /'
		fi
	done
done
[ "$failed" = 0 ] && exit 0
echo "$failed test file(s) failed; their logs: $(for b in "$@"; do printf "%s " "$b/tests/log/"; done)"
exit 1
