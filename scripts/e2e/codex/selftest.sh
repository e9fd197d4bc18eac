#!/bin/sh
# The Codex harness's own tests, no download and no root needed: extract.js
# on requests recorded from real releases (tests/e2e/extract/codex/
# *.request.json, the developer texts cut short; *.expected is the string),
# and mock-api.js answering a streamed and a plain Responses request.
# Prints TAP.
. "$(dirname "$0")/../lib/selftest.sh"
first() { # the record before the request
	echo '{"method":"GET","url":"/v1/models","body":null}' >"$T/rec/001.json"
}
extract_each "$top/tests/e2e/extract/codex" first
rec_clear
extract_fails 3 'no POST /v1/responses' "extract: no request is exit 3 with a message"
# two instruction parts before the prompt: ambiguous, exit 4
req=$(ls "$top"/tests/e2e/extract/codex/*global-project.request.json | head -n1)
node -e '
const fs = require("fs");
const r = JSON.parse(fs.readFileSync(process.argv[1]));
const m = r.body.input.find((x) => x.role === "user");
m.content.push(m.content[0]);
fs.writeFileSync(process.argv[2], JSON.stringify(r));
' "$req" "$T/rec/001.json"
extract_fails 4 '' "extract: two instruction parts is exit 4"

mock_check 2 "mock-api: a stream for stream:true, one JSON response otherwise" '
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
'
tap_end
