'use strict';
// The handle: open, compose, composeAll, migrate, render, check, status, close.
const test = require('node:test');
const assert = require('node:assert/strict');
const { spawnSync } = require('child_process');
const fs = require('fs');
const path = require('path');
const { pkg, makeRoot, read } = require('./helper.js');
const clawmd = require(pkg);
// The command runs without the LD_PRELOAD a sanitizer build gives node for
// the addon (package.test.js says why).
const cmdEnv = { ...process.env };
delete cmdEnv.LD_PRELOAD;

test('compose writes the entry, then is a no-op', (t) => {
	const root = makeRoot(t);
	const h = clawmd.open(root);
	t.after(() => h.close());
	assert.equal(h.root, fs.realpathSync(root));
	assert.deepEqual(h.groups(), ['main']);
	const r = h.compose('main');
	assert.equal(r.group, 'main');
	assert.equal(r.changed, true);
	assert.ok(r.changes.some((c) => c.action === 'write' && c.path === 'groups/main/CLAUDE.md'));
	assert.deepEqual(r.warnings, []);
	const entry = read(root, 'groups/main/CLAUDE.md');
	assert.match(entry, /^<!-- Composed at spawn/);
	assert.match(entry, /@\.\/\.claude-fragments\/skill-alpha\.md/);
	const again = h.compose('main');
	assert.equal(again.changed, false);
	assert.deepEqual(again.changes, []);
});

test('dryRun changes nothing; a config given by the host is used', (t) => {
	const root = makeRoot(t);
	const h = clawmd.open(root);
	t.after(() => h.close());
	h.compose('main');
	const before = read(root, 'groups/main/CLAUDE.md');
	const dry = h.compose('main', { dryRun: true, config: { skills: ['beta'] } });
	assert.equal(dry.changed, true);
	assert.equal(read(root, 'groups/main/CLAUDE.md'), before);
	h.compose('main', { config: '{"skills": ["beta"]}' });
	const after = read(root, 'groups/main/CLAUDE.md');
	assert.match(after, /skill-beta/);
	assert.doesNotMatch(after, /skill-alpha/);
	h.compose('main', { config: { skills: ['alpha'], mcpServers: { docs: { instructions: 'Read the docs.' } } } });
	assert.match(read(root, 'groups/main/CLAUDE.md'), /mcp-docs\.md/);
	assert.equal(read(root, 'groups/main/.claude-fragments/mcp-docs.md').trim(), 'Read the docs.');
});

test('a config given again: its bytes, parsed once, still plan every compose that is no no-op', (t) => {
	const root = makeRoot(t);
	const h = clawmd.open(root, { watch: true });
	t.after(() => h.close());
	const cfg = '{"skills": ["beta"], "mcpServers": {"docs": {"instructions": "Read the docs."}}}';
	h.compose('main', { config: cfg });
	assert.equal(h.compose('main', { config: cfg }).changed, false); // the no-op parses nothing
	// The group changes under the same config: the plan asks for it, parsed then.
	fs.rmSync(path.join(root, 'groups/main/.claude-fragments'), { recursive: true });
	const again = h.compose('main', { config: cfg });
	assert.equal(again.changed, true);
	assert.match(read(root, 'groups/main/CLAUDE.md'), /skill-beta[\s\S]*mcp-docs/);
	assert.equal(read(root, 'groups/main/.claude-fragments/mcp-docs.md').trim(), 'Read the docs.');
	assert.equal(h.compose('main', { dryRun: true, config: cfg }).changed, false);
	// Bytes that failed are never taken as known: the same error every time.
	for (let i = 0; i < 3; i++)
		assert.throws(() => h.compose('main', { config: '{"skills": ["../x"]}' }),
			(e) => e instanceof clawmd.ClawmdError && e.code === 'EINPUT' && e.key === 'skills[0]');
	// Another group given the same bytes gets its own messages' paths.
	fs.mkdirSync(path.join(root, 'groups/other'));
	h.compose('other', { config: cfg });
	assert.match(read(root, 'groups/other/CLAUDE.md'), /skill-beta/);
});

