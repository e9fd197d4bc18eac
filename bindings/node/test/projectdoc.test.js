'use strict';
// clawmd/nanoclaw's composeGroupProjectDoc: nanoclaw's composer since its
// pull request 3536 (one flat document per provider spec), over clawmd's
// flat document.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const { pkg, tmpdir, read } = require('./helper.js');
const { composeGroupProjectDoc } = require(path.join(pkg, 'nanoclaw.js'));

/* A nanoclaw checkout of that era: the canon with its memory-note
 * placeholder, skills, the runner's modules, groups/. */
function tree(t) {
	const root = tmpdir(t);
	const w = (p, s) => {
		fs.mkdirSync(path.dirname(path.join(root, p)), { recursive: true });
		fs.writeFileSync(path.join(root, p), s);
	};
	w('container/CLAUDE.md', '# Canon\n\n## Memory\n\nUse memory/.\n\n{{provider-memory-note}}\n\nEnd.\n');
	w('container/skills/welcome/instructions.md', 'Welcome.\n');
	w('container/agent-runner/src/mcp-tools/core.instructions.md', 'Core.\n');
	w('container/agent-runner/src/mcp-tools/cli.instructions.md', 'CLI.\n');
	fs.mkdirSync(path.join(root, 'groups'));
	const cwd = process.cwd();
	process.chdir(root);
	t.after(() => process.chdir(cwd));
	return root;
}

const group = { id: 'ag-1', name: 'Main', folder: 'main' };
const codex = {
	fileName: 'AGENTS.md',
	maxBytes: 32768,
	instructions: {
		nativeOverrideFiles: ['AGENTS.local.md', 'AGENTS.override.md'],
		nativeSkills: { discoveryPath: '/workspace/agent/.agents/skills', sharedSource: '/app/skills',
			selfAuthoredHome: '~/.codex/skills', persistentRoots: ['~/.codex', '~/.agents'],
			ruleBearingInlined: true },
	},
};
const logger = () => {
	const lines = [];
	return { lines, warn: (m, o) => lines.push(['warn', m, o]), error: (m, o) => lines.push(['error', m, o]) };
};

test('the default spec: a flat CLAUDE.md, nanoclaw\'s bytes', async (t) => {
	const root = tree(t);
	const r = await composeGroupProjectDoc(group, path.join(root, 'groups/main'),
		{ fileName: 'CLAUDE.md', maxBytes: 4 * 1024 * 1024 });
	assert.equal(r.changed, true);
	assert.equal(r.file, 'CLAUDE.md');
	assert.deepEqual(r.dropped, []);
	assert.equal(read(root, 'groups/main/CLAUDE.md'),
		'<!-- Composed at spawn - do not edit. Standing instructions: instructions.prepend.md. Memory: memory/. -->\n\n' +
		'# NanoClaw Runtime Contract\n\n# Canon\n\n## Memory\n\nUse memory/.\n\nEnd.\n\n' +
		'# NanoClaw Module: cli\n\nCLI.\n\n# NanoClaw Module: core\n\nCore.\n\n' +
		'# NanoClaw Skill: welcome\n\nWelcome.\n');
	assert.equal(fs.existsSync(path.join(root, 'groups/main/.claude-fragments')), false);
	const again = await composeGroupProjectDoc(group, path.join(root, 'groups/main'),
		{ fileName: 'CLAUDE.md', maxBytes: 4 * 1024 * 1024 });
	assert.equal(again.changed, false);
});

