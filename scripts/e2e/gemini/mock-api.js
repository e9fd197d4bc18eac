#!/usr/bin/env node
// A loopback stand-in for the Gemini API (generativelanguage, v1beta), for
// make e2e of Gemini CLI.
//
//   node mock-api.js RECORD_DIR [PORT_FILE]
//
// Listens and records every request as ../lib/mock-server.js does ({method,
// url, headers, body}) and answers:
//   POST .../models/M:streamGenerateContent  a server-sent event stream of
//                                            one candidate saying "ok";
//   POST .../models/M:generateContent        the same candidate as one JSON
//                                            object (for a request asking
//                                            for JSON, a value of its schema);
//   POST .../models/M:countTokens            {"totalTokens": 1};
//   anything else                            an empty JSON object.
'use strict';
const { serve, json } = require('../lib/mock-server.js');

function answer(n, model, text) {
	return {
		candidates: [{
			content: { role: 'model', parts: [{ text }] },
			finishReason: 'STOP',
			index: 0,
		}],
		usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
		modelVersion: model || 'gemini-e2e',
		responseId: 'e2e-' + String(n).padStart(4, '0'),
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

serve({}, (q, res) => {
	const m = /\/models\/([^/:]+):([A-Za-z]+)$/.exec(q.path);
	const model = m ? decodeURIComponent(m[1]) : undefined;
	const verb = m && q.method === 'POST' ? m[2] : '';
	if (verb === 'streamGenerateContent') {
		res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
		res.write('data: ' + JSON.stringify(answer(q.n, model, wanted(q.body))) + '\r\n\r\n');
		res.end();
	} else if (verb === 'generateContent') {
		json(res, answer(q.n, model, wanted(q.body)));
	} else if (verb === 'countTokens') {
		json(res, { totalTokens: 1 });
	} else {
		return false;
	}
	return true;
});
