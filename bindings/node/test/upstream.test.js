'use strict';
// clawmd/nanoclaw as nanoclaw 2.4 calls its composer: the behaviours its own
// composer tests pin (src/project-doc-compose.test.ts, tenequm/nanoclaw
// 99851e4e, and the later runtimeSkills case), restated here against the
// adapter, called exactly as nanoclaw calls it:
//
//	configure({ getContainerConfig, log })          once, at load
//	await composeGroupProjectDoc(group, groupDir, spec, runtimeSkills?)
//
// with the group directories where nanoclaw's tests keep them: beside the
// project the host runs in (its working directory), not under its groups/.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const { pkg, tmpdir } = require('./helper.js');
const nc = require(path.join(pkg, 'nanoclaw.js'));
const {
	composeGroupProjectDoc, configure, renderBaseInstructions, renderNativeSkillsSection,
	BASE_INSTRUCTIONS_PATH, MEMORY_NOTE_PLACEHOLDER, DEFAULT_PROJECT_DOC,
} = nc;

/* nanoclaw's container_configs table, as its db module keeps it: JSON
 * columns as text, read back by agent group id. */
const rows = new Map();
const db = {
	ensure(id) { if (!rows.has(id)) rows.set(id, { agent_group_id: id, skills: '"all"', mcp_servers: '{}', cli_scope: null }); },
	json(id, col, v) { rows.get(id)[col] = JSON.stringify(v); },
	raw(id, col, text) { rows.get(id)[col] = text; },
};
/* nanoclaw's logger, mocked as its tests mock it. */
const calls = { warn: [], error: [] };
const log = { warn: (m, o) => calls.warn.push([m, o]), error: (m, o) => calls.error.push([m, o]) };
// an async reader, as nanoclaw's getContainerConfig is
configure({ getContainerConfig: async (id) => rows.get(id), log });

const CANON = '# Runtime\n\nYou run in a container.\n\n## Memory\n\nKeep notes in memory/.\n\n' +
	`${MEMORY_NOTE_PLACEHOLDER}\n\n## Tools\n\nUse them.\n`;
const MODULES = ['agents', 'cli', 'core', 'interactive', 'scheduling', 'self-mod'];

/* The project the host runs in (its working directory) with the canon,
 * the runner's modules and one skill; the groups beside it. */
function project(t) {
	const top = tmpdir(t);
	const src = path.join(top, 'source');
	const w = (p, s) => {
		fs.mkdirSync(path.dirname(path.join(src, p)), { recursive: true });
		fs.writeFileSync(path.join(src, p), s);
	};
	w('container/CLAUDE.md', CANON);
	for (const m of MODULES) w(`container/agent-runner/src/mcp-tools/${m}.instructions.md`, `How to use ${m}.\n`);
	w('container/agent-runner/src/mcp-tools/core.ts', 'export {};\n');
	w('container/skills/fixture-gateway/instructions.md', 'Fixture credential guidance.');
	w('container/skills/fixture-gateway/SKILL.md', '---\nname: fixture-gateway\n---\nOn demand.\n');
	const cwd = process.cwd();
	process.chdir(src);
	t.after(() => process.chdir(cwd));
	calls.warn.length = calls.error.length = 0;
	return { top, src };
}

let seq = 0;
function seed(p, folder) {
	const g = { id: `ag-${++seq}`, name: folder, folder, agent_provider: null };
	db.ensure(g.id);
	fs.mkdirSync(path.join(p.top, folder), { recursive: true });
	return g;
}
const dirOf = (p, g) => path.join(p.top, g.folder);
const CLAUDE_SPEC = { fileName: 'CLAUDE.md' };
async function compose(p, g, spec = CLAUDE_SPEC, runtimeSkills) {
	await composeGroupProjectDoc(g, dirOf(p, g), spec, runtimeSkills);
	return fs.readFileSync(path.join(dirOf(p, g), spec.fileName), 'utf8');
}
const persona = (p, g, text) => fs.writeFileSync(path.join(dirOf(p, g), 'instructions.prepend.md'), text);
const warned = (re) => calls.warn.some(([m]) => re.test(m));

