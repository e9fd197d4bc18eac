#!/usr/bin/env node
// Cut OpenCode's instructions out of the requests mock-api.js recorded.
//
//   node extract.js RECORD_DIR PROMPT OUT_FILE
//
// The request is the first POST /v1/chat/completions whose last user
// message is PROMPT (the `opencode run PROMPT` turn) and whose system
// message holds the environment block (the title request that OpenCode
// sends beside it has neither).  OpenCode 1.18.33 sends one system message,
// its parts joined with "\n" (doc/runtime-opencode.md):
//   the agent prompt, "<env>\n ... \n</env>", then one part per
//   instruction file, "Instructions from: PATH\n" CONTENT, then the skills
//   section, "Skills provide specialized instructions ...".
// Writes the instruction parts as they stand there, joined by "\n" (what
// `clawmd render --runtime opencode` prints; empty when no file was sent),
// no trailing newline of ours, and prints which request it was.
// Exit 0 found, 3 no such request, 4 the system message has an unexpected
// shape (no environment block, no skills section, several system messages).
'use strict';
const fs = require('fs');
const { args, recorded } = require('../lib/records.js');

const [dir, prompt, out] = args();
const ENV_END = '\n</env>\n';
const SKILLS = 'Skills provide specialized instructions';

function text(content) {
	if (typeof content === 'string') return content;
	if (!Array.isArray(content)) return null;
	return content.filter((b) => b && b.type === 'text' && typeof b.text === 'string').map((b) => b.text).join('');
}

const files = recorded(dir);
let req = null;
for (const r of files) {
	if (r.method !== 'POST' || r.path !== '/v1/chat/completions') continue;
	const msgs = r.body && Array.isArray(r.body.messages) ? r.body.messages : [];
	const users = msgs.filter((m) => m.role === 'user');
	const last = users.length ? text(users[users.length - 1].content) : null;
	if (last === null || last.trim() !== prompt) continue;
	const sys = msgs.filter((m) => m.role === 'system').map((m) => text(m.content));
	if (!sys.some((s) => s !== null && s.includes(ENV_END))) continue;
	req = { file: r.file, sys };
	break;
}
if (!req) {
	process.stderr.write(`extract.js: no POST /v1/chat/completions with the prompt '${prompt}' and an <env> block among ${files.length} recorded request(s) in ${dir}\n`);
	process.exit(3);
}
function fail(msg) {
	process.stderr.write(`extract.js: ${req.file}: ${msg}\n`);
	process.exit(4);
}
if (req.sys.length !== 1) fail(`${req.sys.length} system messages, expected one`);
const s = req.sys[0];
const after = s.slice(s.indexOf(ENV_END) + ENV_END.length);
let got;
if (after.startsWith(SKILLS)) {
	got = '';
} else {
	const k = after.lastIndexOf('\n' + SKILLS);
	if (k < 0) fail('no skills section after the instructions');
	got = after.slice(0, k);
	if (!got.startsWith('Instructions from: ')) fail('the text after the <env> block is not an instruction part');
}
fs.writeFileSync(out, got);
const n = got ? got.split(/^Instructions from: /m).length - 1 : 0;
process.stdout.write(`${req.file}: ${got ? 'instructions (' + n + ' "Instructions from:" line(s))' : 'no instructions'}\n`);
