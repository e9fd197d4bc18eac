#!/usr/bin/env node
// A loopback stand-in for an OpenAI-compatible chat API, for OpenCode runs
// in make e2e.
//
//   node mock-api.js RECORD_DIR [PORT_FILE]
//
// Listens on 127.0.0.1 (an ephemeral port, written to PORT_FILE or printed
// on stdout) and records every request as RECORD_DIR/NNN.json ({method,
// url, headers, body}, the body parsed when it is JSON).  POST
// /v1/chat/completions gets one assistant turn saying "ok": a server-sent
// event stream of chat.completion.chunk objects ending in "data: [DONE]"
// when the request says "stream": true, else one chat.completion object.
// GET /v1/models lists one model; any other path gets an empty JSON object,
// so a client's side requests never stall.  Node's standard library only.
'use strict';
const http = require('http');
const fs = require('fs');
const path = require('path');

const dir = process.argv[2];
const portFile = process.argv[3];
if (!dir) {
	process.stderr.write('usage: mock-api.js RECORD_DIR [PORT_FILE]\n');
	process.exit(2);
}
fs.mkdirSync(dir, { recursive: true });
let seq = 0;
const CREATED = 1700000000; // fixed: nothing recorded depends on the clock

function completion(model, n) {
	return {
		id: 'chatcmpl-e2e-' + String(n).padStart(4, '0'),
		object: 'chat.completion',
		created: CREATED,
		model: model || 'e2e',
		choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
		usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
	};
}

function stream(res, model, n) {
	const base = { id: 'chatcmpl-e2e-' + String(n).padStart(4, '0'), object: 'chat.completion.chunk',
		created: CREATED, model: model || 'e2e' };
	const chunk = (choice, extra) => res.write('data: ' + JSON.stringify(Object.assign({}, base,
		{ choices: choice ? [choice] : [] }, extra || {})) + '\n\n');
	res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
	chunk({ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null });
	chunk({ index: 0, delta: { content: 'ok' }, finish_reason: null });
	chunk({ index: 0, delta: {}, finish_reason: 'stop' });
	chunk(null, { usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } });
	res.write('data: [DONE]\n\n');
	res.end();
}

const server = http.createServer((req, res) => {
	const chunks = [];
	req.on('data', (c) => chunks.push(c));
	req.on('end', () => {
		const raw = Buffer.concat(chunks).toString('utf8');
		let body = raw;
		try { body = raw ? JSON.parse(raw) : null; } catch (e) { /* keep raw */ }
		const n = ++seq;
		const rec = { method: req.method, url: req.url, headers: req.headers, body };
		fs.writeFileSync(path.join(dir, String(n).padStart(3, '0') + '.json'), JSON.stringify(rec));
		const url = req.url.split('?')[0];
		if (req.method === 'POST' && url === '/v1/chat/completions') {
			const model = body && typeof body === 'object' ? body.model : undefined;
			if (body && body.stream === true) {
				stream(res, model, n);
			} else {
				res.writeHead(200, { 'content-type': 'application/json' });
				res.end(JSON.stringify(completion(model, n)));
			}
		} else if (req.method === 'GET' && url === '/v1/models') {
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ object: 'list',
				data: [{ id: 'e2e', object: 'model', created: CREATED, owned_by: 'e2e' }] }));
		} else {
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end('{}');
		}
	});
});

server.listen(0, '127.0.0.1', () => {
	const port = String(server.address().port);
	if (portFile) fs.writeFileSync(portFile, port + '\n');
	else process.stdout.write(port + '\n');
});
for (const sig of ['SIGTERM', 'SIGINT']) process.on(sig, () => server.close(() => process.exit(0)));
