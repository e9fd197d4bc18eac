#!/usr/bin/env node
// Cut the rules the Cursor SDK's local agent sent out of the requests
// mock-api.js recorded.
//
//   node extract.js RECORD_DIR PROMPT OUT_FILE
//
// No request carries a prompt for a model (the model is behind Cursor's
// backend): the instructions are the rules of the first BidiAppend that
// answers the mock's request-context question, each a CursorRule
// {full_path, content} (proto.js).  What the backend makes of them is
// decided on Cursor's servers.  The SDK sends them in the order of a
// directory walk that varies between runs, so they are put in the order
// `clawmd render --runtime cursor` prints: by directory, nearest the root
// first, and in each .cursorrules, .cursor/rules/*.mdc (by path),
// AGENTS.md, CLAUDE.md, CLAUDE.local.md, .claude/CLAUDE.md; the contents
// joined by blank lines, as render prints them.  The order they came in
// is written to OUT_FILE.order.  Exit 0 found, 3 no rules were sent.
'use strict';
const fs = require('fs');
const path = require('path');
const { args, recorded } = require('../lib/records.js');
const { rules } = require('./proto.js');

const [dir, , out] = args();
let got = null, file = null;
for (const r of recorded(dir)) {
	if (r.method !== 'POST' || !r.path.endsWith('/aiserver.v1.BidiService/BidiAppend') || !r.body64) continue;
	try { got = rules(Buffer.from(r.body64, 'base64')); } catch (e) { got = null; }
	if (got) { file = r.file; break; }
}
if (!got) {
	process.stderr.write(`extract.js: no BidiAppend with the request context's rules in ${dir}\n`);
	process.exit(3);
}
const KINDS = ['AGENTS.md', 'CLAUDE.md', 'CLAUDE.local.md'];
function key(p) {
	let d, kind, name = '';
	const k = p.indexOf('/.cursor/rules/');
	if (path.basename(p) === '.cursorrules') { d = path.dirname(p); kind = 0; }
	else if (k >= 0) { d = p.slice(0, k) || '/'; kind = 1; name = p.slice(k); }
	else if (p.endsWith('/.claude/CLAUDE.md')) { d = path.dirname(path.dirname(p)); kind = 5; }
	else { d = path.dirname(p); kind = 2 + Math.max(0, KINDS.indexOf(path.basename(p))); }
	return { depth: d.split('/').length, d, kind, name };
}
const sorted = got.slice().sort((a, b) => {
	const x = key(a.path), y = key(b.path);
	return x.depth - y.depth || (x.d < y.d ? -1 : x.d > y.d ? 1 : 0) || x.kind - y.kind ||
		(x.name < y.name ? -1 : x.name > y.name ? 1 : 0);
});
fs.writeFileSync(out, sorted.map((r) => r.content).join('\n\n'));
fs.writeFileSync(out + '.order', got.map((r) => r.path + '\n').join(''));
process.stdout.write(`${file}: ${got.length} rule(s): ${got.map((r) => r.path).join(', ')}\n`);