/* ---- delivery ------------------------------------------------------------ */

test('no line of the document starts with @', async (t) => {
	const p = project(t);
	const doc = await compose(p, seed(p, 'flat-group'));
	assert.deepEqual(doc.split('\n').filter((l) => l.startsWith('@')), []);
});

test('no fragment directory and no shared-base link in the group', async (t) => {
	const p = project(t);
	const g = seed(p, 'artifacts-group');
	await compose(p, g);
	const names = fs.readdirSync(dirOf(p, g));
	assert.ok(!names.includes('.claude-fragments') && !names.includes('.claude-shared.md'));
});

test('the canon, the modules and a resident skill\'s prose, each whole', async (t) => {
	const p = project(t);
	const doc = await compose(p, seed(p, 'inline-group'));
	assert.ok(doc.includes(renderBaseInstructions(CANON.trim())));
	assert.ok(doc.includes('Fixture credential guidance.'));
	assert.ok(doc.includes('How to use cli.') && doc.includes('How to use core.'));
	assert.ok(!doc.includes('On demand.'), 'SKILL.md is loaded on demand, never inlined');
});

test('an MCP server\'s instructions from the row', async (t) => {
	const p = project(t);
	const g = seed(p, 'mcp-group');
	db.json(g.id, 'mcp_servers', { tooling: { command: 'x', args: [], instructions: 'use the tooling server for builds' } });
	const doc = await compose(p, g);
	assert.ok(doc.includes('# MCP Server: tooling\n\nuse the tooling server for builds'));
});

test('the composed-at-spawn marker first, a comment and not a heading', async (t) => {
	const p = project(t);
	const doc = await compose(p, seed(p, 'marker-group'));
	assert.ok(doc.startsWith('<!-- Composed at spawn'));
	assert.notEqual(doc.split('\n').find((l) => l.startsWith('# ')), '# Composed at spawn');
});

test('nothing the agent wrote is read but its persona', async (t) => {
	const p = project(t);
	const g = seed(p, 'memory-group');
	fs.mkdirSync(path.join(dirOf(p, g), 'memory'));
	fs.writeFileSync(path.join(dirOf(p, g), 'memory/index.md'), 'must not enter the project document');
	fs.writeFileSync(path.join(dirOf(p, g), 'CLAUDE.local.md'), 'nor this');
	const doc = await compose(p, g);
	assert.ok(!doc.includes('must not enter') && !doc.includes('nor this'));
});

/* ---- the write --------------------------------------------------------- */

test('a symlink where nanoclaw\'s old temp file went is neither followed nor removed', async (t) => {
	const p = project(t);
	const g = seed(p, 'squat-group');
	const victim = path.join(p.top, 'victim.txt');
	fs.writeFileSync(victim, 'ORIGINAL');
	const squat = path.join(dirOf(p, g), `CLAUDE.md.tmp-${process.pid}`);
	fs.symlinkSync(victim, squat);
	const doc = await compose(p, g);
	assert.equal(fs.readFileSync(victim, 'utf8'), 'ORIGINAL');
	assert.ok(doc.includes('# NanoClaw Runtime Contract'));
	assert.ok(fs.lstatSync(squat).isSymbolicLink());
});

test('a directory at the old temp path does not stop the compose', async (t) => {
	const p = project(t);
	const g = seed(p, 'squat-dir-group');
	fs.mkdirSync(path.join(dirOf(p, g), `CLAUDE.md.tmp-${process.pid}`));
	assert.ok((await compose(p, g)).includes('# NanoClaw Runtime Contract'));
});

test('no temp file is left behind', async (t) => {
	const p = project(t);
	const g = seed(p, 'tmp-group');
	await compose(p, g);
	assert.deepEqual(fs.readdirSync(dirOf(p, g)).filter((f) => f.includes('.tmp-') || f.startsWith('.CLAUDE')), []);
});

/* ---- a corrupt stored selection widens to every skill, said ------------- */

