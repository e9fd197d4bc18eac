#!/usr/bin/env node
// A loopback stand-in for the Anthropic Messages API, for make e2e.
//
//   node mock-api.js RECORD_DIR [PORT_FILE]
//
// Listens and records every request as ../lib/mock-server.js does ({method,
// url, body}, no headers), and answers POST /v1/messages with a minimal
// valid message: a server-sent event stream when the request says
// "stream": true, else one JSON object.  POST /v1/messages/count_tokens gets
// a count of 1; other paths an empty JSON object.
'use strict';
const { serve, json, model } = require('../lib/mock-server.js');

function message(n, m) {
	return {
		id: 'msg_e2e_' + String(n).padStart(4, '0'),
		type: 'message',
		role: 'assistant',
		model: m || 'claude-e2e',
		content: [{ type: 'text', text: 'ok' }],
		stop_reason: 'end_turn',
		stop_sequence: null,
		usage: { input_tokens: 1, output_tokens: 1 },
	};
}

function sse(res, n, model) {
	const m = message(n, model);
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

serve({ headers: false }, (q, res) => {
	if (q.method !== 'POST') return false;
	if (q.path === '/v1/messages/count_tokens') {
		json(res, { input_tokens: 1 });
	} else if (q.path === '/v1/messages') {
		if (q.body && q.body.stream === true) sse(res, q.n, model(q.body));
		else json(res, message(q.n, model(q.body)), { 'request-id': 'req_e2e' });
	} else {
		return false;
	}
	return true;
});
