// What the extract.js of the runtimes on an OpenAI-compatible chat API
// share (pi, Copilot CLI, Qwen Code): the request of the turn, and its one
// system message.
'use strict';
const { recorded } = require('./records.js');

// a message's text: a string, or its text parts joined
function text(content) {
	if (typeof content === 'string') return content;
	if (!Array.isArray(content)) return null;
	return content.filter((b) => b && b.type === 'text' && typeof b.text === 'string').map((b) => b.text).join('');
}

// the last text part of a message (a string content is one part)
function lastPart(content) {
	if (typeof content === 'string') return content;
	if (!Array.isArray(content)) return null;
	const parts = content.filter((b) => b && b.type === 'text' && typeof b.text === 'string');
	return parts.length ? parts[parts.length - 1].text : null;
}

// The first POST /v1/chat/completions whose last user message ends in the
// prompt (alone, or after a blank line: Copilot puts the date before it),
// as {file, system}: the text of its one system message.  Exits 3 when no
// request is the turn, 4 when it has no or several system messages.
function turn(dir, prompt, name) {
	const files = recorded(dir);
	for (const r of files) {
		if (r.method !== 'POST' || r.path !== '/v1/chat/completions') continue;
		const msgs = r.body && Array.isArray(r.body.messages) ? r.body.messages : [];
		const users = msgs.filter((m) => m.role === 'user');
		const last = users.length ? lastPart(users[users.length - 1].content) : null;
		if (last === null || (last.trim() !== prompt && !last.endsWith('\n\n' + prompt))) continue;
		const sys = msgs.filter((m) => m.role === 'system').map((m) => text(m.content));
		if (sys.length !== 1 || sys[0] === null) {
			process.stderr.write(`extract.js: ${r.file}: ${sys.length} system messages, expected one\n`);
			process.exit(4);
		}
		return { file: r.file, system: sys[0] };
	}
	process.stderr.write(`extract.js: no POST /v1/chat/completions whose last user message is '${prompt}' among ${files.length} recorded request(s) in ${dir} (${name})\n`);
	process.exit(3);
}

// exit 4 naming the request
function shape(req, msg) {
	process.stderr.write(`extract.js: ${req.file}: ${msg}\n`);
	process.exit(4);
}

module.exports = { turn, shape };
