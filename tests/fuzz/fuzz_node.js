'use strict';
/*
 * fuzz_node.js - the Node binding's argument handling, fuzzed from JS.
 *
 *	node tests/fuzz/fuzz_node.js PKG SECONDS [SEED]
 *
 * Why not libFuzzer: what is fuzzed is what JS hands the addon (getters,
 * proxies, prototypes, toJSON, holes, huge and NUL-bearing strings), which
 * only a running V8 can make, and libFuzzer cannot host Node: node is a
 * program here, not a library a harness links.  So the fuzzer is JS, driven
 * by a seeded PRNG: every batch is a child node running BATCH iterations
 * from one seed, iteration k from seed (SEED, k) alone, so a failure
 * replays with `make fuzz-node FUZZ_NODE_TIME=0 FUZZ_NODE_SEED=SEED:K` (that
 * iteration alone, its calls listed).
 *
 * What must hold: node never dies (a signal, a sanitizer report), and every
 * call returns or throws an Error: a ClawmdError with a known code, a
 * TypeError, or what the fuzzer's own getters threw.  A root polluted with
 * Object.prototype data behaves as the clean one.  The parent reports the
 * batches, calls and seconds, and exits 1 with the seed of a failure.
 *
 * Nothing is written outside the child's scratch directory.  A generated
 * option is a layout the fuzzer, as the host, hands clawmd: a groups
 * directory of '/' or '..' is obeyed (the host is trusted), so every
 * directory in it would be composed as a group (run as root, that once put
 * a CLAUDE.md in /etc, /usr, /tmp ...).  So the paths the fuzzer generates
 * are its scratch's: ROOT lies three levels down in it (a '..' stays
 * inside), an absolute path is the scratch's `host/` (a stand-in for /, with
 * tmp/ and etc/ in it), and a random string holds no '/'.  After every
 * batch the parent checks that no file clawmd writes (CLAUDE.md,
 * .claude-fragments, .clawmd, ...) appeared or changed in /, in a
 * directory of /, in the temporary directory or in one of its directories.
 */
const { spawnSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

// Iterations a child runs: fewer for a short run (make check's smoke), so
// that it ends near the time it was given.
const BATCH = Number(process.env.CLAWMD_FUZZ_NODE_BATCH) || 300;
const [pkg, secondsArg, seedArg] = process.argv.slice(2);
if (!pkg) {
	console.error('usage: node fuzz_node.js PKG SECONDS [SEED | SEED:K]');
	process.exit(2);
}

/* xorshift32: small, seedable, the same everywhere. */
function prng(seed) {
	let x = (seed >>> 0) || 0x9e3779b9;
	const next = () => {
		x ^= x << 13;
		x >>>= 0;
		x ^= x >>> 17;
		x ^= x << 5;
		x >>>= 0;
		return x;
	};
	const r = {
		int: (n) => next() % n,
		chance: (p) => next() / 4294967296 < p,
		pick: (a) => a[next() % a.length],
	};
	return r;
}

const OPTION_KEYS = ['dryRun', 'config', 'format', 'runtime', 'home', 'approveExternal', 'force',
	'preset', 'mode', 'watch', 'container', 'groups', 'import_local', 'skills', 'base', 'group',
	'mounts', 'lock_timeout', 'setting_sources', 'claude_version', 'toJSON', '__proto__',
	'constructor', 'length', '0'];
const METHODS = ['compose', 'composeAll', 'migrate', 'render', 'mounts', 'check', 'status', 'groups', 'close'];

/* SCRATCH/a/b/root, and SCRATCH/host standing in for / (see above). */
function makeScratch() {
	const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'clawmd-fuzz-node-'));
	const root = path.join(scratch, 'a', 'b', 'root');
	const host = path.join(scratch, 'host');
	for (const d of ['tmp', 'etc', 'groups/main'])
		fs.mkdirSync(path.join(host, d), { recursive: true });
	fs.mkdirSync(path.join(root, 'container'), { recursive: true });
	fs.writeFileSync(path.join(root, 'container', 'CLAUDE.md'), '# base\n');
	fs.mkdirSync(path.join(root, 'skills', 'alpha'), { recursive: true });
	fs.writeFileSync(path.join(root, 'skills', 'alpha', 'instructions.md'), 'Use alpha.\n');
	for (const g of ['main', 'other'])
		fs.mkdirSync(path.join(root, 'groups', g), { recursive: true });
	fs.writeFileSync(path.join(root, 'groups', 'other', 'container.json'), '{"skills": ["alpha"]}');
	fs.writeFileSync(path.join(root, 'clawmd.json'), '{}');
	return { scratch, root, host };
}

