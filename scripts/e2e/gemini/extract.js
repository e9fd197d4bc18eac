#!/usr/bin/env node
// Cut the instruction string out of the requests mock-api.js recorded for
// one `gemini -p PROMPT` run.
//
//   node extract.js RECORD_DIR PROMPT OUT_FILE
//
// The request is the first POST .../models/M:streamGenerateContent whose
// last user turn has a text part equal to PROMPT (the model router's side
// call, a generateContent, comes before it and is not it).  Gemini CLI
// splits what it loaded in two (doc/runtime-gemini.md):
//   the global file(s), in the system instruction, after its own
//     "# Contextual Instructions (NAMES)" header:
//       "<loaded_context>\n" GLOBAL "\n</loaded_context>"
//   the project files, in the first user turn's <session_context> part:
//       "<loaded_context>\n<project_context>\n" PROJECT
//       "\n</project_context>\n</loaded_context>"
// GLOBAL and PROJECT are each "--- Context from: PATH ---" blocks joined
// by a blank line; OUT_FILE gets GLOBAL and PROJECT joined the same way
// (either may be absent; empty when nothing was loaded), with no trailing
// newline.  Exit 0 found, 1 no such request or an ambiguous one, 2 usage.
'use strict';
const fs = require('fs');
const { args, recorded } = require('../lib/records.js');

const [dir, prompt, out] = args();
function die(msg) {
	process.stderr.write('extract.js: ' + msg + '\n');
	process.exit(1);
}
const texts = (c) => (c && Array.isArray(c.parts) ? c.parts : [])
	.filter((p) => p && typeof p.text === 'string').map((p) => p.text);

const files = recorded(dir);
let req = null;
for (const r of files) {
	if (r.method !== 'POST' || !/\/models\/[^/]+:streamGenerateContent$/.test(r.path)) continue;
	const turns = r.body && Array.isArray(r.body.contents) ? r.body.contents : [];
	const users = turns.filter((t) => t && t.role === 'user');
	const last = users[users.length - 1];
	if (last && texts(last).some((t) => t === prompt)) {
		req = { file: r.file, body: r.body, users };
		break;
	}
}
if (!req) die(`no POST .../models/*:streamGenerateContent with the prompt '${prompt}' among ${files.length} recorded request(s) in ${dir}`);

// between(TEXT, OPEN, CLOSE): the text between the one OPEN and the last CLOSE
function between(where, t, open, close) {
	const i = t.indexOf(open);
	if (i < 0) return null;
	if (t.indexOf(open, i + 1) >= 0) die(`${req.file}: two '${open.trim()}' in the ${where}`);
	const j = t.indexOf(close, i + open.length);
	if (j < 0) die(`${req.file}: '${open.trim()}' without its '${close.trim()}' in the ${where}`);
	return t.slice(i + open.length, j);
}

const sys = texts(req.body.systemInstruction).join('');
const HEAD = '\n# Contextual Instructions (';
let global = null;
const h = sys.indexOf(HEAD);
if (h >= 0) global = between('system instruction', sys.slice(h), '\n<loaded_context>\n', '\n</loaded_context>');

let project = null;
const sc = req.users.flatMap(texts).filter((t) => t.startsWith('<session_context>'));
if (sc.length > 1) die(`${req.file}: ${sc.length} <session_context> parts`);
if (sc.length === 1) {
	project = between('session context', sc[0], '<loaded_context>\n<project_context>\n', '\n</project_context>\n</loaded_context>');
}
const parts = [global, project].filter((s) => s !== null);
fs.writeFileSync(out, parts.join('\n\n'));
process.stdout.write(`${req.file}: ${global !== null ? 'global' : 'no global'} part, ${project !== null ? 'project' : 'no project'} part\n`);