for (const [label, stored] of [['null', 'null'], ['a number', '7'], ['an object', '{"welcome":true}'],
	['malformed JSON', '{not json'], ['a bare string', JSON.stringify('xx-fixture-gateway-xx')]]) {
	test(`a stored selection that is ${label}: every skill, and a warning naming the skill selection`, async (t) => {
		const p = project(t);
		const g = seed(p, `bad-skills-${seq}`);
		db.raw(g.id, 'skills', stored);
		const doc = await compose(p, g);
		assert.ok(doc.includes('# NanoClaw Skill: fixture-gateway'));
		assert.ok(calls.warn.some(([m, o]) => /skill selection/.test(m) && o && typeof o === 'object'));
	});
}

/* ---- persona ------------------------------------------------------------- */

test('the persona leads, before the runtime contract', async (t) => {
	const p = project(t);
	const g = seed(p, 'persona-group');
	persona(p, g, 'You are an SDR agent.\n');
	const doc = await compose(p, g);
	assert.ok(doc.indexOf('# Persona') > -1);
	assert.ok(doc.indexOf('# Persona') < doc.indexOf('# NanoClaw Runtime Contract'));
	assert.ok(doc.includes('You are an SDR agent.'));
});

test('the next compose overwrites the document', async (t) => {
	const p = project(t);
	const g = seed(p, 'persona-group-2');
	persona(p, g, 'first persona');
	await compose(p, g);
	persona(p, g, 'second persona');
	const doc = await compose(p, g);
	assert.ok(doc.includes('second persona') && !doc.includes('first persona'));
});

test('no persona file, no persona section', async (t) => {
	const p = project(t);
	const doc = await compose(p, seed(p, 'no-persona-group'));
	assert.ok(!doc.includes('# Persona') && doc.includes('# NanoClaw Runtime Contract'));
});

/* ---- skill selection and cli_scope ------------------------------------- */

test('a skill the group did not select is left out; the modules stay', async (t) => {
	const p = project(t);
	const g = seed(p, 'skills-off-group');
	db.json(g.id, 'skills', ['welcome']);
	const doc = await compose(p, g);
	assert.ok(!doc.includes('# NanoClaw Skill: fixture-gateway') && doc.includes('# NanoClaw Module: core'));
});

test('every shipping skill at the default selection', async (t) => {
	const p = project(t);
	assert.ok((await compose(p, seed(p, 'skills-all-group'))).includes('# NanoClaw Skill: fixture-gateway'));
});

test('scheduling and cli at the default cli_scope', async (t) => {
	const p = project(t);
	const doc = await compose(p, seed(p, 'sched-group'));
	assert.ok(doc.includes('# NanoClaw Module: scheduling') && doc.includes('# NanoClaw Module: cli'));
});

test('cli_scope disabled: neither scheduling nor cli, core kept', async (t) => {
	const p = project(t);
	const g = seed(p, 'sched-group-off');
	rows.get(g.id).cli_scope = 'disabled';
	const doc = await compose(p, g);
	assert.ok(!doc.includes('# NanoClaw Module: scheduling') && !doc.includes('# NanoClaw Module: cli'));
	assert.ok(doc.includes('# NanoClaw Module: core'));
});

/* ---- the spec ----------------------------------------------------------- */

test('without facts the canon renders as the template less its placeholder paragraph', (t) => {
	const p = project(t);
	const template = fs.readFileSync(path.join(process.cwd(), BASE_INSTRUCTIONS_PATH), 'utf8');
	assert.equal(p.src, process.cwd());
	assert.equal(template.split(MEMORY_NOTE_PLACEHOLDER).length, 2);
	assert.equal(renderBaseInstructions(template), template.replace(`\n\n${MEMORY_NOTE_PLACEHOLDER}`, ''));
	assert.ok(!renderBaseInstructions(template).includes(MEMORY_NOTE_PLACEHOLDER));
});

