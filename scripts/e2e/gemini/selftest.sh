#!/bin/sh
# The Gemini CLI harness's own tests, no download and no root needed:
# extract.js on requests recorded from real runs (tests/e2e/extract/gemini/
# *.request.json, trimmed to the markers it looks for; *.expected is the
# string), and mock-api.js answering a streamed, a plain, a JSON-schema and
# a countTokens request.  Prints TAP.
. "$(dirname "$0")/../lib/selftest.sh"
# the model router's side call comes first and is not the request
first() {
	node -e '
const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
r.url = r.url.replace(/:streamGenerateContent.*/, ":generateContent");
process.stdout.write(JSON.stringify(r));' "$1" >"$T/rec/001.json"
}
extract_each "$top/tests/e2e/extract/gemini" first
rec_clear
extract_fails 1 'no POST .*streamGenerateContent' "extract: no request is exit 1 with a message"

mock_check 4 "mock-api: a stream, a plain answer, JSON of the asked schema, countTokens" '
const port = process.argv[1];
async function post(verb, body) {
	const r = await fetch(`http://127.0.0.1:${port}/v1beta/models/m:${verb}`, {method: "POST",
		headers: {"content-type": "application/json"}, body: JSON.stringify(body)});
	return [r.headers.get("content-type"), await r.text()];
}
const hello = {contents: [{role: "user", parts: [{text: "hello"}]}]};
(async () => {
	const [ct1, sse] = await post("streamGenerateContent?alt=sse", hello);
	const ev = JSON.parse(sse.split("\n")[0].replace(/^data: /, ""));
	const [ct2, plain] = await post("generateContent", hello);
	const m = JSON.parse(plain);
	const schema = {type: "OBJECT", properties: {why: {type: "STRING"}, score: {type: "INTEGER"}}};
	const [, js] = await post("generateContent", Object.assign({generationConfig:
		{responseMimeType: "application/json", responseJsonSchema: schema}}, hello));
	const j = JSON.parse(JSON.parse(js).candidates[0].content.parts[0].text);
	const [, ct] = await post("countTokens", hello);
	console.log([ct1.startsWith("text/event-stream"), ev.candidates[0].content.parts[0].text === "ok",
		ct2.startsWith("application/json"), m.candidates[0].finishReason === "STOP",
		typeof j.why === "string" && typeof j.score === "number",
		JSON.parse(ct).totalTokens === 1].join(" "));
})().catch((e) => console.log("error " + e.message));
'
tap_end
