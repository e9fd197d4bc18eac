'use strict';
/*
 * tests/napi-faults.js - every method of the Node binding once, for
 * tests/t100-node-faults.sh, which runs it against the fault build of the
 * addon (BUILD/node/faults.node, bindings/node/test/napi-faults.h) with
 * each of its N-API calls failed in turn.
 *
 * Each call's outcome is checked here and what is wrong goes to stderr as
 * a "clawmd-napi-faults-bad: ..." line: a method that neither threw an
 * Error nor gave what it promises (an object with the group, an array, a
 * string, a promise).  The script goes on after a failed call, so that the
 * calls after it run too; its last line is "clawmd-napi-faults-done".
 *
 *	CLAWMD_NODE_PKG=BUILD/node/package CLAWMD_NODE_ADDON=BUILD/node/faults.node \
 *		node tests/napi-faults.js
 */
const fs = require('fs');
const os = require('os');
const path = require('path');
const util = require('util');

const pkg = process.env.CLAWMD_NODE_PKG;
const say = (s) => process.stderr.write(`clawmd-napi-faults-${s}\n`);
let tmp, root;
const write = (rel, text) => {
	fs.mkdirSync(path.dirname(path.join(tmp, rel)), { recursive: true });
	fs.writeFileSync(path.join(tmp, rel), text);
};

function fixture() {
	tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'clawmd-napi-faults-'));
	process.on('exit', () => fs.rmSync(tmp, { recursive: true, force: true }));

	/* A nanoclaw host with a legacy global group (for migrate), a codex group,
	 * the hook's memory (render's nanoclaw part), an unknown clawmd.json key
	 * (warnings), and a flat nanoclaw tree for the adapter. */
	write('r/clawmd.json', JSON.stringify({ preset: 'nanoclaw', claude_version: '2.1.330', colour: 1 }));
	write('r/container/CLAUDE.md', '# Shared base\n');
	write('r/skills/alpha/instructions.md', 'Use alpha.\n');
	write('r/container/agent-runner/src/memory/hook.ts', '// registered as SessionStart\n');
	write('r/groups/main/memory/index.md', '# Memory index\n\nThe owner prefers French.\n');
	write('r/groups/main/CLAUDE.local.md', 'Local notes.\n@./missing.md\n');
	write('r/groups/main/AGENTS.md', 'Agents notes.\n');
	write('r/groups/cx/container.json', '{"provider": "codex"}');
	write('r/groups/global/CLAUDE.md', '# Global\nBe kind.\n');
	write('r/groups/old/CLAUDE.md', '@./.claude-global.md\n\n# Old\nNotes.\n');
	fs.symlinkSync('../global/CLAUDE.md', path.join(tmp, 'r/groups/old/.claude-global.md'));
	write('n/container/CLAUDE.md', '# Canon\n\n{{provider-memory-note}}\n\nEnd.\n');
	write('n/container/skills/welcome/instructions.md', 'Welcome.\n');
	write('n/container/agent-runner/src/mcp-tools/core.instructions.md', 'Core.\n');
	fs.mkdirSync(path.join(tmp, 'n/groups'));
	root = path.join(tmp, 'r');
}

const isObj = (v) => v !== null && typeof v === 'object';
const has = (k) => (v) => isObj(v) && k in v;
const isArr = (v) => Array.isArray(v);
const isStr = (v) => typeof v === 'string';

/* fn() threw an Error or returned what want() accepts. */
function call(what, fn, want) {
	let r;
	try {
		r = fn();
	} catch (e) {
		if (!(e instanceof Error))
			say(`bad: ${what} threw ${util.inspect(e)}, not an Error`);
		return undefined;
	}
	if (!want(r)) {
		say(`bad: ${what} gave ${util.inspect(r, { depth: 1 })}`);
		return undefined;
	}
	return r;
}

/* What throws must throw an Error. */
function throws(what, fn) {
	try {
		fn();
	} catch (e) {
		if (!(e instanceof Error))
			say(`bad: ${what} threw ${util.inspect(e)}, not an Error`);
		return;
	}
	say(`bad: ${what} did not throw`);
}

