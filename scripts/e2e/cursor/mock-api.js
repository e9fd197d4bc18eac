#!/usr/bin/env node
// A loopback stand-in for Cursor's backend (CURSOR_BACKEND_URL), for the
// Cursor SDK's local agent in make e2e.  The model lives behind that
// backend, so no request carries a prompt: what can be recorded is what
// the client sends it, and the rules it sends are its instructions.
//
//   node mock-api.js RECORD_DIR [PORT_FILE]
//
// Records every request (../lib/mock-server.js).  Answers:
//   POST /auth/exchange_user_api_key   {"accessToken": "tok"}
//   GET  /v1/models ...                one model, composer-2
//   POST .../agent.v1.AgentService/RunSSE
//        a Connect stream left open, whose one message asks the client
//        for its request context: AgentServerMessage{exec_server_message
//        (2){id (1): 1, exec_id (15): "e1", request_context_args (10): {}}}
//        (the field numbers of the SDK's own schema strings); the client
//        answers with a BidiAppend whose data is the hex of an
//        AgentClientMessage holding its rules (extract.js decodes it).
//   any other call in protobuf          an empty message
//   anything else                      {}
// The stream ends when the mock is stopped.
'use strict';
const { serve, json } = require('../lib/mock-server.js');

const { field, rules } = require('./proto.js');

const exec = Buffer.concat([Buffer.from([0x08, 0x01]), field(15, Buffer.from('e1')), field(10, Buffer.alloc(0))]);
const ask = field(2, exec);
const streams = [];

serve({ hide: ['authorization'], base64: true }, (q, res) => {
	if (q.method === 'POST' && q.path === '/auth/exchange_user_api_key') {
		json(res, { accessToken: 'tok', refreshToken: 'tok' });
	} else if (q.method === 'GET' && /\/models$/.test(q.path)) {
		json(res, { items: [{ id: 'composer-2' }], models: [{ id: 'composer-2' }] });
	} else if (q.path.endsWith('/agent.v1.AgentService/RunSSE')) {
		const proto = String(q.headers['content-type'] || '').includes('proto');
		res.writeHead(200, { 'content-type': proto ? 'application/connect+proto' : 'application/connect+json' });
		const head = Buffer.alloc(5);
		head.writeUInt32BE(ask.length, 1);
		res.write(Buffer.concat([head, ask]));
		streams.push(res);
	} else if (q.path.endsWith('/aiserver.v1.BidiService/BidiAppend')) {
		// once the client sent its rules, the run is over: each stream ends
		// with an error, so the client stops instead of waiting for a model
		let got = null;
		try { got = rules(q.raw); } catch (e) { /* another message */ }
		res.writeHead(200, { 'content-type': 'application/proto' });
		res.end();
		if (got) {
			const end = Buffer.from(JSON.stringify({ error: { code: 'permission_denied', message: 'e2e mock: no model' } }));
			const head = Buffer.alloc(5);
			head[0] = 2;
			head.writeUInt32BE(end.length, 1);
			for (const st of streams.splice(0)) st.end(Buffer.concat([head, end]));
		}
	} else if (String(q.headers['content-type'] || '').startsWith('application/proto')) {
		// a unary Connect call (BidiAppend, the dashboard's): an empty message
		res.writeHead(200, { 'content-type': 'application/proto' });
		res.end();
	} else {
		return false;
	}
	return true;
});
process.on('exit', () => streams.forEach((s) => s.destroy()));