test('provider facts in their slots: the memory note, the native skills, the order', async (t) => {
	const p = project(t);
	const facts = {
		nativeOverrideFiles: ['AGENTS.local.md', 'AGENTS.override.md'],
		nativeSkills: { discoveryPath: '/workspace/agent/.agents/skills', sharedSource: '/app/skills',
			selfAuthoredHome: '~/.codex/skills', persistentRoots: ['~/.codex', '~/.agents'], ruleBearingInlined: true },
	};
	const doc = await compose(p, seed(p, 'facts-group'), { fileName: 'AGENTS.md', instructions: facts });
	assert.ok(doc.includes('Do not use `AGENTS.local.md` or `AGENTS.override.md` for memory.'));
	assert.ok(!doc.includes(MEMORY_NOTE_PLACEHOLDER));
	assert.ok(doc.includes('provider-native skills at `/workspace/agent/.agents/skills`'));
	assert.ok(doc.includes('`~/.codex/skills/<name>/SKILL.md`'));
	assert.ok(doc.includes('inlined as `NanoClaw Skill:` sections'));
	assert.ok(doc.indexOf('# NanoClaw Runtime Contract') < doc.indexOf('# Native Runtime Skills'));
	assert.ok(doc.indexOf('# Native Runtime Skills') < doc.indexOf('# NanoClaw Module: agents'));
	// the two texts the module exports are the composer's own
	assert.ok(doc.includes(renderBaseInstructions(CANON, facts).trim()));
	const ns = renderNativeSkillsSection(facts);
	assert.ok(doc.includes(`# ${ns.name}\n\n${ns.body}\n\n`));
	assert.equal(renderNativeSkillsSection({}), undefined);
});

test('a pre-contract spec: its base inlined as written, its sections kept', async (t) => {
	const p = project(t);
	const base = path.join(p.top, 'legacy-base.md');
	fs.writeFileSync(base, `legacy provider instructions\n\n${MEMORY_NOTE_PLACEHOLDER}\n`);
	const doc = await compose(p, seed(p, 'legacy-spec-group'), {
		fileName: 'AGENTS.md', baseDocPath: base,
		instructions: { nativeOverrideFiles: ['AGENTS.local.md'] },
		extraSections: [{ name: 'Legacy Pointer', body: '  legacy pointer text\n' }, { name: 'Empty', body: ' \n' }],
	});
	assert.ok(doc.includes(`# NanoClaw Runtime Contract\n\nlegacy provider instructions\n\n${MEMORY_NOTE_PLACEHOLDER}\n\n`));
	assert.ok(doc.includes('# Legacy Pointer\n\nlegacy pointer text\n\n# NanoClaw Module: agents'));
	assert.ok(!doc.includes('# Empty'));
	// baseDocPath null: the canon's path, as written; a relative one from the working directory
	const raw = await compose(p, seed(p, 'legacy-null-group'), { fileName: 'CLAUDE.md', baseDocPath: null });
	assert.ok(raw.includes(`\n\n${MEMORY_NOTE_PLACEHOLDER}\n\n`));
	const rel = await compose(p, seed(p, 'legacy-rel-group'), { fileName: 'CLAUDE.md', baseDocPath: '../legacy-base.md' });
	assert.ok(rel.includes('# NanoClaw Runtime Contract\n\nlegacy provider instructions'));
	// a legacy base that is missing: the usual warning, naming it
	await compose(p, seed(p, 'legacy-gone-group'), { fileName: 'CLAUDE.md', baseDocPath: 'gone.md' });
	assert.ok(calls.warn.some(([m, o]) => m === 'Project document composed without its base document' &&
		o.baseDoc === path.join(p.src, 'gone.md')));
});

test('the file the spec names; a missing canon is a warning, never a failed spawn', async (t) => {
	const p = project(t);
	const g = seed(p, 'nobase-group');
	const root = fs.mkdtempSync(path.join(p.top, 'nobase-root-'));
	fs.mkdirSync(path.join(root, 'container'));
	fs.symlinkSync(path.join(p.src, 'container/agent-runner'), path.join(root, 'container/agent-runner'));
	fs.symlinkSync(path.join(p.src, 'container/skills'), path.join(root, 'container/skills'));
	process.chdir(root);
	const doc = await compose(p, g, { fileName: 'AGENTS.md' });
	assert.ok(!doc.includes('# NanoClaw Runtime Contract') && doc.includes('# NanoClaw Module: core'));
	assert.ok(calls.warn.some(([m, o]) => m === 'Project document composed without its base document' &&
		o.file === 'AGENTS.md' && o.group === 'nobase-group'));
});

