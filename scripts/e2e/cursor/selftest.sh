#!/bin/sh
# The Cursor harness's own tests, run by run.sh before any release: the
# mock's answers (the token, the model list, the request-context question
# on RunSSE as the SDK's schema numbers it, the stream's end once rules
# came) and extract.js on a BidiAppend shaped as @cursor/sdk 1.0.32 sends
# it.  Prints TAP.
. "$(dirname "$0")/../lib/selftest.sh"
export E2E_HERE="$here"
mock_check 5 "the mock answers the token, the models, RunSSE and BidiAppend" '
const http = require("http");
const { field, fields, one } = require(process.env.E2E_HERE + "/proto.js");
const port = process.argv[1];
function req(method, path, body, type) {
	return new Promise((res, rej) => {
		const r = http.request({ host: "127.0.0.1", port, method, path, headers: { "content-type": type } }, (x) => {
			const c = []; x.on("data", (d) => { c.push(d); if (path.endsWith("RunSSE") && c.length === 1) res({ x, first: Buffer.concat(c), c }); });
			x.on("end", () => res({ x, body: Buffer.concat(c) })); });
		r.on("error", rej); if (body) r.write(body); r.end();
	});
}
(async () => {
	const t = JSON.parse((await req("POST", "/auth/exchange_user_api_key", "{}", "application/json")).body);
	console.log(String(t.accessToken === "tok"));
	const m = JSON.parse((await req("GET", "/v1/models", null, "application/json")).body);
	console.log(String(m.items[0].id === "composer-2"));
	const s = await req("POST", "/agent.v1.AgentService/RunSSE", Buffer.alloc(5), "application/connect+proto");
	const msg = s.first.subarray(5, 5 + s.first.readUInt32BE(1));
	const ex = one(msg, 2);
	const f = fields(ex);
	console.log(String(f[0].n === 1 && f[0].value === 1 && one(ex, 15).toString() === "e1" && one(ex, 10).length === 0));
	const rule = Buffer.concat([field(1, Buffer.from("/w/AGENTS.md")), field(2, Buffer.from("x"))]);
	const acm = field(2, field(10, field(1, field(1, field(2, rule)))));
	const ended = new Promise((res) => s.x.on("end", () => res(Buffer.concat(s.c))));
	await req("POST", "/aiserver.v1.BidiService/BidiAppend", field(1, Buffer.from(acm.toString("hex"))), "application/proto");
	const all = await ended;
	console.log(String(all.includes(Buffer.from("permission_denied"))));
	await req("POST", "/aiserver.v1.DashboardService/GetUserPrivacyMode", Buffer.alloc(0), "application/proto");
	console.log("true");
})().catch((e) => console.log("error " + e.message));
'
# bidi DIR FILE RULES...: a recorded BidiAppend answering with rules PATH=CONTENT
bidi() {
	d=$1 f=$2
	shift 2
	mkdir -p "$d"
	node -e '
const { field } = require(process.argv[1] + "/proto.js");
const rules = process.argv.slice(3).map((a) => { const i = a.indexOf("="); return field(2, Buffer.concat([
	field(1, Buffer.from(a.slice(0, i))), field(2, Buffer.from(a.slice(i + 1)))])); });
const acm = field(2, field(10, field(1, field(1, Buffer.concat(rules)))));
const body = field(1, Buffer.from(acm.toString("hex")));
require("fs").writeFileSync(process.argv[2], JSON.stringify({ method: "POST",
	url: "/aiserver.v1.BidiService/BidiAppend", headers: {}, body: null, body64: body.toString("base64") }));
' "$here" "$d/$f" "$@"
}
rec_clear
bidi "$T/rec" 001.json
node -e 'require("fs").writeFileSync(process.argv[1], JSON.stringify({ method: "POST",
	url: "/aiserver.v1.BidiService/BidiAppend", headers: {}, body: null, body64: Buffer.from("\n\x020a").toString("base64") }))' "$T/rec/000.json"
bidi "$T/rec" 002.json "/w/sub/AGENTS.md=sub" "/w/.claude/CLAUDE.md=dot" "/w/CLAUDE.local.md=local" \
	"/w/sub/.cursor/rules/s.mdc=srule" "/w/AGENTS.md=root" "/w/.cursorrules=cr" "/w/.cursor/rules/r.mdc=rule"
rm -f "$T/rec/001.json"
extract_is "extract.js puts the rules in render's order" 'cr

rule

root

local

dot

srule

sub'
rec_clear
bidi "$T/rec" 001.json
extract_is "extract.js: no rules sent, an empty string" ''
rec_clear
extract_fails 3 '' "extract.js: no BidiAppend with rules is an error"
tap_end
