#!/usr/bin/env node
// Cut Codex's instruction string out of the requests mock-api.js recorded.
//
//   node extract.js RECORD_DIR PROMPT OUT_FILE
//
// The request is the first POST /v1/responses whose input has a user
// message with an input_text part equal to PROMPT (the `codex exec PROMPT`
// turn).  Codex sends the AGENTS.md instructions as an input_text part of a
// user message before it (doc/runtime-codex.md):
//   "# AGENTS.md instructions for " CWD "\n\n<INSTRUCTIONS>\n" STRING
//   "\n</INSTRUCTIONS>"
// where the header has no " for CWD" when no project file was loaded (the
// string is the global file alone).
// Writes STRING (no trailing newline added; empty when no such part was
// sent) and prints the part's header line.  Exit 0 found the request, 3 no
// such request, 4 more than one instruction part.
'use strict';
const fs = require('fs');
const { args, recorded } = require('../lib/records.js');

const [dir, prompt, out] = args();
const HEAD = '# AGENTS.md instructions';
const OPEN = '\n\n<INSTRUCTIONS>\n';
const CLOSE = '\n</INSTRUCTIONS>';

function texts(item) {
	if (!item || item.type !== 'message' || !Array.isArray(item.content)) return [];
	return item.content.filter((c) => c && c.type === 'input_text' && typeof c.text === 'string').map((c) => c.text);
}

const files = recorded(dir);
let req = null;
for (const r of files) {
	if (r.method !== 'POST' || r.path !== '/v1/responses') continue;
	const input = r.body && Array.isArray(r.body.input) ? r.body.input : [];
	const at = input.findIndex((m) => m.role === 'user' && texts(m).some((t) => t === prompt));
	if (at >= 0) {
		req = { file: r.file, before: input.slice(0, at) };
		break;
	}
}
if (!req) {
	process.stderr.write(`extract.js: no POST /v1/responses with the prompt '${prompt}' among ${files.length} recorded request(s) in ${dir}\n`);
	process.exit(3);
}
const found = [];
for (const m of req.before) {
	if (m.role !== 'user') continue;
	for (const t of texts(m)) {
		if (!t.startsWith(HEAD)) continue;
		const i = t.indexOf(OPEN);
		const rest = t.slice(HEAD.length, i);
		if (i < 0 || !t.endsWith(CLOSE) || rest.includes('\n') || (rest !== '' && !rest.startsWith(' for '))) continue;
		found.push([t.slice(0, i), t.slice(i + OPEN.length, t.length - CLOSE.length)]);
	}
}
if (found.length > 1) {
	process.stderr.write(`extract.js: ${found.length} AGENTS.md instruction parts in ${req.file}\n`);
	process.exit(4);
}
fs.writeFileSync(out, found.length ? found[0][1] : '');
process.stdout.write(`${req.file}: ${found.length ? found[0][0] : 'no AGENTS.md instructions'}\n`);