/* ---- the size cap ------------------------------------------------------- */

const bigMcp = (n) => Object.fromEntries(Array.from({ length: n },
	(_, i) => [`bloated${i}`, { command: 'x', args: [], instructions: 'B'.repeat(9000) }]));

test('past the cap the largest sections go, the core stays, the document says so', async (t) => {
	const p = project(t);
	const g = seed(p, 'cap-group');
	persona(p, g, 'PERSONA_MARKER');
	db.json(g.id, 'mcp_servers', bigMcp(4));
	const doc = await compose(p, g, { ...CLAUDE_SPEC, maxBytes: 24 * 1024 });
	assert.ok(Buffer.byteLength(doc) <= 24 * 1024);
	assert.ok(doc.includes('# Omitted for size') && doc.includes('PERSONA_MARKER'));
	assert.ok(doc.includes('# NanoClaw Runtime Contract'));
	assert.equal(calls.error.length, 1);
	const [m, o] = calls.error[0];
	assert.equal(m, 'Project document exceeded its size cap \u2014 dropped the largest instruction sections');
	assert.equal(o.maxBytes, 24 * 1024);
	assert.equal(o.bytes, Buffer.byteLength(doc));
	assert.deepEqual(o.dropped, ['MCP Server: bloated0', 'MCP Server: bloated1']);
});

test('the default spec is capped where Claude Code still loads a CLAUDE.md', () => {
	assert.equal(DEFAULT_PROJECT_DOC.maxBytes, 4 * 1024 * 1024);
	assert.equal(DEFAULT_PROJECT_DOC.fileName, 'CLAUDE.md');
});

test('a core past the cap is written whole, loudly', async (t) => {
	// maxBytes below what Claude Code loads (4 MiB) is a budget: with
	// nothing left to drop the document is written whole, as upstream
	// writes it, and the host's log says so at error level
	const p = project(t);
	const g = seed(p, 'core-over-group');
	persona(p, g, `P${'A'.repeat(40000)}`);
	const doc = await compose(p, g, { ...CLAUDE_SPEC, maxBytes: 20 * 1024 });
	assert.ok(Buffer.byteLength(doc) > 20 * 1024 && doc.includes(`P${'A'.repeat(40000)}`));
	assert.ok(!doc.includes('bytes of this section were cut'));
	assert.ok(calls.error.length >= 1);
	assert.ok(calls.warn.some(([m]) => /past its cap of 20480: written whole/.test(m)));
});

test('a core past what the runtime loads is cut to it, loudly (upstream writes it whole)', async (t) => {
	// issue 39: Claude Code skips a CLAUDE.md past 4 MiB whole, and Codex
	// cuts its document's end at maxBytes (project_doc_max_bytes): clawmd
	// cuts the largest core section (the persona) to what the runtime
	// loads and says what the agent does not see
	const p = project(t);
	const g = seed(p, 'core-over-limit');
	persona(p, g, `P${'A\n'.repeat(2200000)}`);
	const doc = await compose(p, g, { ...CLAUDE_SPEC, maxBytes: 20 * 1024 });
	assert.ok(Buffer.byteLength(doc) <= 4 * 1024 * 1024 && Buffer.byteLength(doc) > 4000000);
	assert.ok(doc.includes('# NanoClaw Runtime Contract'));
	assert.match(doc, /\[The last \d+ bytes of this section were cut to fit the project-document size cap\.\]/);
	assert.ok(calls.warn.some(([m]) => /past its cap of 4194304 with nothing left to drop: cut the last \d+ of the \d+ bytes of 'Persona'/.test(m)));
	const g2 = seed(p, 'core-over-codex');
	persona(p, g2, `P${'A'.repeat(40000)}`);
	const codex = await compose(p, g2, { fileName: 'AGENTS.md', maxBytes: 20 * 1024 });
	assert.ok(Buffer.byteLength(codex) <= 20 * 1024 && codex.includes('AAAA'));
	assert.match(codex, /\[The last \d+ bytes of this section were cut to fit the project-document size cap\.\]/);
});

