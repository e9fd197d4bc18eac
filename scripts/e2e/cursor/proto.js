// The little of protobuf's wire format the Cursor harness needs (mock-api.js
// and extract.js): reading a message's fields, writing a length-delimited
// one.  Node's standard library only.
'use strict';

function varint(buf, at) {
	let v = 0, mul = 1, b;
	do {
		if (at.i >= buf.length) throw new Error('truncated varint');
		b = buf[at.i++];
		v += (b & 0x7f) * mul;
		mul *= 128;
	} while (b & 0x80);
	return v;
}

// the fields of a message: [{n, wire, value}] (value a Buffer for
// length-delimited fields, a number for varints); throws on bad bytes
function fields(buf) {
	const out = [];
	const at = { i: 0 };
	while (at.i < buf.length) {
		const tag = varint(buf, at);
		const n = Math.floor(tag / 8), wire = tag & 7;
		let value;
		if (wire === 0) value = varint(buf, at);
		else if (wire === 2) {
			const len = varint(buf, at);
			if (at.i + len > buf.length) throw new Error('truncated field ' + n);
			value = buf.subarray(at.i, at.i + len);
			at.i += len;
		} else if (wire === 1) { value = buf.subarray(at.i, at.i + 8); at.i += 8; }
		else if (wire === 5) { value = buf.subarray(at.i, at.i + 4); at.i += 4; }
		else throw new Error('wire type ' + wire);
		out.push({ n, wire, value });
	}
	return out;
}

// the first length-delimited field n of buf, or null
function one(buf, n) {
	const f = fields(buf).find((x) => x.n === n && x.wire === 2);
	return f ? f.value : null;
}

// the length-delimited fields n of buf
function all(buf, n) {
	return fields(buf).filter((x) => x.n === n && x.wire === 2).map((x) => x.value);
}

function encVarint(x) {
	const v = [];
	for (; x >= 0x80; x = Math.floor(x / 128)) v.push((x & 0x7f) | 0x80);
	v.push(x);
	return Buffer.from(v);
}

// a length-delimited field n holding bytes
function field(n, bytes) {
	return Buffer.concat([encVarint(n * 8 + 2), encVarint(bytes.length), bytes]);
}

// The rules of a BidiAppendRequest body (its data, field 1, is the hex of
// an AgentClientMessage): exec_client_message (2) > request_context_result
// (10) > success (1) > request_context (1) > rules (2), each CursorRule's
// full_path (1) and content (2); null when the message is something else.
function rules(body) {
	const hex = one(body, 1);
	if (!hex) return null;
	let m = Buffer.from(hex.toString('latin1'), 'hex');
	for (const n of [2, 10, 1, 1]) {
		m = one(m, n);
		if (!m) return null;
	}
	return all(m, 2).map((r) => ({
		path: (one(r, 1) || Buffer.alloc(0)).toString('utf8'),
		content: (one(r, 2) || Buffer.alloc(0)).toString('utf8'),
	}));
}

module.exports = { fields, one, all, field, encVarint, rules };
