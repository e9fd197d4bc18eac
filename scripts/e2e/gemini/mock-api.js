#!/usr/bin/env node
// A loopback stand-in for the Gemini API (generativelanguage, v1beta), for
// make e2e of Gemini CLI.
//
//   node mock-api.js RECORD_DIR [PORT_FILE]
//
// Listens on 127.0.0.1 (an ephemeral port, written to PORT_FILE or printed
// on stdout), records every request as RECORD_DIR/NNN.json ({method, url,
// headers, body} with the body parsed when it is JSON) and answers:
//   POST .../models/M:streamGenerateContent  a server-sent event stream of
//                                            one candidate saying "ok";
//   POST .../models/M:generateContent        the same candidate as one JSON
//                                            object (for a request asking
//                                            for JSON, a value of its schema);
//   POST .../models/M:countTokens            {"totalTokens": 1};
//   anything else                            an empty JSON object.
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

function answer(model, text) {
	return {
		candidates: [{
			content: { role: 'model', parts: [{ text }] },
			finishReason: 'STOP',
			index: 0,
		}],
		usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
		modelVersion: model || 'gemini-e2e',
		responseId: 'e2e-' + String(seq).padStart(4, '0'),
	};
}

// A value of a JSON schema's shape: the CLI's side calls (its model router)
// ask for JSON output and check the reply against their schema.
function sample(schema) {
	if (!schema || typeof schema !== 'object') return null;
	if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
	switch (String(schema.type || '').toLowerCase()) {
	case 'object': {
		const o = {};
		for (const [k, v] of Object.entries(schema.properties || {})) o[k] = sample(v);
		return o;
	}
	case 'array': return [];
	case 'string': return 'e2e';
	case 'integer': case 'number': return 1;
	case 'boolean': return false;
	default: return null;
	}
}

// the text a request wants: JSON of its schema when it asks for JSON, else "ok"
function wanted(body) {
	const gc = body && typeof body === 'object' ? body.generationConfig : null;
	if (!gc || gc.responseMimeType !== 'application/json') return 'ok';
	return JSON.stringify(sample(gc.responseJsonSchema || gc.responseSchema) || {});
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
		const m = /\/models\/([^/:]+):([A-Za-z]+)$/.exec(url);
		const model = m ? decodeURIComponent(m[1]) : undefined;
		const verb = m && req.method === 'POST' ? m[2] : '';
		if (verb === 'streamGenerateContent') {
			res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
			res.write('data: ' + JSON.stringify(answer(model, wanted(body))) + '\r\n\r\n');
			res.end();
		} else if (verb === 'generateContent') {
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end(JSON.stringify(answer(model, wanted(body))));
		} else if (verb === 'countTokens') {
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ totalTokens: 1 }));
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