test('no maxBytes: no ladder, nothing logged', async (t) => {
	const p = project(t);
	const g = seed(p, 'nocap-group');
	db.json(g.id, 'mcp_servers', bigMcp(4));
	const doc = await compose(p, g);
	assert.ok(Buffer.byteLength(doc) > 32 * 1024 && !doc.includes('# Omitted for size'));
	assert.deepEqual(calls.error, []);
	assert.deepEqual(calls.warn, []);
});

test('near the cap: a warning before anything is dropped', async (t) => {
	const p = project(t);
	const g = seed(p, 'warn-group');
	const bytes = Buffer.byteLength(await compose(p, g));
	calls.warn.length = 0;
	const cap = Math.ceil(bytes * 1.05);
	const doc = await compose(p, g, { ...CLAUDE_SPEC, maxBytes: cap });
	assert.ok(!doc.includes('# Omitted for size'));
	assert.deepEqual(calls.error, []);
	assert.deepEqual(calls.warn.map(([m, o]) => [m, o.bytes, o.maxBytes, o.warnBytes]),
		[['Project document is near its size cap', bytes, cap, Math.floor(cap - cap / 8)]]);
});

test('near the cap, at its very threshold: warned, as nanoclaw floors the threshold', async (t) => {
	const p = project(t);
	const g = seed(p, 'edge-group');
	const bytes = Buffer.byteLength(await compose(p, g));
	// a cap, not a multiple of 8, whose threshold is exactly the document
	let cap = bytes;
	while (Math.floor(cap - cap / 8) !== bytes || cap % 8 === 0) cap++;
	calls.warn.length = 0;
	await compose(p, g, { ...CLAUDE_SPEC, maxBytes: cap });
	assert.deepEqual(calls.warn.map(([m, o]) => [m, o.warnBytes]), [['Project document is near its size cap', bytes]]);
});

/* ---- the fourth argument ------------------------------------------------ */

test('runtimeSkills: the runner\'s list in place of the stored selection', async (t) => {
	const p = project(t);
	fs.mkdirSync(path.join(p.src, 'container/skills/welcome'));
	fs.writeFileSync(path.join(p.src, 'container/skills/welcome/instructions.md'), 'Welcome prose.');
	const g = seed(p, 'runtime-skills-group');
	db.json(g.id, 'skills', ['welcome']);
	// a skill the stored selection leaves out, forced in by the runner
	let doc = await compose(p, g, CLAUDE_SPEC, ['fixture-gateway']);
	assert.ok(doc.includes('# NanoClaw Skill: fixture-gateway') && !doc.includes('# NanoClaw Skill: welcome'));
	// in directory order, not the list's
	doc = await compose(p, g, CLAUDE_SPEC, ['welcome', 'fixture-gateway']);
	assert.ok(doc.indexOf('# NanoClaw Skill: fixture-gateway') < doc.indexOf('# NanoClaw Skill: welcome'));
	// [] is none; the stored selection, corrupt, is then not read (no warning)
	db.raw(g.id, 'skills', '{not json');
	doc = await compose(p, g, CLAUDE_SPEC, []);
	assert.ok(!doc.includes('# NanoClaw Skill:'));
	assert.ok(!warned(/skill selection/));
	// null or absent: the stored one, warned about
	doc = await compose(p, g, CLAUDE_SPEC, null);
	assert.ok(doc.includes('# NanoClaw Skill: welcome') && warned(/skill selection/));
	// the row's servers and cli_scope still come from the row
	db.json(g.id, 'mcp_servers', { t: { command: 'x', instructions: 'Tooling.' } });
	rows.get(g.id).cli_scope = 'disabled';
	doc = await compose(p, g, CLAUDE_SPEC, ['welcome']);
	assert.ok(doc.includes('# MCP Server: t\n\nTooling.') && !doc.includes('# NanoClaw Module: cli'));
});

