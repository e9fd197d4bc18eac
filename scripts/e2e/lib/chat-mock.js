// A loopback stand-in for an OpenAI-compatible chat API, for the runtimes
// of make e2e that speak it (OpenCode, pi, Copilot CLI, Qwen Code): each
// one's mock-api.js loads this file.
//
//   node mock-api.js RECORD_DIR [PORT_FILE]
//
// Listens and records every request as mock-server.js does ({method,
// url, headers, body}).  POST /v1/chat/completions gets one assistant turn
// saying "ok": a server-sent event stream of chat.completion.chunk objects
// ending in "data: [DONE]" when the request says "stream": true, else one
// chat.completion object.  GET /v1/models lists one model; any other path
// gets an empty JSON object.
'use strict';
const { serve, json, model } = require('./mock-server.js');

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

serve({}, (q, res) => {
	if (q.method === 'POST' && q.path === '/v1/chat/completions') {
		if (q.body && q.body.stream === true) stream(res, model(q.body), q.n);
		else json(res, completion(model(q.body), q.n));
	} else if (q.method === 'GET' && q.path === '/v1/models') {
		json(res, { object: 'list',
			data: [{ id: 'e2e', object: 'model', created: CREATED, owned_by: 'e2e' }] });
	} else {
		return false;
	}
	return true;
});
