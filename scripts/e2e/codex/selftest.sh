#!/bin/sh
# The Codex harness's own tests, no download and no root needed: extract.js
# on requests recorded from real releases (tests/e2e/extract/codex/
# *.request.json, the developer texts cut short; *.expected is the string),
# and mock-api.js answering a streamed and a plain Responses request.
# Prints TAP.
set -u
top=$(cd "$(dirname "$0")/../../.." && pwd -P)
here=$top/scripts/e2e/codex
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
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
for req in "$top"/tests/e2e/extract/codex/*.request.json; do
	name=$(basename "$req" .request.json)
	rm -rf "$T/rec" && mkdir "$T/rec"
	echo '{"method":"GET","url":"/v1/models","body":null}' >"$T/rec/001.json"
	cp "$req" "$T/rec/002.json"
	node "$here/extract.js" "$T/rec" hello "$T/out" >"$T/log" 2>&1
	st=$?
	if [ $st = 0 ] && cmp -s "$T/out" "${req%.request.json}.expected"; then t 0 "extract: $name"
	else t 1 "extract: $name" "exit $st: $(cat "$T/log")"; fi
done
rm -rf "$T/rec" && mkdir "$T/rec"
node "$here/extract.js" "$T/rec" hello "$T/out" >"$T/log" 2>&1
st=$?
t "$([ $st = 3 ] && grep -q 'no POST /v1/responses' "$T/log" && echo 0 || echo 1)" \
	"extract: no request is exit 3 with a message" "exit $st: $(cat "$T/log")"
# two instruction parts before the prompt: ambiguous, exit 4
req=$(ls "$top"/tests/e2e/extract/codex/*global-project.request.json | head -n1)
node -e '
const fs = require("fs");
const r = JSON.parse(fs.readFileSync(process.argv[1]));
const m = r.body.input.find((x) => x.role === "user");
m.content.push(m.content[0]);
fs.writeFileSync(process.argv[2], JSON.stringify(r));
' "$req" "$T/rec/001.json"
node "$here/extract.js" "$T/rec" hello "$T/out" >"$T/log" 2>&1
st=$?
t "$([ $st = 4 ] && echo 0 || echo 1)" "extract: two instruction parts is exit 4" "exit $st: $(cat "$T/log")"

node "$here/mock-api.js" "$T/mock" "$T/port" 2>"$T/mock.err" &
mock=$!
i=0
while [ ! -s "$T/port" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
out=$(node -e '
const port = process.argv[1];
async function post(stream) {
	const r = await fetch(`http://127.0.0.1:${port}/v1/responses`, {method: "POST",
		headers: {"content-type": "application/json"},
		body: JSON.stringify({model: "m", stream, input: [{type: "message", role: "user",
			content: [{type: "input_text", text: "hello"}]}]})});
	return [r.headers.get("content-type"), await r.text()];
}
(async () => {
	const [ct1, sse] = await post(true);
	const events = sse.split("\n\n").filter(Boolean).map((e) => e.split("\n")[0]);
	const last = JSON.parse(sse.split("\n\n").filter(Boolean).pop().split("\n")[1].slice(6));
	const [ct2, plain] = await post(false);
	const m = JSON.parse(plain);
	console.log([ct1.startsWith("text/event-stream"), events[0] === "event: response.created",
		events[events.length - 1] === "event: response.completed",
		last.response.output[0].content[0].text === "ok", ct2.startsWith("application/json"),
		m.object === "response" && m.output[0].content[0].text === "ok"].join(" "));
})().catch((e) => console.log("error " + e.message));
' "$(cat "$T/port" 2>/dev/null)" 2>&1)
kill "$mock" 2>/dev/null
wait "$mock" 2>/dev/null
t "$([ "$out" = "true true true true true true" ] && echo 0 || echo 1)" \
	"mock-api: a stream for stream:true, one JSON response otherwise" "$out $(cat "$T/mock.err")"
nrec=$(ls "$T/mock" 2>/dev/null | wc -l)
t "$([ "$nrec" = 2 ] && echo 0 || echo 1)" "mock-api: records each request" "$nrec records"
echo "1..$n"
exit $fail
