#!/usr/bin/env node
// A loopback stand-in for the OpenAI Responses API, for make e2e with Codex.
//
//   node mock-api.js RECORD_DIR [PORT_FILE]
//
// Listens and records every request as ../lib/mock-server.js does ({method,
// url, headers, body}, the authorization header left out; a gzip or deflate
// body is inflated first), and answers POST /v1/responses with a minimal
// finished response holding one assistant message "ok": a server-sent event
// stream (response.created, response.output_item.done, response.completed)
// when the request says "stream": true, else one JSON object.  GET
// /v1/models gets an empty list; other paths an empty JSON object.
'use strict';
const { serve, json, model } = require('../lib/mock-server.js');

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

serve({ inflate: true, hide: ['authorization'] }, (q, res) => {
	if (q.method === 'POST' && q.path === '/v1/responses') {
		if (q.body && q.body.stream === true) sse(res, q.n, model(q.body));
		else json(res, response(q.n, model(q.body)));
	} else if (q.method === 'GET' && q.path === '/v1/models') {
		json(res, { object: 'list', data: [], models: [] });
	} else {
		return false;
	}
	return true;
});
