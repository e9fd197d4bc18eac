#!/usr/bin/env node
// A loopback stand-in for the Anthropic Messages API, for make e2e.
//
//   node mock-api.js RECORD_DIR [PORT_FILE]
//
// Listens on 127.0.0.1 (an ephemeral port, written to PORT_FILE or printed
// on stdout), records every request as RECORD_DIR/NNN.json ({method, url,
// body} with the body parsed when it is JSON), and answers POST
// /v1/messages with a minimal valid message: a server-sent event stream
// when the request says "stream": true, else one JSON object. Other paths
// get an empty JSON object, so a client's side requests do not stall.
// No dependencies beyond Node's standard library.
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

function message(model) {
	return {
		id: 'msg_e2e_' + String(seq).padStart(4, '0'),
		type: 'message',
		role: 'assistant',
		model: model || 'claude-e2e',
		content: [{ type: 'text', text: 'ok' }],
		stop_reason: 'end_turn',
		stop_sequence: null,
		usage: { input_tokens: 1, output_tokens: 1 },
	};
}

function sse(res, model) {
	const m = message(model);
	const ev = (type, data) => res.write('event: ' + type + '\ndata: ' + JSON.stringify(data) + '\n\n');
	res.writeHead(200, {
		'content-type': 'text/event-stream',
		'cache-control': 'no-cache',
		'request-id': 'req_e2e',
	});
	ev('message_start', { type: 'message_start',
		message: Object.assign({}, m, { content: [], stop_reason: null,
			usage: { input_tokens: 1, output_tokens: 0 } }) });
	ev('content_block_start', { type: 'content_block_start', index: 0,
		content_block: { type: 'text', text: '' } });
	ev('content_block_delta', { type: 'content_block_delta', index: 0,
		delta: { type: 'text_delta', text: 'ok' } });
	ev('content_block_stop', { type: 'content_block_stop', index: 0 });
	ev('message_delta', { type: 'message_delta',
		delta: { stop_reason: 'end_turn', stop_sequence: null },
		usage: { output_tokens: 1 } });
	ev('message_stop', { type: 'message_stop' });
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
		const rec = { method: req.method, url: req.url, body };
		fs.writeFileSync(path.join(dir, String(n).padStart(3, '0') + '.json'), JSON.stringify(rec));
		const url = req.url.split('?')[0];
		if (req.method === 'POST' && url === '/v1/messages/count_tokens') {
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ input_tokens: 1 }));
		} else if (req.method === 'POST' && url === '/v1/messages') {
			const model = body && typeof body === 'object' ? body.model : undefined;
			if (body && body.stream === true) {
				sse(res, model);
			} else {
				res.writeHead(200, { 'content-type': 'application/json', 'request-id': 'req_e2e' });
				res.end(JSON.stringify(message(model)));
			}
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
