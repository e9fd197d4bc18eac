'use strict';
// The binding's fast paths against a careless host: the adapter's spec
// cache (composeGroupProjectDoc), the addon's handle identity cache, its
// string read with a guessed size, JSON.stringify taken at load, and
// workers terminated mid-run.  Whatever changes in the process (JSON
// replaced, handles collected) runs in a child node, so that a crash is a
// failed assertion.
const test = require('node:test');
const assert = require('node:assert/strict');
const { spawnSync } = require('child_process');
const fs = require('fs');
const path = require('path');
const { pkg, tmpdir, makeRoot } = require('./helper.js');

/* Run `body` (source of a function of (clawmd, nc, root, done, err)) in a
 * child node with --expose-gc, ROOT its working directory. */
function child(root, body, pre = '') {
	const src = `const S = JSON.stringify; ${pre}
		const clawmd = require(${JSON.stringify(pkg)});
		const nc = require(${JSON.stringify(path.join(pkg, 'nanoclaw.js'))});
		const done = (x) => process.stdout.write(S(x === undefined ? null : x));
		const err = (f) => { try { f(); return 'no throw'; } catch (e) {
			return { ctor: e.constructor.name, isError: e instanceof Error, code: e.code, message: e.message }; } };
		// the adapter's Promise: its rejection, as err() gives a throw
		const aerr = async (f) => { try { await f(); return 'no throw'; } catch (e) {
			return { ctor: e.constructor.name, isError: e instanceof Error, code: e.code, message: e.message }; } };
		Promise.resolve((${body})(clawmd, nc, ${JSON.stringify(root)}, done, err, aerr)).catch((e) => {
			process.stderr.write(String(e && e.stack)); process.exit(1); });`;
	const r = spawnSync(process.execPath, ['--expose-gc', '-e', src],
		{ cwd: root, encoding: 'utf8', timeout: 300000 });
	assert.equal(r.signal, null, `the child died of ${r.signal}: ${r.stderr}`);
	assert.equal(r.status, 0, r.stderr);
	return JSON.parse(r.stdout || 'null');
}

/* A nanoclaw tree: the canon and groups/main. */
function tree(t) {
	const root = fs.realpathSync(tmpdir(t));
	fs.mkdirSync(path.join(root, 'container'));
	fs.writeFileSync(path.join(root, 'container/CLAUDE.md'), '# Canon\n\nBe kind.\n');
	fs.mkdirSync(path.join(root, 'groups/main'), { recursive: true });
	return root;
}

const skills = { discoveryPath: '/workspace/agent/.agents/skills', sharedSource: '/app/skills',
	selfAuthoredHome: '~/.codex/skills' };

test('composeGroupProjectDoc: a spec key not enumerable, changed in place, is composed as it is now', (t) => {
	const root = tree(t);
	const out = child(root, `async (clawmd, nc, root, done, err, aerr) => {
		const dir = root + '/groups/main', g = { folder: 'main', name: 'Main' };
		const doc = () => require('fs').readFileSync(dir + '/AGENTS.md', 'utf8');
		const spec = { fileName: 'AGENTS.md', instructions: {} };
		Object.defineProperty(spec.instructions, 'nativeSkills', { value: undefined, writable: true, enumerable: false });
		await nc.composeGroupProjectDoc(g, dir, spec, null);
		const before = doc();
		spec.instructions.nativeSkills = ${JSON.stringify(skills)};
		await nc.composeGroupProjectDoc(g, dir, spec, null);
		const after = doc();
		await nc.composeGroupProjectDoc(g, dir, { fileName: 'AGENTS.md', instructions: { nativeSkills: ${JSON.stringify(skills)} } }, null);
		done({ before, after, fresh: doc() });
	}`);
	assert.notEqual(out.after, out.before, 'the changed key was not seen');
	assert.equal(out.after, out.fresh);
});

test('composeGroupProjectDoc: instructions with a toJSON, changed in place, are composed as they are now', (t) => {
	const root = tree(t);
	const out = child(root, `async (clawmd, nc, root, done, err, aerr) => {
		const dir = root + '/groups/main', g = { folder: 'main', name: 'Main' };
		const doc = () => require('fs').readFileSync(dir + '/AGENTS.md', 'utf8');
		const spec = { fileName: 'AGENTS.md', instructions: { toJSON() { return {}; } } };
		await nc.composeGroupProjectDoc(g, dir, spec, null);
		const before = doc();
		spec.instructions.nativeSkills = ${JSON.stringify(skills)};
		await nc.composeGroupProjectDoc(g, dir, spec, null);
		const after = doc();
		// and a list changed in place, element by element
		spec.instructions.nativeSkills.persistentRoots = ['~/.a'];
		await nc.composeGroupProjectDoc(g, dir, spec, null);
		const one = doc();
		spec.instructions.nativeSkills.persistentRoots[0] = '~/.b';
		await nc.composeGroupProjectDoc(g, dir, spec, null);
		done({ before, after, one, two: doc() });
	}`);
	assert.notEqual(out.after, out.before, 'the changed instructions were not seen');
	assert.match(out.one, /~\/\.a/);
	assert.match(out.two, /~\/\.b/);
	assert.doesNotMatch(out.two, /~\/\.a/);
});

