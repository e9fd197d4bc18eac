# Sourced by each runtime's selftest.sh (set -u): here, its directory; top,
# the checkout; a scratch directory $T, removed on exit
# with the mock stopped; t, one TAP line; mock_start and mock_stop; the
# mock and extract.js checks the runtimes share; tap_end, the plan and the
# exit status.
set -u
here=$(cd "$(dirname "$0")" && pwd -P)
top=$(cd "$here/../../.." && pwd -P)
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
# mock_check RECORDS NAME SCRIPT: with the mock started, SCRIPT (node -e,
# the port its argument) prints one "true" a check; then the mock must have
# recorded RECORDS requests
mock_check() {
	mock_start
	if [ ! -s "$T/port" ]; then
		mock_stop
		t 1 "$2" "the mock did not start: $(cat "$T/mock.err")"
		return
	fi
	out=$(node -e "$3" "$(cat "$T/port")" 2>&1)
	mock_stop
	t "$([ -n "$out" ] && [ -z "$(echo "$out" | tr ' ' '\n' | grep -vx true)" ] && echo 0 || echo 1)" \
		"$2" "$out $(cat "$T/mock.err")"
	nrec=$(ls "$T/mock" 2>/dev/null | wc -l)
	t "$([ "$nrec" = "$1" ] && echo 0 || echo 1)" "mock-api: records each request" "$nrec records"
}
# rec_clear: an empty $T/rec
rec_clear() {
	rm -rf "$T/rec" && mkdir "$T/rec"
}
# extract_each DIR FIRST: for each DIR/*.request.json, a request recorded
# from a real release with its string in the .expected beside it, FIRST REQ
# writes a record that is not the request as $T/rec/001.json, REQ is
# 002.json, and extract.js must cut out the .expected string
extract_each() {
	for req in "$1"/*.request.json; do
		rec_clear
		"$2" "$req"
		name=$(basename "$req" .request.json)
		cp "$req" "$T/rec/002.json"
		node "$here/extract.js" "$T/rec" hello "$T/out" >"$T/log" 2>&1
		st=$?
		if [ $st = 0 ] && cmp -s "$T/out" "${req%.request.json}.expected"; then t 0 "extract: $name"
		else t 1 "extract: $name" "exit $st: $(cat "$T/log")"; fi
	done
}
# extract_fails STATUS PATTERN NAME: extract.js on $T/rec exits STATUS with
# a message matching PATTERN (grep; empty: any)
extract_fails() {
	node "$here/extract.js" "$T/rec" hello "$T/out" >"$T/log" 2>&1
	st=$?
	t "$([ $st = "$1" ] && { [ -z "$2" ] || grep -q "$2" "$T/log"; } && echo 0 || echo 1)" \
		"$3" "exit $st: $(cat "$T/log")"
}
# chat_mock_check: the checks of chat-mock.js, the OpenAI-compatible mock
# of OpenCode, pi, Copilot CLI and Qwen Code
chat_mock_check() {
	mock_check 3 "the mock streams a completion, answers plainly and lists models" '
	const http = require("http");
	const port = process.argv[1];
	function req(method, path, body) {
		return new Promise((res, rej) => {
			const r = http.request({ host: "127.0.0.1", port, method, path,
				headers: { "content-type": "application/json" } }, (x) => {
				let d = ""; x.on("data", (c) => d += c); x.on("end", () => res(d)); });
			r.on("error", rej); if (body) r.write(JSON.stringify(body)); r.end();
		});
	}
	(async () => {
		const s = await req("POST", "/v1/chat/completions", { model: "e2e", stream: true, messages: [] });
		const lines = s.split("\n").filter((l) => l.startsWith("data: "));
		if (lines[lines.length - 1] !== "data: [DONE]") throw new Error("stream does not end in [DONE]");
		const text = lines.slice(0, -1).map((l) => JSON.parse(l.slice(6)))
			.map((c) => (c.choices[0] && c.choices[0].delta.content) || "").join("");
		if (text !== "ok") throw new Error("streamed text is " + JSON.stringify(text));
		const j = JSON.parse(await req("POST", "/v1/chat/completions", { model: "e2e", messages: [] }));
		if (j.choices[0].message.content !== "ok") throw new Error("plain completion");
		const m = JSON.parse(await req("GET", "/v1/models"));
		if (!m.data.length) throw new Error("no models");
		console.log("true");
	})().catch((e) => console.log("error " + e.message));
	'
}
tap_end() {
	echo "1..$n"
	exit $fail
}
# chat_rec DIR FILE SYSTEM USER: a recorded chat completion request
chat_rec() {
	mkdir -p "$1"
	node -e 'require("fs").writeFileSync(process.argv[1], JSON.stringify({method: "POST",
		url: "/v1/chat/completions", headers: {}, body: {model: "e2e", stream: true,
		messages: [{role: "system", content: process.argv[2]}, {role: "user", content: process.argv[3]}]}}))' \
		"$1/$2" "$3" "$4"
}
# extract_is NAME WANT: extract.js on $T/rec exits 0 and writes WANT
extract_is() {
	node "$here/extract.js" "$T/rec" hello "$T/out" >"$T/log" 2>&1 && [ "$(cat "$T/out")" = "$2" ]
	t $? "$1" "$(cat "$T/log"; echo; cat "$T/out" 2>/dev/null)"
}
