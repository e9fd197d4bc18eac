'use strict';
// The binding against a hostile caller (issue 28): a getter, toJSON or
// array element that closes the handle mid-call, throwing getters, a
// polluted Object.prototype, another addon's wrapped object.  Each case
// runs in a child node, so that a crash (SIGSEGV) is a failed assertion,
// not a dead test runner.
const test = require('node:test');
const assert = require('node:assert/strict');
const { spawnSync } = require('child_process');
const fs = require('fs');
const path = require('path');
const { pkg, makeRoot, read } = require('./helper.js');

/* Run `body` (the source of a function of (clawmd, root, h, done)) in a
 * child node; it prints its result as JSON through done(). */
function child(root, body) {
	const src = `
		const clawmd = require(${JSON.stringify(pkg)});
		const root = ${JSON.stringify(root)};
		const h = clawmd.open(root);
		const done = (x) => process.stdout.write(JSON.stringify(x === undefined ? null : x));
		const err = (f) => { try { f(); return 'no throw'; } catch (e) {
			return { name: e.name, code: e.code, message: e.message, ctor: e.constructor.name }; } };
		(${body})(clawmd, root, h, done, err);`;
	const r = spawnSync(process.execPath, ['-e', src], { encoding: 'utf8', timeout: 180000 }); // minutes under valgrind (make node-valgrind)
	assert.equal(r.signal, null, `the child died of ${r.signal}: ${r.stderr}`);
	assert.equal(r.status, 0, r.stderr);
	return JSON.parse(r.stdout || 'null');
}

const closing = (h) => ({ get dryRun() { h.close(); return false; } });

test('a getter that closes the handle mid-call: a clear error, never a crash (item 1)', (t) => {
	const root = makeRoot(t);
	const out = child(root, `(clawmd, root, h, done, err) => {
		const closes = () => { const o = {}; Object.defineProperty(o, 'dryRun',
			{ enumerable: true, get() { h.close(); return false; } }); return o; };
		const r = {};
		let x = clawmd.open(root);
		const reopen = () => { x = clawmd.open(root); return x; };
		r.compose = err(() => { const y = reopen(); y.compose('main', { get dryRun() { y.close(); return false; } }); });
		r.toJSON = err(() => { const y = reopen(); y.compose('main', { config: { toJSON() { y.close(); return {}; } } }); });
		r.render = err(() => { const y = reopen(); y.render('main', { get format() { y.close(); return 'text'; } }); });
		r.check = err(() => { const y = reopen(); y.check([{ toString() { return 'main'; } }].map(() => 'main'), { get approveExternal() { y.close(); return false; } }); });
		r.checkElem = err(() => { const y = reopen(); const a = ['main']; Object.defineProperty(a, 0, { get() { y.close(); return 'main'; } }); y.check(a); });
		r.statusElem = err(() => { const y = reopen(); const a = ['main']; Object.defineProperty(a, 0, { get() { y.close(); return 'main'; } }); y.status(a); });
		r.migrate = err(() => { const y = reopen(); y.migrate({ get force() { y.close(); return false; } }); });
		const y = reopen();
		// Bad arguments throw before a promise exists, as for the others.
		Promise.resolve().then(() => y.composeAll({ get dryRun() { y.close(); return false; } })).then(
			() => { r.composeAll = 'resolved'; done(r); },
			(e) => { r.composeAll = { code: e.code, message: e.message }; done(r); });
	}`);
	for (const m of ['compose', 'toJSON', 'render', 'check', 'checkElem', 'statusElem', 'migrate', 'composeAll']) {
		assert.equal(typeof out[m], 'object', `${m}: ${JSON.stringify(out[m])}`);
		assert.equal(out[m].code, 'EUSAGE', `${m}: ${JSON.stringify(out[m])}`);
		assert.match(out[m].message, /closed/, m);
	}
	// Nothing was composed by a call whose handle was closed under it.
	assert.equal(fs.existsSync(path.join(root, 'groups/main/CLAUDE.md')), false);
});

test('a call from inside another call on the same handle throws, never deadlocks (item 1)', (t) => {
	const root = makeRoot(t);
	const out = child(root, `(clawmd, root, h, done, err) => {
		done(err(() => h.compose('main', { get dryRun() { h.compose('main'); return true; } })));
	}`);
	assert.match(out.message, /inside another call/);
});

test('open with a throwing container getter: the error, never a crash (item 2)', (t) => {
	const root = makeRoot(t);
	const out = child(root, `(clawmd, root, h, done, err) => {
		done([err(() => clawmd.open(root, { container: { get group() { throw new Error('boom'); } } })),
		      err(() => clawmd.open(root, { get mode() { throw new Error('boom2'); } })),
		      err(() => clawmd.open(root, new Proxy({}, { ownKeys() { throw new Error('boom3'); } })))]);
	}`);
	assert.deepEqual(out.map((e) => e.message), ['boom', 'boom2', 'boom3']);
});

