#!/usr/bin/env node
// Cut Copilot CLI's custom instructions out of the requests mock-api.js
// recorded.
//
//   node extract.js RECORD_DIR PROMPT OUT_FILE
//
// Copilot CLI 1.0.102 (BYOK, OpenAI chat) sends one system message in
// which the instructions stand between the tools section, "</tools>\n\n",
// and "\n<system_notifications>": each file "<custom_instruction>\n"
// CONTENT "\n</custom_instruction>" (the .github/instructions files last,
// bare), blank lines between; nothing there when it read none.  Writes
// that text (what `clawmd render --runtime copilot` prints).  Exit 0
// found, 3 no such request, 4 an unexpected shape.
'use strict';
const fs = require('fs');
const { args } = require('../lib/records.js');
const { turn, shape } = require('../lib/chat-extract.js');

const [dir, prompt, out] = args();
const req = turn(dir, prompt, 'copilot');
const s = req.system;
const A = '</tools>\n\n', B = '\n<system_notifications>';
const a = s.indexOf(A);
const b = a < 0 ? -1 : s.indexOf(B, a + A.length - 1);
if (a < 0 || b < 0) shape(req, 'no "</tools>" ... "<system_notifications>" in the system message');
const got = s.slice(a + A.length, b);
fs.writeFileSync(out, got);
const n = got.split(/^<custom_instruction>$/m).length - 1;
process.stdout.write(`${req.file}: ${got ? n + ' custom instruction(s)' : 'no custom instructions'}\n`);