test('open: layout options as clawmd.json names them', (t) => {
	const root = makeRoot(t);
	const h = clawmd.open(root, { mode: 'symlink', container: { skills: '/opt/skills' }, import_local: true });
	t.after(() => h.close());
	h.compose('main');
	assert.equal(fs.readlinkSync(path.join(root, 'groups/main/.claude-fragments/skill-alpha.md')),
		'/opt/skills/alpha/instructions.md');
	assert.match(read(root, 'groups/main/CLAUDE.md'), /@\.\/CLAUDE\.local\.md/);
	assert.throws(() => clawmd.open(root, { mode: 'hardlink' }),
		(e) => e instanceof clawmd.ClawmdError && e.code === 'EUSAGE' && e.exitStatus === 2 && e.key === 'mode');
	assert.throws(() => clawmd.open(root, { grups: 'x' }), (e) => e.code === 'EUSAGE' && e.key === 'grups');
	assert.throws(() => clawmd.open(root, { watch: 'yes' }), (e) => e.code === 'EUSAGE' && e.key === 'watch');
	assert.throws(() => clawmd.open(root, 5), (e) => e.code === 'EUSAGE');
	assert.throws(() => clawmd.open(path.join(root, 'nope')), (e) => e instanceof clawmd.ClawmdError);
});

test('errors: codes, exit statuses, path and key', (t) => {
	const root = makeRoot(t);
	const h = clawmd.open(root);
	t.after(() => h.close());
	const is = (code, exitStatus, extra = () => true) => (e) =>
		e instanceof clawmd.ClawmdError && e instanceof Error && e.name === 'ClawmdError' &&
		e.code === code && e.exitStatus === exitStatus && extra(e);
	assert.throws(() => h.compose('../etc'), is('EINPUT', 3));
	assert.throws(() => h.compose('ma\0in'), is('EINPUT', 3, (e) => /NUL/.test(e.message)));
	assert.throws(() => h.compose('absent'), is('EFS', 4, (e) => e.path === path.join(h.groupsDir, 'absent')));
	assert.throws(() => h.compose('main', { config: { skills: ['../x'] } }),
		is('EINPUT', 3, (e) => e.key === 'skills[0]' && /given by the host/.test(e.message)));
	assert.throws(() => h.compose('main', { config: '{' }), is('EINPUT', 3));
	fs.writeFileSync(path.join(root, 'groups/main/container.json'), '{"skills": 7}');
	assert.throws(() => h.compose('main'), is('EINPUT', 3, (e) => e.key === 'skills'));
	fs.unlinkSync(path.join(root, 'groups/main/container.json'));
	// A directory of the test's own, outside the groups: a shared one such
	// as /tmp may hold a CLAUDE.md another run left, and proves nothing.
	const outside = path.join(root, 'outside');
	fs.mkdirSync(outside);
	fs.symlinkSync(outside, path.join(root, 'groups/linked'));
	assert.throws(() => h.compose('linked'), is('EFS', 4));
	assert.deepEqual(fs.readdirSync(outside), []);
});