test('a throwing getter: nothing was done (item 3)', (t) => {
	const root = makeRoot(t);
	const h0 = require(pkg).open(root);
	h0.compose('main');
	h0.close();
	fs.writeFileSync(path.join(root, 'groups/main/container.json'), '{"skills": ["beta"]}');
	const before = read(root, 'groups/main/CLAUDE.md');
	const out = child(root, `(clawmd, root, h, done, err) => {
		const boom = () => { throw new Error('boom'); };
		done([err(() => h.compose('main', { get dryRun() { boom(); } })),
		      err(() => h.compose('main', { get config() { boom(); } })),
		      err(() => h.compose('main', { config: { toJSON: boom } })),
		      err(() => h.migrate({ get force() { boom(); } })),
		      err(() => h.render('main', { get runtime() { boom(); } })),
		      err(() => h.check(['main'], { get approveExternal() { boom(); } }))]);
	}`);
	assert.deepEqual(out.map((e) => e.message), Array(6).fill('boom'));
	assert.equal(read(root, 'groups/main/CLAUDE.md'), before);
	assert.ok(fs.existsSync(path.join(root, 'groups/main/.claude-fragments/skill-alpha.md')));
});

test('options on a polluted Object.prototype take no effect (item 4)', (t) => {
	const root = makeRoot(t);
	const out = child(root, `(clawmd, root, h, done, err) => {
		Object.prototype.config = { mcpServers: { evil: { instructions: 'evil' } } };
		Object.prototype.dryRun = true;
		Object.prototype.format = 'xml';
		Object.prototype.runtime = 'nope';
		Object.prototype.home = 'relative'; // render: refused if it were read
		Object.prototype.approveExternal = 'yes';
		Object.prototype.preset = 'nope';
		Object.prototype.mode = 'hardlink';
		Object.prototype.group = 'nope';
		Object.prototype.skills = '/nope';
		Object.prototype.force = 'yes';
		Array.prototype[0] = 'main';
		const r = {};
		const y = clawmd.open(root, { container: {} });
		r.compose = y.compose('main', {}).changed;
		r.render = typeof y.render('main', {});
		// a hole, not Array.prototype[0]; the element named
		const e = err(() => y.check(['main', ,]));
		r.check = e.code + ' ' + e.message;
		r.migrate = typeof y.migrate({});
		done(r);
	}`);
	assert.deepEqual(out, { compose: true, render: 'string', check: 'EUSAGE groups[1]: expected a string, not undefined',
		migrate: 'object' });
	assert.equal(fs.existsSync(path.join(root, 'groups/main/.claude-fragments/mcp-evil.md')), false);
	assert.doesNotMatch(read(root, 'groups/main/CLAUDE.md'), /evil/);
	assert.ok(fs.existsSync(path.join(root, 'groups/main/.claude-fragments/skill-alpha.md')));
});

test("another addon's wrapped object as `this`: a TypeError (item 11)", (t) => {
	const foreign = path.join(pkg, '..', 'foreign.node');
	if (!fs.existsSync(foreign)) return t.skip(`no ${foreign} (make node builds it)`);
	const root = makeRoot(t);
	const out = child(root, `(clawmd, root, h, done, err) => {
		const f = require(${JSON.stringify(foreign)});
		const o = f.wrap(new clawmd.Handle());
		done(['compose', 'check', 'status', 'render', 'migrate', 'groups', 'close'].map((m) => err(() => h[m].call(o, 'main'))));
	}`);
	for (const e of out) {
		assert.equal(e.name, 'TypeError', JSON.stringify(e));
		assert.match(e.message, /not a clawmd handle/);
	}
});

test('a groups directory of "/" or ROOT is refused at open, naming the key', (t) => {
	const root = makeRoot(t);
	for (const groups of ['/', '.', root]) {
		let e = null;
		try {
			require(pkg).open(root, { groups });
		} catch (x) {
			e = x;
		}
		assert.ok(e, `groups ${groups}: open throws`);
		assert.match(e.message, /groups: expected a directory of group directories, not ROOT or \//);
	}
	// one above ROOT is the host's choice; the directory holding ROOT is no group
	const h = require(pkg).open(root, { groups: '..' });
	t.after(() => h.close());
	assert.throws(() => h.groups(), (e) => e.code === 'EUSAGE' && /is above ROOT/.test(e.message));
	assert.throws(() => h.compose(path.basename(root)), (e) => e.code === 'EINPUT' && /holds ROOT/.test(e.message));
});
