#!/usr/bin/env node
// Cut Qwen Code's context files out of the requests mock-api.js recorded.
//
//   node extract.js RECORD_DIR PROMPT OUT_FILE
//
// Qwen Code 0.24.4 sends one system message: its base prompt,
// "\n\n---\n\n", then one "--- Context from: REL ---\n" CONTENT
// "\n--- End of Context from: REL ---" per file (rules: "Rule from"),
// blank lines between, REL relative to the cwd; the last is its own
// ~/.qwen/output-language.md, which it writes at the first start (no
// instruction file of the project), then the memory sections.  Writes the
// blocks before output-language.md (what `clawmd render --runtime qwen`
// prints; empty when there are none).  The turn is the first request; the
// memory extraction request that follows carries the same context.  Exit
// 0 found, 3 no such request, 4 an unexpected shape.
'use strict';
const fs = require('fs');
const { args } = require('../lib/records.js');
const { turn, shape } = require('../lib/chat-extract.js');

const [dir, prompt, out] = args();
const req = turn(dir, prompt, 'qwen');
const s = req.system;
const SEP = '\n\n---\n\n';
const a = s.indexOf(SEP + '--- Context from: ');
if (a < 0) shape(req, 'no "---" separator followed by a context block');
const m = /(^|\n\n)--- Context from: [^\n]*\.qwen\/output-language\.md ---\n/.exec(s.slice(a + SEP.length));
if (!m) shape(req, 'no context block of ~/.qwen/output-language.md');
const got = s.slice(a + SEP.length, a + SEP.length + m.index);
fs.writeFileSync(out, got);
const n = (got.match(/^--- (Context|Rule) from: /gm) || []).length;
process.stdout.write(`${req.file}: ${got ? n + ' context block(s)' : 'no context files'}\n`);
