#!/bin/sh
# The OpenCode harness's own tests, run by run.sh before any release: the
# mock's answers (a streamed chat completion that ends in [DONE], the model
# list) and extract.js on requests shaped as OpenCode 1.18.33 sends them
# (doc/runtime-opencode.md), the agent prompt and skills text shortened.
# Prints TAP.
. "$(dirname "$0")/../lib/selftest.sh"

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

# rec DIR FILE SYSTEM USER: a recorded agent request
rec() {
	mkdir -p "$1"
	node -e 'require("fs").writeFileSync(process.argv[1], JSON.stringify({method: "POST",
		url: "/v1/chat/completions", headers: {}, body: {model: "e2e", stream: true,
		messages: [{role: "system", content: process.argv[2]}, {role: "user", content: process.argv[3]}]}}))' \
		"$1/$2" "$3" "$4"
}
env='You are the agent (shortened).
<env>
  Working directory: /e2e/x
</env>'
skills='Skills provide specialized instructions (shortened).'
parts='Instructions from: /e2e/x/AGENTS.md
one

Instructions from: /e2e/x/CONTEXT.md
no final newline'
rec "$T/a" 001.json 'A title prompt.' hello
rec "$T/a" 002.json "$env
$parts
$skills" hello
node "$here/extract.js" "$T/a" hello "$T/out" >"$T/log" 2>&1 && [ "$(cat "$T/out")" = "$parts" ]
t $? "extract.js cuts the instruction parts, the title request skipped" "$(cat "$T/log")"
rec "$T/b" 001.json "$env
$skills" hello
node "$here/extract.js" "$T/b" hello "$T/out" >"$T/log" 2>&1 && [ ! -s "$T/out" ]
t $? "extract.js: no instructions, an empty string" "$(cat "$T/log")"
rec_clear
rec "$T/rec" 001.json "$env
$parts" hello
extract_fails 4 '' "extract.js: no skills section is an error"
rec_clear
rec "$T/rec" 001.json 'A title prompt.' other
extract_fails 3 '' "extract.js: no agent request is an error"
tap_end