async function main() {
	fixture();
	process.env.CLAWMD_NODE_PKG = pkg;
	let clawmd;
	try {
		clawmd = require(pkg);
	} catch (e) {
		if (!(e instanceof Error)) say(`bad: require threw ${util.inspect(e)}`);
		clawmd = require(pkg); // a failed load is not cached
	}
	const binding = require(process.env.CLAWMD_NODE_ADDON);
	call('validName', () => clawmd.validName('main'), (v) => v === true);
	call('validName', () => clawmd.validName('x'.repeat(70)), (v) => v === false);
	throws('setErrorClass(1)', () => binding.setErrorClass(1));
	call('setErrorClass', () => binding.setErrorClass(clawmd.ClawmdError), (v) => v === undefined);
	throws('open(missing)', () => clawmd.open(path.join(tmp, 'none')));
	throws('open(bad option)', () => clawmd.open(root, { mode: 'hardlink' }));
	const opened = () => call('open', () => clawmd.open(root, { watch: false, container: { skills: path.join(root, 'skills') }, setting_sources: ['project', 'user'] }), isObj);
	const h = opened() || opened(); // one transient failure: the second one works
	if (!h) throw new Error('no handle');
	call('root', () => h.root, isStr);
	call('groupsDir', () => h.groupsDir, isStr);
	call('warnings', () => h.warnings, (v) => isArr(v) && v.length === 1);
	call('groups', () => h.groups(), isArr);
	call('compose', () => h.compose('main'), has('group'));
	call('compose again', () => h.compose('main'), has('group'));
	call('compose dry', () => h.compose('cx', { dryRun: true }), has('group'));
	// longer than the first guess at its size: read twice
	call('compose config', () => h.compose('main', { config: { env: { A: '1'.repeat(80) } } }), has('group'));
	call('compose config text', () => h.compose('main', { config: '{"env": {"A": "2"}}' }), has('group'));
	call('compose text (the adapter\'s)', () => h[clawmd.composeText]('main', '{"env": {"A": "3"}}'), has('group'));
	call('compose text again', () => h[clawmd.composeText]('main', '{"env": {"A": "3"}}'), has('group'));
	throws('compose text(bad config)', () => h[clawmd.composeText]('main', 7));
	throws('compose(missing)', () => h.compose('none'));
	throws('compose(bad config)', () => h.compose('main', { config: 7 }));
	throws('compose(bad group)', () => h.compose(1));
	throws('compose(long group)', () => h.compose('g'.repeat(300)));
	const p = call('composeAll', () => h.composeAll(), (v) => v instanceof Promise);
	if (p) {
		try {
			const all = await p;
			if (!isArr(all) || !all.every(has('group')))
				say(`bad: composeAll resolved to ${util.inspect(all, { depth: 1 })}`);
		} catch (e) {
			if (!(e instanceof Error)) say(`bad: composeAll rejected with ${util.inspect(e)}`);
		}
	}
	call('render', () => h.render('main'), isStr);
	call('render files', () => h.render('main', { format: 'files' }), isArr);
	call('render json', () => h.render('main', { format: 'json', home: '/home/node' }), has('files'));
	call('render codex', () => h.render('cx', { format: 'json', runtime: 'codex' }), has('files'));
	throws('render(bad runtime)', () => h.render('main', { runtime: 'claud' }));
	call('check', () => h.check(), has('findings'));
	call('check given', () => h.check(['main', 'none'], { approveExternal: true }), has('failures'));
	call('status', () => h.status(), isArr);
	call('status given', () => h.status(['main', 'none']), isArr);
	call('mounts', () => h.mounts('main'), isArr);
	throws('mounts(none)', () => h.mounts('none'));
	call('migrate dry', () => h.migrate({ dryRun: true }), has('actions'));
	call('migrate', () => h.migrate(), has('actions'));
	call('close', () => h.close(), (v) => v === undefined);
	throws('compose after close', () => h.compose('main'));
	throws('root after close', () => h.root);
	throws('unwrap a stranger', () => clawmd.Handle.prototype.compose.call({}, 'main'));
	const { composeGroupProjectDoc } = require(path.join(pkg, 'nanoclaw.js'));
	process.chdir(path.join(tmp, 'n'));
	const group = { id: 'ag-1', name: 'Main', folder: 'main' };
	for (let i = 0; i < 2; i++) {
		const q = call('composeGroupProjectDoc', () => composeGroupProjectDoc(group, path.join(tmp, 'n/groups/main'),
			{ fileName: 'CLAUDE.md', maxBytes: 1 << 20 }, { mcp_servers: '{}' }), (v) => v instanceof Promise);
		if (q) {
			try {
				const r = await q;
				if (!has('group')(r)) say(`bad: composeGroupProjectDoc resolved to ${util.inspect(r, { depth: 1 })}`);
			} catch (e) {
				if (!(e instanceof Error)) say(`bad: composeGroupProjectDoc rejected with ${util.inspect(e)}`);
			}
		}
	}
	say('done');
}