test('composeGroupProjectDoc: JSON.stringify replaced after load gives two specs two files, not one', (t) => {
	const root = tree(t);
	const out = child(root, `async (clawmd, nc, root, done, err, aerr) => {
		const dir = root + '/groups/main', g = { folder: 'main', name: 'Main' };
		JSON.stringify = () => 'same';
		const a = (await nc.composeGroupProjectDoc(g, dir, { fileName: 'CLAUDE.md' }, null)).file;
		const b = (await nc.composeGroupProjectDoc(g, dir, { fileName: 'AGENTS.md' }, { mcp_servers: '{}' })).file;
		done({ a, b, files: require('fs').readdirSync(dir).filter((f) => f.endsWith('.md')).sort() });
	}`);
	assert.deepEqual([out.a, out.b], ['CLAUDE.md', 'AGENTS.md']);
	// before, the second wrote the first's CLAUDE.md and called it AGENTS.md
	assert.ok(out.files.includes('AGENTS.md'), out.files.join(' '));
});

test('composeGroupProjectDoc: throwing proxies, revoked proxies, prototype keys, a switched groupDir: an Error each', (t) => {
	const root = tree(t);
	const out = child(root, `async (clawmd, nc, root, done, err, aerr) => {
		const dir = root + '/groups/main', g = { folder: 'main', name: 'Main' };
		const spec = { fileName: 'AGENTS.md' };
		const trap = new Proxy({}, new Proxy({}, { get() { return () => { throw new Error('trap'); }; } }));
		const { proxy: dead, revoke } = Proxy.revocable({}, {}); revoke();
		const r = {};
		r.ok = await aerr(() => nc.composeGroupProjectDoc(g, dir, spec, null));
		for (const [k, p] of [['trap', trap], ['dead', dead]]) {
			r[k + 'Group'] = await aerr(() => nc.composeGroupProjectDoc(p, dir, spec, null));
			r[k + 'Spec'] = await aerr(() => nc.composeGroupProjectDoc(g, dir, p, null));
			r[k + 'Instr'] = await aerr(() => nc.composeGroupProjectDoc(g, dir, { fileName: 'AGENTS.md', instructions: p }, null));
			r[k + 'Config'] = await aerr(() => nc.composeGroupProjectDoc(g, dir, spec, p));
			r[k + 'Options'] = await aerr(() => nc.composeGroupProjectDoc(g, dir, spec, null, p));
		}
		// the cached spec's instructions swapped for a revoked proxy
		const s2 = { fileName: 'AGENTS.md', instructions: {} };
		await nc.composeGroupProjectDoc(g, dir, s2, null);
		s2.instructions = dead;
		r.deadLater = await aerr(() => nc.composeGroupProjectDoc(g, dir, s2, null));
		Object.prototype.fileName = 'AGENTS.md';
		Object.prototype.instructions = { nativeOverrideFiles: ['x'] };
		r.proto = await aerr(() => nc.composeGroupProjectDoc(g, dir, {}, null));
		delete Object.prototype.fileName; delete Object.prototype.instructions;
		// the reused handle, the group's directory given otherwise
		r.elsewhere = await aerr(() => nc.composeGroupProjectDoc(g, root, spec, null));
		r.dotdot = await aerr(() => nc.composeGroupProjectDoc(g, dir + '/../main', spec, null));
		r.escape = await aerr(() => nc.composeGroupProjectDoc({ folder: '..' }, root, spec, null));
		r.files = require('fs').readdirSync(root).sort();
		done(r);
	}`);
	assert.equal(out.ok, 'no throw');
	assert.equal(out.dotdot, 'no throw');
	for (const k of Object.keys(out).filter((k) => !['ok', 'dotdot', 'files'].includes(k))) {
		assert.equal(out[k].isError, true, `${k}: ${JSON.stringify(out[k])}`);
		assert.ok(out[k].message, k);
	}
	assert.equal(out.proto.code, 'EUSAGE');
	// ROOT given as the group's directory: the directory holding ROOT is never a group
	assert.match(out.elsewhere.message, /holds ROOT/);
	assert.match(out.escape.message, /holds ROOT/);
	assert.deepEqual(out.files, ['.clawmd', 'container', 'groups']);
});