/*
 * What clawmd writes, in every directory a path that escaped the scratch
 * would most likely name: signatures (inode, size, mtime) of the entries
 * that exist, 'absent' for those that do not.  Directories made after the
 * first snapshot (another test's scratch) are not looked at.
 */
const WRITTEN = ['CLAUDE.md', 'CLAUDE.local.md', '.claude-shared.md', '.claude-fragments', '.clawmd',
	'AGENTS.md', 'GEMINI.md'];
function outsideDirs() {
	const dirs = ['/', os.tmpdir()];
	for (const top of ['/', os.tmpdir()]) {
		let names = [];
		try { names = fs.readdirSync(top); } catch { /* unreadable: nothing to compare */ }
		for (const n of names) {
			const d = path.join(top, n);
			try { if (fs.lstatSync(d).isDirectory() && !n.startsWith('clawmd-fuzz-node-')) dirs.push(d); } catch { /* gone */ }
		}
	}
	return dirs;
}
function snapshot(dirs) {
	const m = new Map();
	for (const d of dirs)
		for (const n of WRITTEN) {
			const p = path.join(d, n);
			try {
				const st = fs.lstatSync(p);
				m.set(p, `${st.ino}:${st.size}:${st.mtimeMs}`);
			} catch {
				m.set(p, 'absent');
			}
		}
	return m;
}
function writtenOutside(before, dirs) {
	const after = snapshot(dirs);
	return [...before].filter(([p, sig]) => after.get(p) !== sig).map(([p]) => p);
}

class Boom extends Error {}

