// The loopback server under every runtime's mock-api.js, for make e2e.
//
//   require('../lib/mock-server.js').serve(options, answer)
//
// Reads RECORD_DIR [PORT_FILE] from the command line, listens on 127.0.0.1
// (an ephemeral port, written to PORT_FILE or printed on stdout), records
// every request as RECORD_DIR/NNN.json ({method, url, headers, body}, the
// body parsed when it is JSON) and hands it to answer(q, res), q being
// {method, url, path (url without its query), headers, body, raw (its bytes), n (its number,
// from 1)}.  When answer returns false the request gets an empty JSON
// object, so a client's side requests do not stall.
//
// options: headers: false records no headers; hide: header names left out
// of the record (credentials); inflate: a gzip, deflate or br body is
// inflated first; base64: the body's bytes are recorded as body64 too (a
// binary body, which the UTF-8 text mangles).  Node's standard library
// only.
'use strict';
const http = require('http');
const fs = require('fs');
const path = require('path');
const zlib = require('zlib');

function json(res, value, headers) {
	res.writeHead(200, Object.assign({ 'content-type': 'application/json' }, headers || {}));
	res.end(typeof value === 'string' ? value : JSON.stringify(value));
}

function inflate(buf, enc) {
	try {
		if (enc === 'gzip') return zlib.gunzipSync(buf);
		if (enc === 'deflate') return zlib.inflateSync(buf);
		if (enc === 'br') return zlib.brotliDecompressSync(buf);
	} catch (e) { /* keep the raw bytes */ }
	return buf;
}

function serve(opts, answer) {
	const dir = process.argv[2];
	const portFile = process.argv[3];
	if (!dir) {
		process.stderr.write('usage: mock-api.js RECORD_DIR [PORT_FILE]\n');
		process.exit(2);
	}
	fs.mkdirSync(dir, { recursive: true });
	let seq = 0;
	const server = http.createServer((req, res) => {
		const chunks = [];
		req.on('data', (c) => chunks.push(c));
		req.on('end', () => {
			let buf = Buffer.concat(chunks);
			if (opts.inflate) buf = inflate(buf, req.headers['content-encoding']);
			const raw = buf.toString('utf8');
			let body = raw;
			try { body = raw ? JSON.parse(raw) : null; } catch (e) { /* keep raw */ }
			const n = ++seq;
			const rec = { method: req.method, url: req.url };
			if (opts.headers !== false) {
				rec.headers = Object.assign({}, req.headers);
				for (const h of opts.hide || []) delete rec.headers[h];
			}
			rec.body = body;
			if (opts.base64) rec.body64 = buf.toString('base64');
			fs.writeFileSync(path.join(dir, String(n).padStart(3, '0') + '.json'), JSON.stringify(rec));
			const q = { method: req.method, url: req.url, path: req.url.split('?')[0],
				headers: req.headers, body, raw: buf, n };
			if (answer(q, res) === false) json(res, '{}');
		});
	});
	server.listen(0, '127.0.0.1', () => {
		const port = String(server.address().port);
		if (portFile) fs.writeFileSync(portFile, port + '\n');
		else process.stdout.write(port + '\n');
	});
	for (const sig of ['SIGTERM', 'SIGINT']) process.on(sig, () => server.close(() => process.exit(0)));
}

// the model a request body names, or undefined
function model(body) {
	return body && typeof body === 'object' ? body.model : undefined;
}

module.exports = { serve, json, model };