test('handles closed and collected, foreign and unopened objects: never taken for a cached handle', (t) => {
	const foreign = path.join(pkg, '..', 'foreign.node');
	const root = makeRoot(t);
	const out = child(root, `(clawmd, nc, root, done, err) => {
		const f = ${JSON.stringify(fs.existsSync(foreign) ? foreign : null)};
		const wrap = f ? require(f).wrap : null;
		const bad = [];
		for (let i = 0; i < 200; i++) {
			let h = clawmd.open(root);
			h.compose('main', { dryRun: true });
			if (i % 3 === 0) h.close();
			h = null;
			if (i % 10 === 0) global.gc();
			const x = new clawmd.Handle();
			const e = err(() => clawmd.Handle.prototype.compose.call(x, 'main'));
			if (!e.isError || !/not a clawmd handle/.test(e.message)) bad.push(e);
			if (wrap) {
				const w = wrap(new clawmd.Handle());
				const e2 = err(() => clawmd.Handle.prototype.compose.call(w, 'main'));
				if (e2.ctor !== 'TypeError') bad.push(e2);
			}
		}
		const h = clawmd.open(root);
		h.compose('main');
		h.close();
		global.gc();
		done({ bad, closed: err(() => h.compose('main')), plain: err(() => clawmd.Handle.prototype.compose.call({}, 'main')) });
	}`);
	assert.deepEqual(out.bad, []);
	assert.match(out.closed.message, /closed/);
	assert.equal(out.plain.isError, true);
});

test('a config string around the guessed size (multibyte, surrogate pairs, lone surrogates, grown 100-fold)', (t) => {
	const root = makeRoot(t);
	const out = child(root, `(clawmd, nc, root, done, err) => {
		const h = clawmd.open(root);
		const bad = [];
		const txt = (s) => '{"env":{"X":"' + s + '"}}';
		for (let n = 40; n < 300; n++)
			for (const tail of ['\\u00e9', '\\u20ac', '\\ud83d\\ude00', '\\ud83d', '\\ude00x']) {
				const s = 'x'.repeat(n) + tail;
				const r = h.compose('main', { dryRun: true, config: txt(s) });
				if (r.group !== 'main') bad.push(n);
			}
		// the guess is the last config's length + 8: each tail made to end
		// on every byte around it, after a config of a known length
		const base = txt('y'.repeat(200));
		for (let d = -6; d <= 14; d++)
			for (const tail of ['\u00e9', '\u20ac', '\ud83d\ude00', '\ud800']) {
				h.compose('main', { dryRun: true, config: base });
				const want = Buffer.byteLength(base) + d - Buffer.byteLength(txt(tail));
				const s = 'y'.repeat(Math.max(0, want)) + tail;
				const r = h.compose('main', { dryRun: true, config: txt(s) });
				if (r.group !== 'main') bad.push([d, tail]);
			}
		// a long one after short ones, then short again; one JSON.stringify makes
		const big = h.compose('main', { dryRun: true, config: { env: { X: '\\u20ac'.repeat(200000) } } });
		const small = h.compose('main', { dryRun: true, config: '{}' });
		const nul = err(() => h.compose('main', { config: 'x'.repeat(500) + '\\u0000' }));
		done({ bad, big: big.group, small: small.group, nul });
	}`);
	assert.deepEqual(out.bad, []);
	assert.equal(out.big, 'main');
	assert.equal(out.small, 'main');
	assert.match(out.nul.message, /NUL/);
});

test('the addon keeps the JSON.stringify it loaded with; a toJSON that closes the handle: an Error', (t) => {
	const root = makeRoot(t);
	const out = child(root, `(clawmd, nc, root, done, err) => {
		const h = clawmd.open(root);
		JSON.stringify = () => { throw new Error('replaced'); };
		const r = h.compose('main', { config: { env: { A: '1' } } });
		const cycle = {}; cycle.self = cycle;
		const c = err(() => h.compose('main', { config: cycle }));
		const closing = err(() => h.compose('main', { config: { toJSON() { h.close(); return {}; } } }));
		done({ group: r.group, c, closing, after: err(() => h.compose('main')) });
	}`);
	assert.equal(out.group, 'main');
	assert.equal(out.c.isError, true);
	assert.match(out.closing.message, /closed during the call/);
	assert.match(out.after.message, /closed/);
});