/* ---- the driver --------------------------------------------------------- */

/* The function of an addon file around each line, for the calls' names. */
function functionsOf(file) {
	const names = [];
	let cur = '?';
	fs.readFileSync(file, 'utf8').split('\n').forEach((l, i) => {
		const m = /^(?:[a-z][\w *]*?[ *])?(\w+)\(/.exec(l);
		if (m && !l.endsWith(';') && !/^\s/.test(l)) cur = m[1] === 'NAPI_MODULE_INIT' ? 'init' : m[1];
		names[i + 1] = cur;
	});
	return names;
}

function run(env, timeout) {
	const { spawn } = require('child_process');
	return new Promise((resolve) => {
		const child = spawn(process.execPath, [__filename], { env: { ...process.env, ...env },
			stdio: ['ignore', 'ignore', 'pipe'] });
		let err = '';
		let hung = false;
		child.stderr.on('data', (d) => { err += d; });
		const timer = setTimeout(() => { hung = true; child.kill('SIGKILL'); }, timeout);
		child.on('close', (code, signal) => {
			clearTimeout(timer);
			resolve({ code, signal, hung, err });
		});
	});
}

/* What is wrong with a child's run, or null. */
function verdict(r, mode) {
	if (r.hung) return 'hung';
	if (r.signal) return `killed by ${r.signal}`;
	const fatal = /AddressSanitizer|LeakSanitizer|runtime error:|FATAL ERROR|Segmentation fault|napi_fatal|Assertion/.exec(r.err);
	if (fatal) return `"${fatal[0]}" on stderr`;
	if (r.code !== 0 && r.code !== 1) return `exit status ${r.code}`;
	if (!/^clawmd-napi-faults: calls=/m.test(r.err)) return 'no count at exit (it did not exit)';
	if (mode === 'from') return null; // nothing can throw either: an undefined is all there is
	// One call failed, the others work: every method threw or gave what
	// it promises, and the script went to its end; but where the call
	// that failed was a throw, or the settling of composeAll's promise
	// (nothing else can be thrown or settled: N-API settles a promise
	// once, even when that fails).
	const failed = /failed=\d+ fn=(\w+)/.exec(r.err);
	if (failed && /^napi_(throw|resolve_deferred|reject_deferred)/.test(failed[1])) return null;
	const bad = r.err.split('\n').filter((l) => l.startsWith('clawmd-napi-faults-bad:'));
	if (bad.length) return bad.join('; ');
	if (r.code !== 0) return 'threw out of the script';
	if (!/^clawmd-napi-faults-done$/m.test(r.err)) return 'did not finish';
	return null;
}

async function drive() {
	// The addon's files (bindings/node/src/addon.h), by name: the trace
	// names each call's file and line.
	const srcDir = path.resolve(__dirname, '../bindings/node/src');
	const srcs = fs.readdirSync(srcDir).filter((f) => f.endsWith('.c')).sort();
	const jobs = Number(process.env.CLAWMD_NAPI_FAULTS_JOBS) || 2;
	const timeout = 120000;
	const traceFile = path.join(os.tmpdir(), `clawmd-napi-trace-${process.pid}`);
	const clean = await run({ CLAWMD_NAPI_TRACE: traceFile }, timeout);
	const trace = fs.readFileSync(traceFile, 'utf8').trim().split('\n').map((l) => l.split(' '));
	fs.rmSync(traceFile);
	const calls = trace.length;
	const bad = verdict(clean, 'once') || (/failed=/.test(clean.err) ? 'a call failed' : null);
	let t = 0;
	const ok = (pass, what) => console.log(`${pass ? 'ok' : 'not ok'} ${++t} - ${what}`);
	// Every N-API function the addon's files call goes through the fault build's
	// macros, but the few napi-faults.h exempts.
	const header = fs.readFileSync(path.resolve(__dirname, '../bindings/node/test/napi-faults.h'), 'utf8');
	const exempt = ['napi_get_instance_data', 'napi_get_cb_info', 'napi_is_exception_pending'];
	const used = new Set(srcs.flatMap((f) =>
		fs.readFileSync(path.join(srcDir, f), 'utf8').match(/\bnapi_[a-z_0-9]+(?=\()/g) || []));
	const missing = [...used].filter((f) => !exempt.includes(f) && f !== 'napi_register_module_v1' &&
		!new RegExp(`^#define ${f}\\(`, 'm').test(header));
	ok(!missing.length, `every N-API call addon.c makes can be failed${missing.length ? `: not ${missing.join(', ')}` : ''}`);
	ok(!bad && calls > 0, `without faults: ${calls} N-API calls${bad ? `: ${bad}` : ''}`);
	if (bad) {
		console.log(clean.err.replace(/^/gm, '# '));
		console.log(`1..${t}`);
		return;
	}
	/*
	 * Which calls to fail: every one the load and the finalizers make
	 * (26 of 1613 on 2026-11-27), where a failure is likeliest (a worker
	 * terminated while it requires the addon, or at its exit), and every
	 * STRIDEth of the others (32; 64 under the sanitizers, where a node
	 * costs three times the CPU), at another offset in each mode, so that
	 * the two modes fail different calls: 75 runs a mode (50 under the
	 * sanitizers), a child node each, cheap enough for make check.  Every
	 * call fails in turn with CLAWMD_NAPI_FAULTS_ALL=1 (make node-faults:
	 * minutes).
	 */
	const functions = Object.fromEntries(srcs.map((f) => [f, functionsOf(path.join(srcDir, f))]));
	const fnOf = ([, , line, file]) => (functions[file] || [])[line] || '?';
	const san = /libasan/.test(process.env.LD_PRELOAD || '');
	const stride = Number(process.env.CLAWMD_NAPI_FAULTS_STRIDE) || (san ? 64 : 32);
	const edge = new Set(['init', 'init_failed', 'addon_finalize', 'handle_finalize']);
	const pick = (offset) => trace.map(([n]) => Number(n)).filter((n) =>
		process.env.CLAWMD_NAPI_FAULTS_ALL || edge.has(fnOf(trace[n - 1])) || /^init_/.test(fnOf(trace[n - 1])) || n % stride === offset);
	const name = (n) => `${trace[n - 1][1]} in ${fnOf(trace[n - 1])} (${trace[n - 1][3]}:${trace[n - 1][2]})`;
	for (const mode of ['from', 'once']) {
		const picked = pick(mode === 'from' ? 0 : stride >> 1);
		const failures = [];
		let next = 0;
		const worker = async () => {
			while (next < picked.length) {
				const n = picked[next++];
				const r = await run({ CLAWMD_NAPI_FAIL_AT: String(n), CLAWMD_NAPI_FAIL_MODE: mode }, timeout);
				const v = verdict(r, mode);
				if (v) failures.push({ n, v, err: r.err });
			}
		};
		await Promise.all(Array.from({ length: jobs }, worker));
		failures.sort((a, b) => a.n - b.n);
		ok(!failures.length, `${mode === 'from' ? 'from' : 'only'} the Nth call failed, for ` +
			`${picked.length} N of ${calls}: ${failures.length} went wrong`);
		for (const f of failures.slice(0, 20)) {
			console.log(`#   N=${f.n} ${name(f.n)}: ${f.v}`);
			console.log(f.err.split('\n').filter((l) => l && !l.startsWith('clawmd-napi-faults')).slice(0, 12)
				.join('\n').replace(/^/gm, '#     '));
		}
	}
	console.log(`1..${t}`);
}

if (process.argv[2] === 'drive')
	drive();
else
	main();