test('wrong argument types, a closed handle, a foreign this: all throw', (t) => {
	const root = makeRoot(t);
	const h = clawmd.open(root);
	const usage = (e) => e instanceof clawmd.ClawmdError && e.code === 'EUSAGE' && e.exitStatus === 2;
	assert.throws(() => h.compose(), usage);
	assert.throws(() => h.compose(42), usage);
	assert.throws(() => h.compose({}), usage);
	assert.throws(() => h.compose('main', 'dry'), usage);
	assert.throws(() => h.compose('main', { dryRun: 1 }), usage);
	assert.throws(() => h.compose('main', { config: 12 }), usage);
	const cyclic = {};
	cyclic.self = cyclic;
	assert.throws(() => h.compose('main', { config: cyclic }), TypeError);
	assert.throws(() => h.check('main'), usage);
	assert.throws(() => h.check([1]), usage);
	assert.throws(() => h.status({}), usage);
	assert.throws(() => h.render('main', { format: 'xml' }), usage);
	assert.throws(() => h.render('main', { format: 3 }), usage);
	assert.throws(() => h.migrate(true), usage);
	// A method on a foreign object: V8's own receiver check (a TypeError).
	assert.throws(() => h.compose.call({}, 'main'), TypeError);
	assert.throws(() => h.compose.call(undefined, 'main'), TypeError);
	assert.throws(() => new clawmd.Handle().compose('main'), usage);
	h.close();
	h.close();
	for (const m of ['compose', 'migrate', 'render', 'check', 'status', 'groups'])
		assert.throws(() => h[m]('main'), (e) => usage(e) && /closed/.test(e.message), m);
	assert.throws(() => h.root, usage);
	assert.rejects(async () => h.composeAll(), usage);
});

test('a group deleted between calls, and mid-life of the handle, throws', (t) => {
	const root = makeRoot(t, ['main', 'gone']);
	const h = clawmd.open(root, { watch: true });
	t.after(() => h.close());
	h.compose('gone');
	h.compose('gone');
	h.compose('gone'); // the watched pass now answers from inotify
	fs.rmSync(path.join(root, 'groups/gone'), { recursive: true });
	assert.throws(() => h.compose('gone'), (e) => e.code === 'EFS' && e.exitStatus === 4);
	assert.throws(() => h.render('gone'), (e) => e.code === 'EFS');
	const st = h.status(['gone', 'main']);
	assert.equal(st[0].drift, 'unreadable');
	assert.equal(st[0].error.code, 'EFS');
	assert.equal(st[1].drift, 'never composed');
});

test('watch: a no-op is still seen changed after an edit', (t) => {
	const root = makeRoot(t);
	const h = clawmd.open(root, { watch: true });
	t.after(() => h.close());
	h.compose('main');
	assert.equal(h.compose('main').changed, false);
	assert.equal(h.compose('main').changed, false);
	fs.writeFileSync(path.join(root, 'skills/alpha/instructions.md'), 'Use alpha, carefully.\n');
	assert.equal(h.compose('main').changed, true);
	assert.equal(read(root, 'groups/main/.claude-fragments/skill-alpha.md'), 'Use alpha, carefully.\n');
	fs.writeFileSync(path.join(root, 'groups/main/CLAUDE.md'), 'hand edit\n');
	const r = h.compose('main');
	assert.ok(r.changes.some((c) => c.action === 'preserve'));
	assert.ok(r.warnings.some((w) => /was not written by clawmd/.test(w)));
	assert.match(read(root, 'groups/main/CLAUDE.local.md'), /hand edit/);
});

test('compose: every warning the command prints, in its words', (t) => {
	const root = makeRoot(t);
	fs.writeFileSync(path.join(root, 'groups/main/container.json'),
		'{"skills": ["alpha", "nope"], "mcpServers": {"s": {"instructions": "See @./x.md."}}}\n');
	const h = clawmd.open(root);
	t.after(() => h.close());
	const r = h.compose('main');
	assert.ok(r.warnings.some((w) => /unknown skill 'nope'/.test(w)), r.warnings.join('\n'));
	assert.ok(r.warnings.includes('groups/main: defused 1 @ directive(s) in inline MCP ' +
		"instructions or the persona (they load as text; 'clawmd check' lists them)"), r.warnings.join('\n'));
	// The command's --json and stderr hold the same list.
	const cli = spawnSync(path.join(pkg, 'bin/clawmd'),
		['-C', '.', 'compose', '--json', 'main'], { cwd: root, env: cmdEnv, encoding: 'utf8' });
	assert.equal(cli.status, 0, cli.stderr);
	const doc = JSON.parse(cli.stdout);
	assert.deepEqual(doc.groups[0].warnings, h.compose('main').warnings);
	assert.deepEqual(cli.stderr.trim().split('\n'), doc.groups[0].warnings.map((w) => `clawmd: warning: ${w}`));
});