test('codex facts, the row as nanoclaw stores it, warnings to the host\'s logger', async (t) => {
	const root = tree(t);
	const log = logger();
	const row = {
		agent_group_id: 'ag-1',
		skills: '{not json',
		mcp_servers: JSON.stringify({ tooling: { command: 't', instructions: 'Use tooling.' },
			web: { url: 'http://example.com', instructions: 'x' } }),
		cli_scope: 'disabled',
	};
	const r = await composeGroupProjectDoc(group, path.join(root, 'groups/main'), codex, row, { log });
	const doc = read(root, 'groups/main/AGENTS.md');
	assert.match(doc, /\n\nDo not use `AGENTS\.local\.md` or `AGENTS\.override\.md` for memory\.\n\nEnd\./);
	assert.match(doc, /# Native Runtime Skills\n\nSelected NanoClaw runtime skills are available as provider-native skills at `\/workspace\/agent\/\.agents\/skills`\./);
	assert.match(doc, /# MCP Server: tooling\n\nUse tooling\.\n$/);
	assert.doesNotMatch(doc, /# NanoClaw Module: cli/);
	assert.match(doc, /# NanoClaw Skill: welcome/); // the corrupt selection widened
	assert.equal(r.warnings.length, 2);
	assert.deepEqual(log.lines.map((l) => l[0]), ['warn', 'warn']);
	assert.ok(log.lines.some((l) => /skill selection/.test(l[1])));
	assert.ok(log.lines.some((l) => l[1] === 'Dropping invalid stored MCP server' && l[2].server === 'web'));
	assert.equal(log.lines[0][2].file, 'AGENTS.md');
	assert.equal(fs.existsSync(path.join(root, 'groups/main/CLAUDE.md')), false);
});

test('past maxBytes: the largest sections go, log.error names them, exit 0', async (t) => {
	const root = tree(t);
	const log = logger();
	const big = 'x'.repeat(9000);
	const mcp = {};
	for (let i = 0; i < 4; i++) mcp[`bloated${i}`] = { command: 'c', instructions: big };
	const r = await composeGroupProjectDoc(group, path.join(root, 'groups/main'),
		{ fileName: 'CLAUDE.md', maxBytes: 24 * 1024 }, { mcp_servers: JSON.stringify(mcp) }, { log });
	const doc = read(root, 'groups/main/CLAUDE.md');
	assert.ok(Buffer.byteLength(doc) <= 24 * 1024);
	assert.deepEqual(r.dropped, ['MCP Server: bloated0', 'MCP Server: bloated1']);
	assert.match(doc, /# Omitted for size\n\nThese instruction sections were omitted to fit the project-document size cap: MCP Server: bloated0, MCP Server: bloated1\. /);
	const err = log.lines.find((l) => l[0] === 'error');
	assert.ok(err);
	assert.deepEqual(err[2].dropped, r.dropped);
});

test('a row past the config reader\'s 1 MiB still composes: the ladder drops what the agent grew', async (t) => {
	// nanoclaw composes any row it stores; the agent can grow its MCP
	// servers' instructions.  A thrown compose would fail every spawn.
	const root = tree(t);
	const log = logger();
	const mcp = {};
	for (let i = 0; i < 20; i++) mcp[`grown${String(i).padStart(2, '0')}`] = { command: 'c', instructions: 'y'.repeat(60000) };
	const row = { mcp_servers: JSON.stringify(mcp) };
	assert.ok(row.mcp_servers.length > 1024 * 1024);
	const r = await composeGroupProjectDoc(group, path.join(root, 'groups/main'),
		{ fileName: 'CLAUDE.md', maxBytes: 32768 }, row, { log });
	assert.equal(r.changed, true);
	assert.equal(r.dropped.length, 20);
	const doc = read(root, 'groups/main/CLAUDE.md');
	assert.ok(Buffer.byteLength(doc) <= 32768);
	assert.match(doc, /# NanoClaw Skill: welcome\n\nWelcome\.\n/);
	assert.match(doc, /# Omitted for size\n\nThese instruction sections were omitted to fit the project-document size cap: MCP Server: grown/);
	assert.ok(log.lines.some((l) => l[0] === 'error'));
});

test('the servers in JSON.parse\'s order; the ladder drops the largest block, the first of equal ones', async (t) => {
	const root = tree(t);
	// a key given twice keeps its first place and its last value; array
	// indexes come first, ascending
	const row = { mcp_servers: '{"b":{"command":"c","instructions":"B1"},"10":{"command":"c","instructions":"Ten"},' +
		'"a":{"command":"c","instructions":"A"},"2":{"command":"c","instructions":"Two"},' +
		'"b":{"command":"c","instructions":"B2"}}' };
	await composeGroupProjectDoc(group, path.join(root, 'groups/main'), { fileName: 'CLAUDE.md' }, row);
	const doc = read(root, 'groups/main/CLAUDE.md');
	assert.match(doc, /# MCP Server: 2\n\nTwo\n\n# MCP Server: 10\n\nTen\n\n# MCP Server: b\n\nB2\n\n# MCP Server: a\n\nA\n$/);
	// blocks of 16+400 bytes: "# MCP Server: pN" each; pa..pd the same size, p0 larger by
	// its body; the cap leaves room for two of them and the notice
	const mcp = {};
	for (const k of ['pa', 'pb', 'p0', 'pc', 'pd']) mcp[k] = { command: 'c', instructions: (k === 'p0' ? 'z' : '') + 'y'.repeat(400) };
	const full = await composeGroupProjectDoc(group, path.join(root, 'groups/main'), { fileName: 'CLAUDE.md' },
		{ mcp_servers: JSON.stringify(mcp) });
	const size = Buffer.byteLength(read(root, 'groups/main/CLAUDE.md'));
	assert.deepEqual(full.dropped, []);
	const r = await composeGroupProjectDoc(group, path.join(root, 'groups/main'), { fileName: 'CLAUDE.md', maxBytes: size - 900 },
		{ mcp_servers: JSON.stringify(mcp) }, { log: logger() });
	assert.deepEqual(r.dropped, ['MCP Server: p0', 'MCP Server: pa', 'MCP Server: pb']);
	assert.match(read(root, 'groups/main/CLAUDE.md'), /# MCP Server: pc\n\ny{400}\n\n# MCP Server: pd\n\ny{400}\n\n# Omitted for size\n\n/);
});

test('a no-op logs its warnings as the compose before it did, each result its own dropped list', async (t) => {
	// the adapter works out what a warning is once per text (its log's
	// kind and fields); a no-op returns the same texts, and must log the same
	const root = tree(t);
	const mcp = { p0: { command: 'c', instructions: 'z'.repeat(900) }, web: { url: 'http://e.com', instructions: 'x' } };
	const row = { mcp_servers: JSON.stringify(mcp) };
	const spec = { fileName: 'CLAUDE.md', maxBytes: 600 };
	const runs = [];
	for (let i = 0; i < 3; i++) {
		const log = logger();
		const r = await composeGroupProjectDoc(group, path.join(root, 'groups/main'), spec, row, { log });
		runs.push({ r, lines: log.lines });
	}
	assert.equal(runs[0].r.changed, true);
	assert.equal(runs[2].r.changed, false);
	assert.ok(runs[0].lines.some((l) => l[1] === 'Dropping invalid stored MCP server' && l[2].server === 'web'));
	assert.ok(runs[0].lines.some((l) => l[0] === 'error' && /exceeded its size cap/.test(l[1])));
	for (const run of runs.slice(1)) assert.deepEqual(run.lines, runs[0].lines);
	assert.deepEqual(runs[2].r.dropped, runs[0].r.dropped);
	assert.ok(runs[0].r.dropped.includes('MCP Server: p0'), runs[0].r.dropped.join(', '));
	runs[1].r.dropped.push('mine');
	assert.notEqual(runs[2].r.dropped, runs[1].r.dropped);
	assert.ok(!runs[2].r.dropped.includes('mine'));
});

test('a row of 60000 servers: ordered by sorting and fitted in one pass, not pair by pair', { timeout: 120000 }, async (t) => {
	// the agent decides how many servers its row has (up to 64 MiB of it):
	// comparing every pair of keys, and rendering the document again after
	// each drop, took minutes here where this takes a fraction of a second
	const root = tree(t);
	const log = logger();
	const parts = [];
	for (let i = 60000; i > 0; i--) parts.push(`"${i % 2 ? i : 's' + i}":{"command":"c","instructions":"i${i}"}`);
	parts.push('"bad":1');
	const row = { mcp_servers: '{' + parts.join(',') + '}' };
	// Codex loads 4096 bytes (its cap is project_doc_max_bytes): the
	// largest go first (of equal ones, the first in the document). In
	// nanoclaw the notice naming each dropped one outgrows the cap and
	// every one goes; clawmd's notice names an eighth of what the runtime
	// loads and counts the rest (issue 39), so the document fits with the
	// smallest servers kept (indexes come first, ascending) and r.dropped
	// (the warning) names all that went
	const r = await composeGroupProjectDoc(group, path.join(root, 'groups/main'), { fileName: 'AGENTS.md', maxBytes: 4096 },
		row, { log });
	const doc = read(root, 'groups/main/AGENTS.md');
	assert.ok(Buffer.byteLength(doc) <= 4096, `${Buffer.byteLength(doc)} bytes`);
	assert.ok(r.dropped.length > 59000 && r.dropped.length < 60000 + 3, `${r.dropped.length}`);
	// blocks of 35, 30, then 28 bytes: the module cli before the servers of 28
	assert.deepEqual(r.dropped.slice(0, 5), ['NanoClaw Skill: welcome', 'NanoClaw Module: core',
		'NanoClaw Module: cli', 'MCP Server: s60000', 'MCP Server: s59998']);
	assert.match(doc, /# MCP Server: 1\n/);
	assert.match(doc, /# Omitted for size\n\n.*: NanoClaw Skill: welcome, NanoClaw Module: core, NanoClaw Module: cli, MCP Server: s60000, .*, and \d+ more\. Their tools/);
	// Claude Code loads 4 MiB whatever the budget: every droppable one
	// goes, as in nanoclaw, and the notice names at most 4 KiB of them
	const c = await composeGroupProjectDoc(group, path.join(root, 'groups/main'), { fileName: 'CLAUDE.md', maxBytes: 4096 },
		row, { log });
	const claude = read(root, 'groups/main/CLAUDE.md');
	assert.equal(c.dropped.length, 60000 + 3);
	assert.doesNotMatch(claude, /# MCP Server: /);
	assert.ok(Buffer.byteLength(claude) <= 4096 + 4096 + 64, `${Buffer.byteLength(claude)} bytes`);
	assert.match(claude, /, and \d+ more\. Their tools/);
	assert.ok(log.lines.some((l) => l[1] === 'Dropping invalid stored MCP server' && l[2].server === 'bad'));
});

test('a hostile spec: the host\'s error or none, never a TypeError; r.file the file written', async (t) => {
	const root = tree(t);
	const dir = path.join(root, 'groups/main');
	// nativeSkills null is no native skills (as nanoclaw's optional chaining reads it)
	const r = await composeGroupProjectDoc(group, dir, { fileName: 'AGENTS.md', instructions: { nativeSkills: null } });
	assert.equal(r.file, 'AGENTS.md');
	assert.equal(read(path.join(dir, 'AGENTS.md')).includes('Native Runtime Skills'), false);
	for (const bad of ['x', 7, true])
		await assert.rejects(() => composeGroupProjectDoc(group, dir, { fileName: 'AGENTS.md',
			instructions: { nativeSkills: bad } }), (e) => e.code === 'EUSAGE' && e.key === 'nativeSkills');
	// a getter that answers otherwise the second time: r.file is what was validated and written
	let n = 0;
	const flip = { get fileName() { return n++ ? '../../elsewhere' : 'CLAUDE.md'; } };
	const f = await composeGroupProjectDoc(group, dir, flip);
	assert.equal(f.file, 'CLAUDE.md');
	assert.ok(fs.existsSync(path.join(dir, 'CLAUDE.md')));
});

test('a bad spec or group is the host\'s error, nothing written', async (t) => {
	const root = tree(t);
	const dir = path.join(root, 'groups/main');
	await assert.rejects(() => composeGroupProjectDoc(group, dir, { fileName: 'README.md' }), (e) => e.code === 'EUSAGE');
	await assert.rejects(() => composeGroupProjectDoc(group, dir, { fileName: 'CLAUDE.md', maxBytes: '4096' }),
		(e) => e.code === 'EUSAGE' && e.key === 'maxBytes');
	await assert.rejects(() => composeGroupProjectDoc(group, dir, { fileName: 'AGENTS.md',
		instructions: { nativeSkills: { discoveryPath: '/x' } } }), (e) => e.code === 'EUSAGE');
	await assert.rejects(() => composeGroupProjectDoc(group, '', { fileName: 'CLAUDE.md' }),
		(e) => e.code === 'EUSAGE' && e.key === 'groupDir');
	await assert.rejects(() => composeGroupProjectDoc(group, path.join(root, 'groups/-x'), { fileName: 'CLAUDE.md' }),
		(e) => e.code === 'EUSAGE' && e.key === 'groupDir');
	await assert.rejects(() => composeGroupProjectDoc(group, dir, { fileName: 'CLAUDE.md' }, 'all'),
		(e) => e.code === 'EINPUT' && e.key === 'config');
	await assert.rejects(() => composeGroupProjectDoc(group, dir, { fileName: 'CLAUDE.md' }, 7),
		(e) => e.code === 'EUSAGE' && e.key === 'runtimeSkills');
	assert.equal(fs.existsSync(path.join(dir, 'CLAUDE.md')), false);
	assert.equal(fs.existsSync(path.join(root, 'groups/-x')), false);
});

test('what nanoclaw\'s composer would fail the spawn on composes, said in the log', async (t) => {
	const root = tree(t);
	const dir = path.join(root, 'groups/main');
	const log = logger();
	// a malformed mcp_servers column: nanoclaw's JSON.parse throws at every spawn
	const r = await composeGroupProjectDoc(group, dir, { fileName: 'CLAUDE.md' }, { mcp_servers: '{' }, { log });
	assert.equal(r.changed, true);
	assert.match(read(dir, 'CLAUDE.md'), /# NanoClaw Skill: welcome/);
	assert.deepEqual(log.lines.map((l) => [l[0], l[1]]),
		[['warn', 'Stored MCP servers are not JSON; composed without their instructions']]);
	// a cap of at most 0: nanoclaw drops every droppable section, so does clawmd
	const z = await composeGroupProjectDoc(group, dir, { fileName: 'CLAUDE.md', maxBytes: -1 }, null, { log });
	assert.deepEqual(z.dropped, ['NanoClaw Skill: welcome', 'NanoClaw Module: core', 'NanoClaw Module: cli']);
});

test('one spec object changed between calls: each call composes the spec as it is then', async (t) => {
	const root = tree(t);
	const dir = path.join(root, 'groups/main');
	const doc = (f) => read(path.join(dir, f));
	const spec = { fileName: 'CLAUDE.md' };
	assert.equal((await composeGroupProjectDoc(group, dir, spec)).file, 'CLAUDE.md');
	assert.equal((await composeGroupProjectDoc(group, dir, spec)).changed, false);
	spec.fileName = 'AGENTS.md';
	assert.equal((await composeGroupProjectDoc(group, dir, spec)).file, 'AGENTS.md');
	assert.ok(fs.existsSync(path.join(dir, 'AGENTS.md')));
	// the instructions, a new object, then the same object changed in place
	spec.instructions = { nativeOverrideFiles: ['AGENTS.local.md'] };
	await composeGroupProjectDoc(group, dir, spec);
	assert.match(doc('AGENTS.md'), /Do not use `AGENTS\.local\.md` for memory\./);
	spec.instructions.nativeOverrideFiles.push('AGENTS.override.md');
	await composeGroupProjectDoc(group, dir, spec);
	assert.match(doc('AGENTS.md'), /Do not use `AGENTS\.local\.md` or `AGENTS\.override\.md` for memory\./);
	// a cap: the ladder drops
	spec.maxBytes = 200;
	assert.notDeepEqual((await composeGroupProjectDoc(group, dir, spec)).dropped, []);
	delete spec.maxBytes;
	assert.deepEqual((await composeGroupProjectDoc(group, dir, spec)).dropped, []);
	// and a refused change is refused at each call
	spec.fileName = 'README.md';
	for (let i = 0; i < 2; i++)
		await assert.rejects(() => composeGroupProjectDoc(group, dir, spec), (e) => e.code === 'EUSAGE' && e.key === 'fileName');
});

test('a group name refused is refused at each call; one accepted is not asked again', async (t) => {
	const root = tree(t);
	const spec = { fileName: 'CLAUDE.md' };
	for (let i = 0; i < 2; i++)
		await assert.rejects(() => composeGroupProjectDoc({ folder: '.hidden' }, path.join(root, 'groups/.hidden'), spec),
			(e) => e.code === 'EUSAGE' && e.key === 'groupDir');
	assert.equal(fs.existsSync(path.join(root, 'groups/.hidden')), false);
	const dir = path.join(root, 'groups/main');
	assert.equal((await composeGroupProjectDoc(group, dir, spec)).changed, true);
	// the group's directory removed since: made again, as nanoclaw's composer does
	fs.rmSync(dir, { recursive: true });
	assert.equal((await composeGroupProjectDoc(group, dir, spec)).changed, true);
	assert.ok(fs.existsSync(path.join(dir, 'CLAUDE.md')));
});

test('each input changed between calls is composed at the next (a row of the same length, a skill edited with its mtime put back, a skill or the skills directory swapped)', async (t) => {
	const root = tree(t);
	const dir = path.join(root, 'groups/main');
	const doc = () => read(path.join(dir, 'CLAUDE.md'));
	const spec = { fileName: 'CLAUDE.md' };
	const skills = path.join(root, 'container/skills');
	const put = (p, s) => {
		fs.mkdirSync(path.dirname(p), { recursive: true });
		fs.writeFileSync(p, s);
	};
	put(path.join(skills, 'other/instructions.md'), 'Other.\n');
	// the row: the config is known again by its bytes (lib/group/group.c),
	// so a change of one byte, the length kept, is a config anew
	const row = { agent_group_id: 'ag-1', skills: '"all"', cli_scope: null,
		mcp_servers: JSON.stringify({ aa: { command: 'x', instructions: 'AAAA one' } }) };
	await composeGroupProjectDoc(group, dir, spec, row);
	assert.match(doc(), /AAAA one/);
	row.mcp_servers = JSON.stringify({ aa: { command: 'x', instructions: 'BBBB one' } });
	assert.equal((await composeGroupProjectDoc(group, dir, spec, row)).changed, true);
	assert.match(doc(), /BBBB one/);
	const text = (s) => JSON.stringify({ mcpServers: { aa: { command: 'x', instructions: s } } });
	await composeGroupProjectDoc(group, dir, spec, text('CCCC one'));
	assert.equal((await composeGroupProjectDoc(group, dir, spec, text('DDDD one'))).changed, true);
	assert.match(doc(), /DDDD one/);
	// a skill edited in place, the same length, its times put back: the
	// record's look from the kept skills directory sees its ctime
	await composeGroupProjectDoc(group, dir, spec);
	const sk = path.join(skills, 'welcome/instructions.md');
	const st = fs.statSync(sk);
	fs.writeFileSync(sk, 'Welcomf.\n');
	fs.utimesSync(sk, st.atime, st.mtime);
	assert.equal((await composeGroupProjectDoc(group, dir, spec)).changed, true);
	assert.match(doc(), /Welcomf\./);
	// a skill's directory swapped by renames
	put(path.join(skills, 'welcome.new/instructions.md'), 'Swapped.\n');
	fs.renameSync(path.join(skills, 'welcome'), path.join(skills, 'welcome.old'));
	fs.renameSync(path.join(skills, 'welcome.new'), path.join(skills, 'welcome'));
	fs.rmSync(path.join(skills, 'welcome.old'), { recursive: true });
	await composeGroupProjectDoc(group, dir, spec);
	assert.match(doc(), /Swapped\./);
	// the skills directory renamed away and another made in its place, its
	// file of the same size and mtime as the one it replaces
	fs.renameSync(skills, `${skills}.old`);
	put(path.join(skills, 'welcome/instructions.md'), 'Swappee.\n');
	const was = fs.statSync(path.join(`${skills}.old`, 'welcome/instructions.md'));
	fs.utimesSync(path.join(skills, 'welcome/instructions.md'), was.atime, was.mtime);
	assert.equal((await composeGroupProjectDoc(group, dir, spec)).changed, true);
	assert.match(doc(), /Swappee\./);
	assert.doesNotMatch(doc(), /Other\./);
	assert.equal((await composeGroupProjectDoc(group, dir, spec)).changed, false);
});

test('a deeply nested row: the valid server kept at any depth of another field, never a RangeError', async (t) => {
	const root = tree(t);
	const dir = path.join(root, 'groups/main');
	const log = logger();
	for (const depth of [1500, 6000, 100000]) {
		const deep = '['.repeat(depth) + ']'.repeat(depth);
		// nanoclaw's reader takes both servers: the deep field is not one it reads
		const mcp = `{"deep": {"command": "d", "extra": ${deep}, "instructions": "Deep."}, ` +
			'"ok": {"command": "o", "instructions": "Use ok."}}';
		const r = await composeGroupProjectDoc(group, dir, { fileName: 'CLAUDE.md' },
			{ agent_group_id: 'ag-1', mcp_servers: mcp }, { log });
		assert.equal(r.file, 'CLAUDE.md');
		const doc = read(dir, 'CLAUDE.md');
		assert.match(doc, /# MCP Server: deep\n\nDeep\.\n\n# MCP Server: ok\n\nUse ok\.\n$/, `depth ${depth}`);
		// deep where the reader looks: that server is invalid, the other kept
		const bad = `{"deep": {"command": "d", "args": ${deep}, "instructions": "Deep."}, ` +
			'"ok": {"command": "o", "instructions": "Use ok."}}';
		await composeGroupProjectDoc(group, dir, { fileName: 'CLAUDE.md' }, { agent_group_id: 'ag-1', mcp_servers: bad }, { log });
		assert.match(read(dir, 'CLAUDE.md'), /# NanoClaw Skill: welcome\n\nWelcome\.\n\n# MCP Server: ok\n\nUse ok\.\n$/);
	}
});

test('the row cache is bounded by bytes: distinct 1 MiB rows do not grow the host', { timeout: 300000 }, (t) => {
	const root = tree(t);
	const { spawnSync } = require('child_process');
	const src = `
		const nc = require(${JSON.stringify(path.join(pkg, 'nanoclaw.js'))});
		const g = { id: 'ag-1', name: 'Main', folder: 'main' }, dir = ${JSON.stringify(path.join(root, 'groups/main'))};
		const pad = 'x'.repeat(1 << 20);
		(async () => {
			const heap = () => { global.gc(); return process.memoryUsage().heapUsed + process.memoryUsage().external; };
			let before = 0;
			for (let i = 0; i < 300; i++) {
				const mcp = JSON.stringify({ s: { command: 'c', instructions: 'Use s.', note: i + pad } });
				await nc.composeGroupProjectDoc(g, dir, { fileName: 'CLAUDE.md' }, { agent_group_id: 'ag-1', mcp_servers: mcp });
				if (i === 49) before = heap();
			}
			process.stdout.write(JSON.stringify({ before, after: heap() }));
		})();`;
	const r = spawnSync(process.execPath, ['--expose-gc', '-e', src], { cwd: root, encoding: 'utf8', timeout: 280000 });
	assert.equal(r.status, 0, r.stderr);
	const { before, after } = JSON.parse(r.stdout);
	// 250 rows more of 1 MiB each (2 MiB as V8 strings) would be 500 MiB;
	// the cache keeps at most 32 MiB of them
	assert.ok(after - before < 64 * 1024 * 1024, `the host grew by ${((after - before) / 1048576).toFixed(0)} MiB`);
});
