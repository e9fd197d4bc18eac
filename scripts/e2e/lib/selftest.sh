# Sourced by each runtime's selftest.sh, after it sets top (the checkout)
# and here (its own directory): a scratch directory $T, removed on exit
# with the mock stopped; t, one TAP line; mock_start and mock_stop; the
# extract.js checks the runtimes share; tap_end, the plan and exit status.
T=$(mktemp -d)
mock=
trap 'mock_stop; rm -rf "$T"' EXIT
n=0
fail=0
t() { # t OK NAME [DIAG]
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n - $2"; else
		echo "not ok $n - $2"
		[ -z "${3:-}" ] || printf '%s\n' "$3" | sed 's/^/# /'
		fail=1
	fi
}
# mock_start: runs $here/mock-api.js recording into $T/mock, its port in
# $T/port, its stderr in $T/mock.err; waits (10 s at most) for the port
mock_start() {
	node "$here/mock-api.js" "$T/mock" "$T/port" 2>"$T/mock.err" &
	mock=$!
	i=0
	while [ ! -s "$T/port" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
}
mock_stop() {
	[ -n "$mock" ] || return 0
	kill "$mock" 2>/dev/null
	wait "$mock" 2>/dev/null
	mock=
}
# extract_ok REQ: extract.js on $T/rec (001.json already there, REQ copied
# to 002.json) writes REQ's .expected
extract_ok() {
	name=$(basename "$1" .request.json)
	cp "$1" "$T/rec/002.json"
	node "$here/extract.js" "$T/rec" hello "$T/out" >"$T/log" 2>&1
	st=$?
	if [ $st = 0 ] && cmp -s "$T/out" "${1%.request.json}.expected"; then t 0 "extract: $name"
	else t 1 "extract: $name" "exit $st: $(cat "$T/log")"; fi
}
# extract_fails STATUS PATTERN NAME: extract.js on $T/rec exits STATUS with
# a message matching PATTERN (grep; empty: any)
extract_fails() {
	node "$here/extract.js" "$T/rec" hello "$T/out" >"$T/log" 2>&1
	st=$?
	t "$([ $st = "$1" ] && { [ -z "$2" ] || grep -q "$2" "$T/log"; } && echo 0 || echo 1)" \
		"$3" "exit $st: $(cat "$T/log")"
}
# mock_records N: the mock recorded N requests
mock_records() {
	nrec=$(ls "$T/mock" 2>/dev/null | wc -l)
	t "$([ "$nrec" = "$1" ] && echo 0 || echo 1)" "mock-api: records each request" "$nrec records"
}
tap_end() {
	echo "1..$n"
	exit $fail
}