test('compose: a no-op says its warnings again, in a list of its own each time', (t) => {
	const root = makeRoot(t);
	fs.writeFileSync(path.join(root, 'groups/main/container.json'),
		'{"mcpServers": {"s": {"instructions": "See @./x.md."}}}\n');
	const h = clawmd.open(root, { watch: true });
	t.after(() => h.close());
	const first = h.compose('main').warnings;
	const said = [...first];
	assert.equal(said.length, 1, said.join('\n'));
	const a = h.compose('main'), b = h.compose('main');
	assert.deepEqual(a.warnings, said);
	// the handle keeps the last list: one result changed changes no other
	a.warnings.push('the host\'s own');
	a.warnings[0] = 'changed';
	assert.notEqual(a.warnings, b.warnings);
	assert.deepEqual(b.warnings, said);
	assert.deepEqual(h.compose('main').warnings, said);
	// a list that differs is said as it is, and then kept in its place
	fs.writeFileSync(path.join(root, 'groups/main/container.json'),
		'{"mcpServers": {"s": {"instructions": "See @./x.md and @./y.md."}}}\n');
	assert.match(h.compose('main').warnings.join('\n'), /defused 2 @ directive/);
	assert.match(h.compose('main').warnings.join('\n'), /defused 2 @ directive/);
	fs.writeFileSync(path.join(root, 'groups/main/container.json'), '{}\n');
	h.compose('main');
	assert.deepEqual(h.compose('main').warnings, []);
});

test('compose: no-ops of two groups in turn each answer for their own group', (t) => {
	const root = makeRoot(t, ['main', 'other']);
	fs.writeFileSync(path.join(root, 'groups/other/container.json'),
		'{"mcpServers": {"s": {"instructions": "See @./x.md."}}}\n');
	const h = clawmd.open(root, { watch: true });
	t.after(() => h.close());
	h.compose('main');
	h.compose('other');
	for (let i = 0; i < 4; i++) {
		const a = h.compose('main'), b = h.compose('other');
		assert.deepEqual([a.group, a.path, a.changed, a.warnings], ['main', 'groups/main', false, []]);
		assert.deepEqual([b.group, b.path, b.changed, b.warnings.length], ['other', 'groups/other', false, 1]);
		a.group = 'changed by the host';
	}
	assert.equal(h.compose('main').group, 'main');
});

test('the adapter\'s compose: a symbol-keyed method, no API beside compose()', (t) => {
	const root = makeRoot(t);
	const h = clawmd.open(root);
	t.after(() => h.close());
	assert.equal(typeof clawmd.composeText, 'symbol');
	assert.ok(!Object.keys(clawmd).includes('composeText'));
	assert.equal(Object.getOwnPropertyDescriptor(Object.getPrototypeOf(h), clawmd.composeText).enumerable, false);
	const cfg = '{"skills": ["beta"]}';
	const a = h[clawmd.composeText]('main', cfg);
	assert.equal(a.changed, true);
	assert.match(read(root, 'groups/main/CLAUDE.md'), /skill-beta/);
	assert.deepEqual(h[clawmd.composeText]('main', cfg), h.compose('main', { config: cfg }));
	assert.throws(() => h[clawmd.composeText]('main', { skills: [] }), (e) => e.key === 'config');
	assert.throws(() => h[clawmd.composeText]('main'), (e) => e.key === 'config');
	h.close();
	assert.throws(() => h[clawmd.composeText]('main', cfg), /closed/);
});

