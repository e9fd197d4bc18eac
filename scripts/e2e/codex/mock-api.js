#!/usr/bin/env node
// A loopback stand-in for the OpenAI Responses API, for make e2e with Codex.
//
//   node mock-api.js RECORD_DIR [PORT_FILE]
//
// Listens on 127.0.0.1 (an ephemeral port, written to PORT_FILE or printed
// on stdout), records every request as RECORD_DIR/NNN.json ({method, url,
// headers, body} with the body parsed when it is JSON; a gzip or deflate
// body is inflated first), and answers POST /v1/responses with a minimal
// finished response holding one assistant message "ok": a server-sent event
// stream (response.created, response.output_item.done, response.completed)
// when the request says "stream": true, else one JSON object.  GET
// /v1/models gets an empty list; other paths an empty JSON object, so a
// client's side requests do not stall.  Node's standard library only.
'use strict';
const http = require('http');
const fs = require('fs');
const path = require('path');
const zlib = require('zlib');

const dir = process.argv[2];
const portFile = process.argv[3];
if (!dir) {
	process.stderr.write('usage: mock-api.js RECORD_DIR [PORT_FILE]\n');
	process.exit(2);
}
fs.mkdirSync(dir, { recursive: true });
let seq = 0;

function response(n, model) {
	const id = 'resp_e2e_' + String(n).padStart(4, '0');
	return {
		id,
		object: 'response',
		created_at: 0,
		status: 'completed',
		model: model || 'e2e-model',
		output: [{
			type: 'message',
			id: 'msg_e2e_' + String(n).padStart(4, '0'),
			status: 'completed',
			role: 'assistant',
			content: [{ type: 'output_text', text: 'ok', annotations: [] }],
		}],
		usage: {
			input_tokens: 1,
			input_tokens_details: { cached_tokens: 0 },
			output_tokens: 1,
			output_tokens_details: { reasoning_tokens: 0 },
			total_tokens: 2,
		},
	};
}

function sse(res, n, model) {
	const r = response(n, model);
	let k = 0;
	const ev = (type, data) => res.write('event: ' + type + '\ndata: ' +
		JSON.stringify(Object.assign({ type, sequence_number: k++ }, data)) + '\n\n');
	res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
	ev('response.created', { response: Object.assign({}, r, { status: 'in_progress', output: [] }) });
	ev('response.output_item.done', { output_index: 0, item: r.output[0] });
	ev('response.completed', { response: r });
	res.end();
}

function decode(buf, enc) {
	try {
		if (enc === 'gzip') return zlib.gunzipSync(buf);
		if (enc === 'deflate') return zlib.inflateSync(buf);
		if (enc === 'br') return zlib.brotliDecompressSync(buf);
	} catch (e) { /* keep the raw bytes */ }
	return buf;
}

const server = http.createServer((req, res) => {
	const chunks = [];
	req.on('data', (c) => chunks.push(c));
	req.on('end', () => {
		const raw = decode(Buffer.concat(chunks), req.headers['content-encoding']).toString('utf8');
		let body = raw;
		try { body = raw ? JSON.parse(raw) : null; } catch (e) { /* keep raw */ }
		const n = ++seq;
		const headers = Object.assign({}, req.headers);
		delete headers.authorization;
		const rec = { method: req.method, url: req.url, headers, body };
		fs.writeFileSync(path.join(dir, String(n).padStart(3, '0') + '.json'), JSON.stringify(rec));
		const url = req.url.split('?')[0];
		if (req.method === 'POST' && url === '/v1/responses') {
			const model = body && typeof body === 'object' ? body.model : undefined;
			if (body && body.stream === true) {
				sse(res, n, model);
			} else {
				res.writeHead(200, { 'content-type': 'application/json' });
				res.end(JSON.stringify(response(n, model)));
			}
		} else if (req.method === 'GET' && url === '/v1/models') {
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ object: 'list', data: [], models: [] }));
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
