'use strict';
// One long-lived handle (plain and watched) composing the nanoclaw preset's
// flat document: each compose follows the config as it is now, whether
// container.json was rewritten in place at the same length or the host
// gave the config, one clawmd's reader refuses (cli_scope) included.  The
// library keeps the config's JSON parse beside its text (lib/group/group.c
// config_doc); a parse kept past its text would show here as a document of
// the config before.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const { pkg, tmpdir, read } = require('./helper.js');
const clawmd = require(pkg);

// Three configs of one length: skill a or b, MCP instructions "use m",
// "use n" or "use c"; C's cli_scope is one clawmd's reader refuses.
const A = '{"skills": ["a"], "mcpServers": {"m": {"command": "m", "instructions": "use m"}}, "cli_scope": "group"}';
const B = '{"skills": ["b"], "mcpServers": {"m": {"command": "m", "instructions": "use n"}}, "cli_scope": "group"}';
const C = '{"skills": ["b"], "mcpServers": {"m": {"command": "m", "instructions": "use c"}}, "cli_scope": "bogus"}';
const want = new Map([
	[A, { name: 'A', has: ['skill A text', 'use m'], not: ['skill B text', 'use n', 'use c'] }],
	[B, { name: 'B', has: ['skill B text', 'use n'], not: ['skill A text', 'use m', 'use c'] }],
	[C, { name: 'C', has: ['skill B text', 'use c'], not: ['skill A text', 'use m', 'use n'] }],
]);

function tree(t) {
	const root = tmpdir(t);
	const w = (p, s) => {
		fs.mkdirSync(path.dirname(path.join(root, p)), { recursive: true });
		fs.writeFileSync(path.join(root, p), s);
	};
	w('clawmd.json', '{"preset": "nanoclaw", "document": "flat"}\n');
	w('container/CLAUDE.md', 'You are an agent.\n');
	w('container/skills/a/instructions.md', 'skill A text\n');
	w('container/skills/b/instructions.md', 'skill B text\n');
	w('container/agent-runner/src/mcp-tools/core.instructions.md', 'module core\n');
	w('groups/g/container.json', A);
	return root;
}

function expectDoc(root, cfg, what) {
	const doc = read(root, 'groups/g/CLAUDE.md');
	const w = want.get(cfg);
	for (const s of w.has) assert.ok(doc.includes(s), `${what}: config ${w.name}'s document has "${s}"\n${doc}`);
	for (const s of w.not) assert.ok(!doc.includes(s), `${what}: config ${w.name}'s document lacks "${s}"\n${doc}`);
}

// Out of the racy window of the last edit (fs/stamp.h: 10 ms), with room.
const settle = () => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 40);

assert.equal(A.length, B.length);
assert.equal(B.length, C.length);

for (const watch of [false, true]) {
	test(`${watch ? 'watched' : 'plain'} handle: container.json rewritten in place at one length`, (t) => {
		const root = tree(t);
		const h = clawmd.open(root, { watch });
		t.after(() => h.close());
		h.compose('g');
		settle();
		h.compose('g');
		expectDoc(root, A, 'first');
		const seq = [B, A, B, A, B];
		seq.forEach((cfg, i) => {
			// in place: the same inode, truncated and written
			const fd = fs.openSync(path.join(root, 'groups/g/container.json'), 'r+');
			fs.writeSync(fd, cfg, 0);
			fs.closeSync(fd);
			if (i & 1) settle();
			assert.equal(h.compose('g').changed, true, `round ${i}: a change`);
			expectDoc(root, cfg, `round ${i}`);
			settle();
			h.compose('g');
			assert.equal(h.compose('g').changed, false, `round ${i}: settled to a no-op`);
			expectDoc(root, cfg, `round ${i} settled`);
		});
	});

	test(`${watch ? 'watched' : 'plain'} handle: configs the host gives, one refused by clawmd's reader`, (t) => {
		const root = tree(t);
		const h = clawmd.open(root, { watch });
		t.after(() => h.close());
		const seq = [A, B, A, C, A, C, B, C, C, A, A, B];
		let prev = null;
		seq.forEach((cfg, i) => {
			if (i & 1) settle();
			const r = h.compose('g', { config: cfg });
			assert.equal(r.changed, cfg !== prev, `round ${i}: changed only when the config did`);
			expectDoc(root, cfg, `round ${i}`);
			prev = cfg;
		});
	});
}