test('composeAll: every group, off the main thread, errors per group', async (t) => {
	const groups = Array.from({ length: 40 }, (_, i) => `g${String(i).padStart(2, '0')}`);
	const root = makeRoot(t, groups);
	fs.writeFileSync(path.join(root, 'groups/g07/container.json'), '{"skills": "some"}');
	const h = clawmd.open(root);
	t.after(() => h.close());
	const pending = h.composeAll();
	assert.ok(pending instanceof Promise);
	const all = await pending;
	assert.equal(all.length, 40);
	assert.deepEqual(all.map((r) => r.group), groups);
	assert.equal(all[7].error.code, 'EINPUT');
	assert.equal(all.filter((r) => r.changed).length, 39);
	assert.ok(fs.existsSync(path.join(root, 'groups/g39/CLAUDE.md')));
	const dry = await h.composeAll({ dryRun: true });
	assert.equal(dry.filter((r) => r.changed).length, 0);
	// close() while one runs: the work finishes, then the root is released
	const p = h.composeAll();
	h.close();
	assert.equal((await p).length, 40);
	assert.throws(() => h.compose('g01'), /closed/);
});

test('composeAll: results that reach JS in several slices come whole and in order', async (t) => {
	// 300 first composes make about 2,000 changes: four slices of the addon's 512.
	const groups = Array.from({ length: 300 }, (_, i) => `g${String(i).padStart(3, '0')}`);
	const root = makeRoot(t, groups);
	fs.writeFileSync(path.join(root, 'groups/g250/container.json'), '{"skills": "some"}');
	const h = clawmd.open(root);
	t.after(() => h.close());
	const all = await h.composeAll();
	assert.deepEqual(all.map((r) => r.group), groups);
	assert.ok(all.reduce((n, r) => n + (r.changes ? r.changes.length : 0), 0) > 1024);
	for (const r of all) {
		if (r.group === 'g250') {
			assert.equal(r.error.code, 'EINPUT');
			continue;
		}
		assert.equal(r.changed, true);
		assert.ok(r.changes.some((c) => c.path === `groups/${r.group}/CLAUDE.md`), r.group);
	}
	// closed while the slices are still on their way: they all arrive
	const p = h.composeAll({ dryRun: true });
	h.close();
	assert.equal((await p).length, 300);
	assert.throws(() => h.groups(), /closed/);
});

