#!/usr/bin/env node
// Cut pi's project context out of the requests mock-api.js recorded.
//
//   node extract.js RECORD_DIR PROMPT OUT_FILE
//
// pi 1.5.2 and 1.6.0 send one system message: its own prompt, then, when it found
// any instruction file, "<project_context>\nProject-specific instructions
// and guidelines:\n\n" and one "<project_instructions path=\"ABS\">\n"
// CONTENT "\n</project_instructions>" per file, blank lines between, then
// "\n</project_context>", and always "\n\n<cwd>\nCWD\n</cwd>" at the end.
// Writes the project context block as it stands (what `clawmd render
// --runtime pi` prints; empty when there is none).  Exit 0 found, 3 no
// such request, 4 an unexpected shape (no <cwd> block at the end).
'use strict';
const fs = require('fs');
const { args } = require('../lib/records.js');
const { turn, shape } = require('../lib/chat-extract.js');

const [dir, prompt, out] = args();
const req = turn(dir, prompt, 'pi');
const s = req.system;
const cwd = s.lastIndexOf('\n\n<cwd>\n');
if (cwd < 0 || !s.endsWith('\n</cwd>')) shape(req, 'the system message does not end in a <cwd> block');
const head = s.lastIndexOf('\n\n<project_context>\n', cwd);
const END = '\n</project_context>';
let got = '';
if (head >= 0 && s.slice(cwd - END.length, cwd) === END) got = s.slice(head + 2, cwd);
fs.writeFileSync(out, got);
const n = got.split('<project_instructions path=').length - 1;
process.stdout.write(`${req.file}: ${got ? n + ' project instruction file(s)' : 'no project context'}\n`);