/* One iteration: random handles, random calls with hostile arguments. */
function iteration(clawmd, { root, host }, r, log) {
	const handles = [];
	const pending = []; // every promise a call made: each must settle as check() allows
	const open = () => {
		const opts = r.chance(0.7) ? undefined : value(2);
		const h = clawmd.open(r.chance(0.9) ? root : value(1), opts);
		handles.push(h);
		return h;
	};
	const anyHandle = () => (handles.length && r.chance(0.8) ? r.pick(handles) : null);
	const sideEffect = () => {
		const h = anyHandle();
		switch (r.int(6)) {
		case 0: if (h) h.close(); break;
		case 1: throw new Boom('boom');
		case 2:
			if (h) {
				try {
					const res = h[r.pick(METHODS)](value(1), value(1));
					if (res && typeof res.then === 'function') pending.push(res.catch(check));
				} catch (e) {
					check(e);
				}
			}
			break;
		case 3: if (h) try { void h.root; } catch (e) { check(e); } break;
		case 4: try { open(); } catch (e) { check(e); } break;
		default: break;
		}
	};
	function str() {
		switch (r.int(12)) {
		case 0: return 'main';
		case 1: return 'other';
		case 2: return 'ma\0in';
		case 3: return r.pick(['../etc', '..', '../../..', '.']);
		case 4: return '\ud800' + 'x'.repeat(r.int(5));
		case 5: return 'x'.repeat(r.chance(0.1) ? 1 << (16 + r.int(8)) : r.int(300));
		case 6: return r.pick(['text', 'json', 'files', 'claude', 'codex', 'gemini', 'opencode', 'nanoclaw', 'symlink', 'copy']);
		case 7: return r.pick([host, `${host}/`, `${host}/tmp`]); // '/', as the scratch has it
		case 8: return '{"skills": ["alpha"], "mcpServers": {"x": {"instructions": "@../CLAUDE.local.md"}}}';
		case 9: return String.fromCharCode(...Array.from({ length: r.int(20) }, () => r.int(0x10000))).replace(/\//g, '_');
		case 10: return '\0'.repeat(r.int(4) + 1);
		default: return '';
		}
	}
	function value(depth) {
		const k = r.int(depth > 0 ? 16 : 8);
		switch (k) {
		case 0: return undefined;
		case 1: return null;
		case 2: return r.chance(0.5);
		case 3: return r.pick([0, -0, 1, -1, NaN, Infinity, 2 ** 53, 1e308, 0.5, 4294967295]);
		case 4: case 5: case 6: return str();
		case 7: return r.pick([Symbol('s'), 10n, () => 1, new Date(0), /x/]);
		case 8: case 9: case 10: return object(depth - 1);
		case 11: return array(depth - 1);
		case 12: return proxy(depth - 1);
		case 13: return getterObject(depth - 1);
		case 14: { const o = object(depth - 1); Object.defineProperty(o, 'self', { value: o, enumerable: true }); return o; }
		default: return Object.create(r.chance(0.5) ? null : object(depth - 1));
		}
	}
	function object(depth) {
		const o = {};
		const n = r.int(5);
		for (let i = 0; i < n; i++)
			Object.defineProperty(o, r.pick(OPTION_KEYS), { value: value(depth), enumerable: true, configurable: true, writable: true });
		if (r.chance(0.1))
			Object.defineProperty(o, 'toJSON', { value: () => { sideEffect(); return value(depth); }, configurable: true });
		return o;
	}
	function getterObject(depth) {
		const o = {};
		const n = 1 + r.int(3);
		for (let i = 0; i < n; i++) {
			const v = value(depth);
			Object.defineProperty(o, r.pick(OPTION_KEYS), {
				enumerable: r.chance(0.8), configurable: true,
				get() { sideEffect(); return v; },
			});
		}
		return o;
	}
	function array(depth) {
		if (r.chance(0.05)) {
			const a = [];
			a.length = r.pick([4294967295, 1 << 20, 70000]);
			return a;
		}
		const a = Array.from({ length: r.int(4) }, () => (r.chance(0.8) ? str() : value(depth)));
		if (r.chance(0.2)) delete a[0];
		if (r.chance(0.2) && a.length)
			Object.defineProperty(a, r.int(a.length), { get() { sideEffect(); return 'main'; } });
		return a;
	}
	function proxy(depth) {
		const target = r.chance(0.3) ? [] : object(depth);
		const trap = () => { sideEffect(); };
		return new Proxy(target, {
			get(t, k) { trap(); return r.chance(0.5) ? Reflect.get(t, k) : value(0); },
			has(t, k) { trap(); return r.chance(0.5); },
			ownKeys(t) { trap(); return r.chance(0.5) ? Reflect.ownKeys(t) : ['dryRun', 'format', 'mode']; },
			getOwnPropertyDescriptor(t, k) {
				trap();
				const d = Reflect.getOwnPropertyDescriptor(t, k);
				return d || (r.chance(0.3) ? { value: value(0), enumerable: true, configurable: true } : undefined);
			},
		});
	}
	function check(e) {
		if (e instanceof Boom || e instanceof RangeError || e instanceof TypeError)
			return;
		if (e instanceof clawmd.ClawmdError) {
			if (!['EUSAGE', 'EINPUT', 'ELOCK', 'EFS'].includes(e.code))
				throw new Error(`a ClawmdError with code ${e.code}: ${e.message}`);
			return;
		}
		if (e instanceof Error && /Maximum call stack|Invalid string length|Converting circular/.test(e.message))
			return;
		throw new Error(`not an Error we know: ${e && e.constructor && e.constructor.name}: ${e}`);
	}
	const polluted = r.chance(0.1);
	const keys = [], values = [];
	const pollute = () => keys.forEach((k, i) => { Object.prototype[k] = values[i]; });
	const clean = () => { for (const k of keys) delete Object.prototype[k]; };
	try {
		if (polluted)
			for (let i = 0; i < 3; i++) {
				keys.push(r.pick(OPTION_KEYS.filter((x) => !['__proto__', 'constructor', 'length', 'toJSON'].includes(x))));
				values.push(value(0));
			}
		pollute();
		const ncalls = 1 + r.int(8);
		for (let i = 0; i < ncalls; i++) {
			let h;
			try {
				h = anyHandle() || open();
			} catch (e) {
				check(e);
				continue;
			}
			const m = r.pick(METHODS);
			const args = Array.from({ length: r.int(3) }, () => (r.chance(0.4) ? str() : value(2)));
			if (log) log(`${m}(${args.map((a) => typeof a).join(', ')})`);
			let target = h;
			if (r.chance(0.05)) target = r.pick([{}, new clawmd.Handle(), Object.create(clawmd.Handle.prototype)]);
			try {
				const res = h[m].apply(target, args);
				if (res && typeof res.then === 'function') pending.push(res.catch(check));
			} catch (e) {
				check(e);
			}
		}
	} finally {
		clean();
	}
	return Promise.all(pending).then(() => {
		// Polluted data on Object.prototype: a plain dry compose sees the
		// clean result.  After every composeAll settled: one still running
		// in the pool would change the group between the two.
		if (polluted) {
			const h = clawmd.open(root);
			let dirty, plain;
			pollute();
			try {
				dirty = JSON.stringify(h.compose('other', { dryRun: true }).changes);
			} catch (e) {
				dirty = `throws ${e.message}`;
			} finally {
				clean();
			}
			try {
				plain = JSON.stringify(h.compose('other', { dryRun: true }).changes);
			} catch (e) {
				plain = `throws ${e.message}`;
			}
			h.close();
			if (dirty !== plain)
				throw new Error(`Object.prototype.{${keys}} changed a dry compose: ${dirty} vs ${plain}`);
		}
		for (const h of handles) if (r.chance(0.7)) h.close();
	});
}

/* A child: BATCH iterations from `seed`, or iteration `only` alone. */
async function child(seed, only) {
	const clawmd = require(pkg);
	const scratch = makeScratch();
	const { root } = scratch;
	// open() without a root finds one from the working directory: the
	// fuzzer's own, never the checkout it was started in.
	process.chdir(root);
	let calls = 0;
	try {
		const from = only === undefined ? 0 : only, to = only === undefined ? BATCH : only + 1;
		for (let k = from; k < to; k++) {
			process.stderr.write(`\riteration ${seed}:${k}  `);
			const r = prng((seed * 2654435761 + k * 40503) >>> 0);
			await iteration(clawmd, scratch, r, only === undefined ? null : (s) => console.error(`  ${s}`));
			calls++;
			if (global.gc && k % 50 === 0) global.gc();
		}
	} finally {
		fs.rmSync(scratch.scratch, { recursive: true, force: true });
	}
	process.stdout.write(`${calls}\n`);
}

if (process.env.CLAWMD_FUZZ_NODE_CHILD) {
	const [s, k] = process.env.CLAWMD_FUZZ_NODE_CHILD.split(':');
	child(Number(s), k === undefined ? undefined : Number(k)).catch((e) => {
		console.error(`\nfuzz-node: ${e.stack}`);
		process.exit(1);
	});
} else {
	const seconds = Number(secondsArg || 0);
	let seed = seedArg ? Number(String(seedArg).split(':')[0]) : (Date.now() % 1000000);
	const first = seed;
	const only = seedArg && String(seedArg).includes(':') ? seedArg : null;
	const t0 = Date.now();
	let batches = 0, iterations = 0;
	const dirs = outsideDirs();
	const before = snapshot(dirs);
	do {
		const arg = only || String(seed);
		const r = spawnSync(process.execPath, ['--expose-gc', '--stack-size=400', __filename, pkg], {
			env: { ...process.env, CLAWMD_FUZZ_NODE_CHILD: arg, CLAWMD_FUZZ_NODE_BATCH: seconds < 60 ? '50' : '300' },
			encoding: 'utf8', maxBuffer: 64 << 20, timeout: 600000,
		});
		if (r.status !== 0) {
			console.error(`fuzz-node: FAILED at seed ${arg} (${r.signal ? `signal ${r.signal}` : `exit ${r.status}`}); ` +
				`replay one iteration with: make fuzz-node FUZZ_NODE_PKG=${pkg} FUZZ_NODE_TIME=0 FUZZ_NODE_SEED=SEED:K\n` +
				String(r.stderr).split('\r').slice(-40).join('\n'));
			process.exit(1);
		}
		const outside = writtenOutside(before, dirs);
		if (outside.length) {
			console.error(`fuzz-node: FAILED at seed ${arg}: written outside the scratch directory: ${outside.join(', ')}`);
			process.exit(1);
		}
		batches++;
		iterations += Number(r.stdout.trim()) || 0;
		seed = (seed + 1) % 4294967296;
	} while (!only && (Date.now() - t0) / 1000 < seconds);
	console.log(`fuzz-node: ok, ${batches} batches, ${iterations} iterations, ${((Date.now() - t0) / 1000).toFixed(0)}s, ` +
		`seeds ${first} to ${seed - 1}`);
}