test('JSON.stringify not a function when the addon loaded: a config object throws, never undefined', (t) => {
	const root = makeRoot(t);
	for (const pre of ['JSON.stringify = 5;', 'delete JSON.stringify;']) {
		const out = child(root, `(clawmd, nc, root, done, err) => {
			const h = clawmd.open(root);
			let r;
			const e = err(() => { r = h.compose('main', { config: { env: { A: '1' } } }); });
			JSON.stringify = (v) => '{}'; // one there at the call: used
			done({ e, r: r === undefined ? 'undefined' : r, later: h.compose('main', { config: {} }).group });
		}`, pre);
		assert.equal(out.e.isError, true, `${pre} ${JSON.stringify(out)}`);
		assert.match(out.e.message, /config: cannot be written as JSON/);
		assert.equal(out.later, 'main');
	}
});

test('workers composing at once, one terminated mid-run: the host lives, the others finish', async (t) => {
	const root = makeRoot(t, ['a', 'b', 'c', 'd']);
	const { Worker } = require('worker_threads');
	const src = `const { workerData: d, parentPort } = require('worker_threads');
		const clawmd = require(d.pkg);
		const h = clawmd.open(d.root);
		for (let i = 0; i < d.n; i++) h.compose(d.group, { config: { env: { I: String(i) } } });
		parentPort.postMessage(h.compose(d.group).group);`;
	const run = (group, n) => new Worker(src, { eval: true, workerData: { pkg, root, group, n } });
	const doomed = run('a', 1e9);
	const others = ['b', 'c', 'd'].map((g) => run(g, 30)).map((w) => new Promise((res, rej) => {
		w.on('message', res);
		w.on('error', rej);
		w.on('exit', (code) => rej(new Error(`a worker exited (${code}) before its answer`)));
	}));
	await new Promise((r) => setTimeout(r, 200));
	await doomed.terminate();
	const names = await Promise.all(others);
	assert.deepEqual(names, ['b', 'c', 'd']);
	// the terminated worker's group is whole: composed again from here
	const clawmd = require(pkg);
	const h = clawmd.open(root);
	assert.equal(h.compose('a').group, 'a');
	h.close();
});

test('every method: an option getter that closes the handle or throws, a proxy, Object.prototype keys, a foreign object', (t) => {
	const foreign = path.join(pkg, '..', 'foreign.node');
	const root = makeRoot(t, ['main', 'b']);
	const out = child(root, `(clawmd, nc, root, done, err) => {
		const fpath = ${JSON.stringify(fs.existsSync(foreign) ? foreign : null)};
		let h;
		const calls = {
			compose: (o) => h.compose('main', o), render: (o) => h.render('main', o),
			check: (o) => h.check(null, o), migrate: (o) => h.migrate(o), composeAll: (o) => h.composeAll(o),
			checkGroups: (o) => h.check(o), status: (o) => h.status(o),
		};
		// the keys each reads; a groups array read element by element
		const keys = { compose: ['dryRun', 'config'], render: ['format', 'approveExternal', 'home', 'runtime'],
			check: ['approveExternal'], migrate: ['dryRun', 'force'], composeAll: ['dryRun'],
			checkGroups: ['0'], status: ['0'] };
		const getter = (k, fn) => { const o = k === '0' ? [] : {};
			Object.defineProperty(o, k, { enumerable: true, get() { fn(); return k === '0' ? 'main' : undefined; } });
			return o; };
		const { proxy: dead, revoke } = Proxy.revocable({}, {}); revoke();
		const trap = new Proxy({}, new Proxy({}, { get() { return () => { throw new Error('trap'); }; } }));
		const r = {}, odd = [];
		const verdict = (name, f, want) => { const e = err(f); r[name] = e;
			if (!e.isError || (want && !want.test(e.message))) odd.push([name, e]); };
		for (const [n, f] of Object.entries(calls)) {
			for (const k of keys[n]) {
				h = clawmd.open(root);
				verdict(n + ' closes at ' + k, () => f(getter(k, () => h.close())), /closed during the call/);
				h = clawmd.open(root);
				verdict(n + ' throws at ' + k, () => f(getter(k, () => { throw new Error('getter'); })), /^getter$/);
			}
			h = clawmd.open(root);
			verdict(n + ' dead proxy', () => f(dead));
			verdict(n + ' trap proxy', () => f(trap));
			if (fpath && n !== 'checkGroups' && n !== 'status') {
				const w = require(fpath).wrap({});
				const v = f(w); // a foreign wrapped object is a plain object here
				if (v === undefined) odd.push([n + ' foreign', 'undefined']);
			}
		}
		// Object.prototype keys are no options: compose writes, render answers text
		require('fs').mkdirSync(root + '/groups/late');
		h = clawmd.open(root);
		Object.prototype.dryRun = true; Object.prototype.format = 'json'; Object.prototype.config = '{"skills": []}';
		const composed = h.compose('late', {});
		const text = h.render('late', {});
		delete Object.prototype.dryRun; delete Object.prototype.format; delete Object.prototype.config;
		done({ odd, wrote: composed.changes.some((c) => c.action === 'write'),
			text: typeof text, files: require('fs').readdirSync(root + '/groups/late').sort() });
	}`);
	assert.deepEqual(out.odd, []);
	assert.equal(out.wrote, true, 'an inherited dryRun was taken');
	assert.equal(out.text, 'string', 'an inherited format was taken');
	assert.ok(out.files.includes('.claude-fragments'), 'an inherited config dropped the skills');
});