test('a Promise, rejected (never thrown) for a bad host argument', async (t) => {
	const p = project(t);
	const g = seed(p, 'promise-group');
	const r = composeGroupProjectDoc(g, dirOf(p, g), CLAUDE_SPEC);
	assert.ok(r instanceof Promise);
	assert.equal((await r).file, 'CLAUDE.md');
	const bad = composeGroupProjectDoc(g, dirOf(p, g), { fileName: 'README.md' });
	assert.ok(bad instanceof Promise);
	await assert.rejects(bad, (e) => e.code === 'EUSAGE' && e.key === 'fileName');
	await assert.rejects(composeGroupProjectDoc(g, dirOf(p, g), CLAUDE_SPEC, 'fixture-gateway'),
		(e) => e.code === 'EINPUT' && e.key === 'config');
	await assert.rejects(composeGroupProjectDoc(g, dirOf(p, g), CLAUDE_SPEC, 42),
		(e) => e.code === 'EUSAGE' && e.key === 'runtimeSkills');
	// the group directory that holds the project is never a group
	await assert.rejects(composeGroupProjectDoc(g, p.src, CLAUDE_SPEC), (e) => e.code === 'EINPUT');
	assert.equal(fs.existsSync(path.join(p.src, 'CLAUDE.md')), false);
});

test('every provider spec nanoclaw ships composes: Cursor\'s dot-file override included', async (t) => {
	const p = project(t);
	const cursor = { fileName: 'AGENTS.md', instructions: {
		nativeOverrideFiles: ['.cursorrules', 'CLAUDE.md', 'CLAUDE.local.md'],
		nativeSkills: { discoveryPath: '/workspace/agent/.cursor/skills', sharedSource: '/app/skills',
			selfAuthoredHome: '~/.cursor/skills', persistentRoots: ['~/.cursor'], ruleBearingInlined: true } } };
	const doc = await compose(p, seed(p, 'cursor-group'), cursor);
	assert.ok(doc.includes('Do not use `.cursorrules` or `CLAUDE.md` or `CLAUDE.local.md` for memory.'));
	assert.ok(doc.includes('provider-native skills at `/workspace/agent/.cursor/skills`'));
	assert.ok(!doc.includes('# Omitted for size'));
	// OpenCode and Ollama: Claude's document, as their contracts inherit it
	const oc = await compose(p, seed(p, 'opencode-group'), { ...DEFAULT_PROJECT_DOC });
	assert.ok(oc.includes('# NanoClaw Runtime Contract'));
	assert.deepEqual(calls.warn, []);
});

test('configure: a bad reader or logger is the host\'s error; each call may pass its own', async (t) => {
	const p = project(t);
	assert.throws(() => configure({ getContainerConfig: 'db' }), (e) => e.code === 'EUSAGE' && e.key === 'getContainerConfig');
	assert.throws(() => configure(null), (e) => e.code === 'EUSAGE');
	const g = seed(p, 'own-log-group');
	db.raw(g.id, 'skills', '7');
	const mine = [];
	await composeGroupProjectDoc(g, dirOf(p, g), CLAUDE_SPEC, undefined, { log: { warn: (m) => mine.push(m) } });
	assert.ok(mine.some((m) => /skill selection/.test(m)) && !warned(/skill selection/));
	// a reader that returns no row: every default, as nanoclaw's composer
	configure({ getContainerConfig: () => undefined });
	t.after(() => configure({ getContainerConfig: async (id) => rows.get(id) }));
	const doc = await compose(p, g);
	assert.ok(doc.includes('# NanoClaw Skill: fixture-gateway'));
	configure({ getContainerConfig: () => 7 });
	await assert.rejects(compose(p, g), (e) => e.code === 'EUSAGE' && e.key === 'getContainerConfig');
});