test('migrate: the legacy layout cut over, then a no-op', (t) => {
	const root = makeRoot(t, ['main', 'global']);
	fs.writeFileSync(path.join(root, 'groups/global/CLAUDE.md'), '# Global\nBe kind.\n');
	fs.writeFileSync(path.join(root, 'groups/main/CLAUDE.md'), '@./.claude-global.md\n\n# Main\nNotes.\n');
	fs.symlinkSync('../global/CLAUDE.md', path.join(root, 'groups/main/.claude-global.md'));
	const h = clawmd.open(root);
	t.after(() => h.close());
	const dry = h.migrate({ dryRun: true });
	assert.equal(dry.dryRun, true);
	assert.ok(fs.existsSync(path.join(root, 'groups/global')));
	const res = h.migrate();
	assert.equal(res.alreadyMigrated, false);
	assert.deepEqual(res.failed, []);
	assert.ok(res.actions.some((a) => a.action === 'remove-link' && a.group === 'main'));
	assert.match(read(root, 'groups/main/CLAUDE.local.md'), /# Main/);
	assert.doesNotMatch(read(root, 'groups/main/CLAUDE.local.md'), /claude-global/);
	assert.match(read(root, 'container/CLAUDE.md'), /Be kind\./);
	assert.equal(fs.existsSync(path.join(root, 'groups/global')), false);
	assert.equal(h.migrate().alreadyMigrated, true);
});

test('render, check and status read the group as its container does', (t) => {
	const root = makeRoot(t, ['main']);
	const h = clawmd.open(root);
	t.after(() => h.close());
	h.compose('main');
	const text = h.render('main');
	assert.match(text, /Contents of \/workspace\/agent\/CLAUDE\.md/);
	assert.match(text, /# Shared base/);
	const files = h.render('main', { format: 'files' });
	assert.deepEqual(files[0], { type: 'Project', path: '/workspace/agent/CLAUDE.md', parent: null });
	const json = h.render('main', { format: 'json' });
	assert.equal(json.cwd, '/workspace/agent');
	assert.ok(json.imports.every((i) => i.status === 'loaded'));
	assert.ok(json.files.every((f) => typeof f.tokens === 'number'));

	let c = h.check();
	assert.deepEqual(c.failures, []);
	assert.equal(c.errors, 0);
	fs.writeFileSync(path.join(root, 'groups/main/CLAUDE.md'), 'hand edit\n@./nowhere.md\n');
	c = h.check(['main', 'absent']);
	assert.ok(c.findings.length > 0);
	const f = c.findings[0];
	for (const k of ['code', 'name', 'severity', 'group', 'file', 'line', 'column', 'message', 'hint'])
		assert.ok(k in f, k);
	assert.ok(c.findings.some((x) => x.code === 'CM101' && x.file === 'groups/main/nowhere.md' || x.code === 'CM101'));
	assert.equal(c.failures.length, 1);
	assert.equal(c.failures[0].group, 'absent');
	assert.equal(c.failures[0].error.exitStatus, 4);
	const st = h.status();
	assert.equal(st[0].group, 'main');
	assert.equal(st[0].drift, 'hand-edited');
	assert.ok(st[0].tokens > 0);
});

test('ESM: import clawmd and clawmd/nanoclaw', async () => {
	const m = await import(path.join(pkg, 'index.mjs'));
	assert.equal(typeof m.open, 'function');
	assert.equal(m.default.ClawmdError, m.ClawmdError);
	assert.equal(m.ClawmdError, clawmd.ClawmdError);
	const n = await import(path.join(pkg, 'nanoclaw.mjs'));
	assert.equal(typeof n.composeGroupClaudeMd, 'function');
	assert.equal(typeof n.migrateGroupsToClaudeLocal, 'function');
});

test('handle.warnings: clawmd.json\'s, as every command prints them', (t) => {
	const root = makeRoot(t, ['main'], { colour: 'blue', mode: 'copy' });
	const h = clawmd.open(root);
	t.after(() => h.close());
	assert.equal(h.warnings.length, 1);
	assert.match(h.warnings[0], /colour/);
	const cli = spawnSync(path.join(pkg, 'bin/clawmd'), ['-C', '.', 'compose', 'main'],
		{ cwd: root, env: cmdEnv, encoding: 'utf8' });
	assert.equal(cli.status, 0, cli.stderr);
	assert.deepEqual(cli.stderr.trim().split('\n'), h.warnings.map((w) => `clawmd: warning: ${w}`));
	const plain = clawmd.open(makeRoot(t));
	t.after(() => plain.close());
	assert.deepEqual(plain.warnings, []);
});

test('migrate: every warning the command prints, in its words', { skip: spawnSync('git', ['--version']).status !== 0 && 'no git' }, (t) => {
	const roots = [makeRoot(t, ['main']), makeRoot(t, ['main'])];
	for (const r of roots) spawnSync('git', ['init', '-q', r]);
	const h = clawmd.open(roots[0]);
	t.after(() => h.close());
	const r = h.migrate();
	assert.ok(r.warnings.some((w) => /CLAUDE\.local\.md files are not ignored by git/.test(w)),
		JSON.stringify(r.warnings));
	const cli = spawnSync(path.join(pkg, 'bin/clawmd'),
		['-C', roots[1], 'migrate'], { env: cmdEnv, encoding: 'utf8' });
	assert.equal(cli.status, 0, cli.stderr);
	const said = cli.stderr.split('\n').filter((l) => l.startsWith('clawmd: warning: '));
	assert.deepEqual(said, r.warnings.map((w) => `clawmd: warning: ${w.replaceAll(roots[0], roots[1])}`));
});

test('the libraries the library loads on first use load inside the addon (libgit2, md4c, cJSON)', { skip: spawnSync('git', ['--version']).status !== 0 && 'no git' }, (t) => {
	const root = makeRoot(t, ['main']);
	spawnSync('git', ['init', '-q', root]);
	const h = clawmd.open(root);
	t.after(() => h.close());
	h.compose('main', { config: { skills: ['alpha'] } }); // cJSON: the host's config
	assert.match(h.render('main'), /Use alpha\./); // md4c: the import scan
	const c = h.check(['main']); // libgit2: is CLAUDE.local.md ignored?
	assert.ok(c.findings.some((f) => f.code === 'CM403'), JSON.stringify(c.findings));
	fs.writeFileSync(path.join(root, '.gitignore'), 'CLAUDE.local.md\n');
	assert.equal(h.check(['main']).findings.some((f) => f.code === 'CM403'), false);
});

test('mounts: what the runner binds, as clawmd mounts --json lists it', (t) => {
	const root = makeRoot(t);
	const h = clawmd.open(root);
	t.after(() => h.close());
	const before = h.mounts('main');
	assert.equal(before.find((m) => m.what === 'entry').present, false);
	h.compose('main');
	const m = h.mounts('main');
	const g = path.join(h.groupsDir, 'main');
	assert.deepEqual(m.map((x) => [x.what, x.container, x.readonly, x.type, x.sub]), [
		['group', '/workspace/agent', false, 'directory', ''],
		['fragments', '/workspace/agent/.claude-fragments', true, 'directory', '.claude-fragments'],
		['shared', '/workspace/agent/.claude-shared.md', true, 'file', '.claude-shared.md'],
		['entry', '/workspace/agent/CLAUDE.md', true, 'file', 'CLAUDE.md'],
		['source', '/app/CLAUDE.md', true, 'file', 'container/CLAUDE.md'],
		['source', '/app/skills', true, 'directory', 'skills'],
	]);
	assert.equal(m[0].host, g);
	assert.ok(m.every((x) => x.present));
	const cli = spawnSync(path.join(pkg, 'bin', 'clawmd'), ['mounts', '-C', root, '--json', 'main'], { encoding: 'utf8' });
	// the JSON's keys are snake_case, the binding's camelCase
	const camel = ({ short_form: shortForm, ...x }) => ({ ...x, shortForm });
	if (cli.status === 0) assert.deepEqual(JSON.parse(cli.stdout).mounts.map(camel), m);
	assert.throws(() => h.mounts('../x'), (e) => e.code === 'EINPUT');
	assert.throws(() => h.mounts('nope'), (e) => e.code === 'EFS');
	assert.throws(() => h.mounts(1), (e) => e.code === 'EUSAGE');
	assert.ok(m.every((x) => x.shortForm === true));
});

test('mounts: a ROOT that docker -v cannot say is flagged (issue 39 item 9)', (t) => {
	// nanoclaw builds -v HOST:CONTAINER:ro from the paths: a ':' or ','
	// in ROOT would split them elsewhere, a line separator break the line
	for (const bad of ['a:b', 'a,b', 'a\u2028b']) {
		const parent = makeRoot(t);
		const root = path.join(parent, bad);
		fs.mkdirSync(root);
		for (const f of ['container', 'skills', 'groups', 'clawmd.json'])
			fs.renameSync(path.join(parent, f), path.join(root, f));
		const h = clawmd.open(root);
		t.after(() => h.close());
		h.compose('main');
		const m = h.mounts('main');
		assert.ok(m.every((x) => x.shortForm === false || !x.host.startsWith(root)), bad);
		assert.equal(m[0].shortForm, false, bad);
	}
});
