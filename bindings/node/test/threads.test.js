'use strict';
// Worker threads: the addon loads in each (context-aware); two groups
// compose in parallel; one group is serialized by its lock.
const test = require('node:test');
const assert = require('node:assert/strict');
const { spawn, spawnSync } = require('child_process');
const fs = require('fs');
const path = require('path');
const { Worker } = require('worker_threads');
const { pkg, makeRoot, read } = require('./helper.js');
const clawmd = require(pkg);

/* A worker that opens ROOT and composes GROUP n times, with a config that
 * alternates, so that every compose writes. */
const body = `
const { parentPort, workerData: w } = require('worker_threads');
const clawmd = require(w.pkg);
const h = clawmd.open(w.root);
const out = [];
for (let i = 0; i < w.n; i++) {
	try {
		const r = h.compose(w.group, { config: { skills: i % 2 ? ['alpha'] : ['beta'] } });
		out.push(r.changed);
	} catch (e) {
		out.push(e.code + ': ' + e.message);
	}
}
h.close();
parentPort.postMessage(out);
`;

function run(root, group, n) {
	return new Promise((resolve, reject) => {
		const w = new Worker(body, { eval: true, workerData: { pkg, root, group, n } });
		w.once('message', resolve);
		w.once('error', reject);
	});
}

test('two groups compose in parallel from worker threads', async (t) => {
	const root = makeRoot(t, ['one', 'two']);
	const [a, b] = await Promise.all([run(root, 'one', 20), run(root, 'two', 20)]);
	assert.deepEqual(a, Array(20).fill(true));
	assert.deepEqual(b, Array(20).fill(true));
	for (const g of ['one', 'two']) assert.match(read(root, 'groups', g, 'CLAUDE.md'), /skill-alpha/);
});

test('one group from two worker threads: serialized by its lock, never torn', async (t) => {
	const root = makeRoot(t, ['main']);
	const [a, b] = await Promise.all([run(root, 'main', 25), run(root, 'main', 25)]);
	for (const r of [...a, ...b]) assert.equal(typeof r, 'boolean', String(r));
	const entry = read(root, 'groups/main/CLAUDE.md');
	assert.match(entry, /^<!-- Composed at spawn/);
	assert.equal(/skill-alpha/.test(entry) + /skill-beta/.test(entry), 1);
	const h = clawmd.open(root);
	t.after(() => h.close());
	// whatever the last writer left, the group is consistent with it
	const skills = /skill-alpha/.test(entry) ? ['alpha'] : ['beta'];
	assert.equal(h.compose('main', { dryRun: true, config: { skills } }).changed, false);
	assert.deepEqual(fs.readdirSync(path.join(root, 'groups/main')).filter((n) => /\.tmp|clawmd-tmp/.test(n)), []);
});

test('check from two worker threads at once (libgit2 loaded once)', async (t) => {
	const root = makeRoot(t, ['one', 'two']);
	spawnSync('git', ['init', '-q', root]);
	const body2 = `
const { parentPort, workerData: w } = require('worker_threads');
const h = require(w.pkg).open(w.root);
h.compose(w.group);
parentPort.postMessage(h.check([w.group]).findings.map((f) => f.code));
h.close();
`;
	const check = (group) => new Promise((resolve, reject) => {
		const w = new Worker(body2, { eval: true, workerData: { pkg, root, group } });
		w.once('message', resolve);
		w.once('error', reject);
	});
	const [a, b] = await Promise.all([check('one'), check('two')]);
	const git = spawnSync('git', ['--version']).status === 0;
	assert.deepEqual(a, git ? ['CM403'] : []);
	assert.deepEqual(b, a);
});

test('a lock held elsewhere: ELOCK after lock_timeout, exit status 5', async (t) => {
	const root = makeRoot(t, ['main'], { lock_timeout: 0 });
	const h = clawmd.open(root);
	t.after(() => h.close());
	h.compose('main'); // creates ROOT/.clawmd/locks/main
	const lock = path.join(root, '.clawmd/locks/main');
	assert.ok(fs.existsSync(lock));
	// flock(1) holds it until its stdin closes; it says so first.
	const holder = spawn('flock', ['-x', lock, 'sh', '-c', 'echo held; read x'], { stdio: ['pipe', 'pipe', 'inherit'] });
	await new Promise((resolve) => holder.stdout.once('data', resolve));
	try {
		assert.throws(() => h.compose('main', { config: { skills: [] } }),
			(e) => e instanceof clawmd.ClawmdError && e.code === 'ELOCK' && e.exitStatus === 5);
	} finally {
		holder.stdin.end('\n');
		await new Promise((resolve) => holder.once('exit', resolve));
	}
	assert.equal(h.compose('main', { config: { skills: [] } }).changed, true);
});
