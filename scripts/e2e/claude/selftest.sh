#!/bin/sh
# The harness's own tests, no download and no root needed: extract.js on
# requests recorded from real releases (tests/e2e/extract/*.request.json,
# trimmed to the first user message; *.expected is the string), and
# mock-api.js answering a streamed and a plain request.  Prints TAP.
. "$(dirname "$0")/../lib/selftest.sh"
first() { # the record before the request
	echo '{"method":"HEAD","url":"/","body":null}' >"$T/rec/001.json"
}
extract_each "$top/tests/e2e/extract" first
rec_clear
extract_fails 3 'no POST /v1/messages' "extract: no request is exit 3 with a message"

mock_check 2 "mock-api: a stream for stream:true, one JSON message otherwise" '
const port = process.argv[1];
async function post(stream) {
	const r = await fetch(`http://127.0.0.1:${port}/v1/messages?beta=true`, {method: "POST",
		headers: {"content-type": "application/json"},
		body: JSON.stringify({model: "m", stream, messages: [{role: "user", content: "hello"}]})});
	return [r.headers.get("content-type"), await r.text()];
}
(async () => {
	const [ct1, sse] = await post(true);
	const events = sse.split("\n\n").filter(Boolean).map((e) => e.split("\n")[0]);
	const [ct2, plain] = await post(false);
	const m = JSON.parse(plain);
	console.log([ct1.startsWith("text/event-stream"), events[0] === "event: message_start",
		events[events.length - 1] === "event: message_stop", ct2.startsWith("application/json"),
		m.type === "message" && m.content[0].text === "ok"].join(" "));
})().catch((e) => console.log("error " + e.message));
'
tap_end
