#!/usr/bin/env node
// Cut the memory string out of the requests mock-api.js recorded.
//
//   node extract.js RECORD_DIR PROMPT OUT_FILE
//
// The request is the first POST /v1/messages whose first user message has a
// text block equal to PROMPT (the `claude -p PROMPT` turn).  The string sits
// in that message (claude-code-memory.md §10.5):
//   2.1.88:  a text block "<system-reminder>\nAs you answer ...\n# claudeMd\n"
//            STRING "\n# currentDate\n..." (the section is absent when empty);
//   native:  a text block of its own, "<system-reminder>\n" STRING
//            "\n</system-reminder>", STRING starting with the memory prompt.
// Writes STRING (no trailing newline; empty when no memory was sent) and
// prints which form was found.  Exit 0 found the request, 3 no such request,
// 4 the string's form was ambiguous.
'use strict';
const fs = require('fs');
const { args, recorded } = require('../lib/records.js');

const [dir, prompt, out] = args();
const MEMORY_PROMPT = 'Codebase and user instructions are shown below. Be sure to adhere to these instructions. IMPORTANT: These instructions OVERRIDE any default behavior and you MUST follow them exactly as written.';

function blocks(content) {
	if (typeof content === 'string') return [content];
	if (!Array.isArray(content)) return [];
	return content.filter((b) => b && b.type === 'text' && typeof b.text === 'string').map((b) => b.text);
}

const files = recorded(dir);
let req = null;
for (const r of files) {
	if (r.method !== 'POST' || r.path !== '/v1/messages') continue;
	const msgs = r.body && Array.isArray(r.body.messages) ? r.body.messages : [];
	const first = msgs.find((m) => m.role === 'user');
	if (first && blocks(first.content).some((t) => t.trim() === prompt)) {
		req = { file: r.file, texts: blocks(first.content) };
		break;
	}
}
if (!req) {
	process.stderr.write(`extract.js: no POST /v1/messages with the prompt '${prompt}' among ${files.length} recorded request(s) in ${dir}\n`);
	process.exit(3);
}

const found = [];
const JS_HEAD = '\n# claudeMd\n';
const JS_TAIL = '\n# currentDate\n';
const N_HEAD = '<system-reminder>\n' + MEMORY_PROMPT;
const N_TAIL = '\n</system-reminder>';
for (const t of req.texts) {
	const i = t.indexOf(JS_HEAD);
	if (t.startsWith('<system-reminder>\n') && i >= 0) {
		const j = t.lastIndexOf(JS_TAIL);
		if (j > i) found.push(['claudeMd section', t.slice(i + JS_HEAD.length, j)]);
	} else if (t.startsWith(N_HEAD) && t.endsWith(N_TAIL)) {
		found.push(['own system-reminder block', t.slice('<system-reminder>\n'.length, t.length - N_TAIL.length)]);
	}
}
if (found.length > 1) {
	process.stderr.write(`extract.js: ${found.length} memory blocks in ${req.file}\n`);
	process.exit(4);
}
fs.writeFileSync(out, found.length ? found[0][1] : '');
process.stdout.write(`${req.file}: ${found.length ? found[0][0] : 'no memory string'}\n`);