test('composeAll then close before it settles, twenty at once: each settles with every group', (t) => {
	const root = makeRoot(t, ['a', 'b', 'c']);
	const out = child(root, `async (clawmd, nc, root, done) => {
		const h = clawmd.open(root);
		const ps = [];
		for (let i = 0; i < 20; i++) ps.push(h.composeAll({ dryRun: i % 2 === 0 }));
		h.close();
		global.gc();
		const r = await Promise.allSettled(ps);
		done(r.map((x) => x.status === 'fulfilled' ? x.value.map((g) => g.error ? 'error ' + g.error.message : g.group).join() : 'rejected ' + x.reason));
	}`);
	assert.deepEqual(out, Array(20).fill('a,b,c'));
});

test('workers terminated at startup (0-50 ms) while others compose: the host lives, every group composes after', async (t) => {
	const root = makeRoot(t, ['a', 'b']);
	const { Worker } = require('worker_threads');
	const src = `const { workerData: d, parentPort } = require('worker_threads');
		const clawmd = require(d.pkg);
		const h = clawmd.open(d.root);
		if (d.all) { h.composeAll().then((v) => parentPort.postMessage(v.length)); h.close(); }
		else for (let i = 0; i < d.n; i++) h.compose(d.group, { config: { env: { I: String(i) } } });`;
	const run = (group, n, all) => new Worker(src, { eval: true, workerData: { pkg, root, group, n, all } });
	for (let ms = 0; ms <= 50; ms += 2) {
		const ws = [run('a', 1e9), run('b', 3), run('a', 0, true)];
		await new Promise((r) => setTimeout(r, ms));
		await Promise.all(ws.map((w) => w.terminate()));
	}
	const clawmd = require(pkg);
	const h = clawmd.open(root);
	assert.deepEqual([h.compose('a').group, h.compose('b').group], ['a', 'b']);
	assert.deepEqual(h.status().map((s) => s.drift), ['clean', 'clean']);
	h.close();
});

test('composeGroupProjectDoc: config text of null, a list, a string or a number: EUSAGE naming config, never a TypeError', (t) => {
	const root = tree(t);
	let out = child(root, `async (clawmd, nc, root, done, err, aerr) => {
		const dir = root + '/groups/main', g = { folder: 'main' };
		const r = {};
		for (const c of ['null', '[1]', '"x"', '5', 'true'])
			r[JSON.stringify(c)] = await aerr(() => nc.composeGroupProjectDoc(g, dir, { fileName: 'CLAUDE.md' }, c));
		// a list is runtimeSkills (nanoclaw 2.4's fourth argument), a number neither
		const list = await aerr(() => nc.composeGroupProjectDoc(g, dir, { fileName: 'CLAUDE.md' }, []));
		const num = await aerr(() => nc.composeGroupProjectDoc(g, dir, { fileName: 'CLAUDE.md' }, 5));
		done({ r, list, num });
	}`);
	assert.equal(out.list, 'no throw');
	assert.equal(out.num.code, 'EUSAGE');
	assert.match(out.num.message, /runtimeSkills: expected a list of skill names/);
	out = out.r;
	for (const [c, e] of Object.entries(out)) {
		assert.equal(e.code, 'EUSAGE', `${c}: ${JSON.stringify(e)}`);
		assert.match(e.message, /^config: expected a container_configs row or an object, not (null|an array|string|number|boolean)$/, c);
	}
	assert.match(out['"null"'].message, /not null$/);
	assert.match(out['"[1]"'].message, /not an array$/);
});
