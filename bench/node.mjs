/*
 * node.mjs - the speed figures of the Node package (issue 19, part 4), run
 * by scripts/bench-node.sh, which builds the trees and prints the header.
 * Each mode prints its lines of the table; CLAWMD_NODE_PKG names the
 * staged package (build/node/package).
 *
 *	node bench/node.mjs noop ROOT GROUP N
 *		a watched handle's no-op compose of GROUP against the least a JS
 *		composer does for a no-op (read and parse container.json, read
 *		CLAUDE.md), N calls each, interleaved, in this one process
 *	node bench/node.mjs count ROOT GROUP N clawmd|baseline
 *		the warm-up, then N calls of one side only, printing nothing: run
 *		under callgrind at two N, the difference is the cost of a call
 *	node bench/node.mjs first ROOT CONFIG N [PEER]
 *		the first compose of N fresh groups each (CONFIG: their
 *		container.json), in-process, nanoclaw's layout; with PEER (a
 *		nanoclaw checkout with its npm dependencies) nanoclaw's own
 *		composer beside it, loaded from PEER at run time
 *	node bench/node.mjs flat ROOT CONFIG N [PEER]
 *		nanoclaw as it is now (its pull request 3536 on): the first compose
 *		of N fresh groups through clawmd/nanoclaw's composeGroupProjectDoc,
 *		with PEER (a checkout with src/project-doc-compose.ts) nanoclaw's
 *		composer of that name beside it, interleaved, and whether the two
 *		wrote the same bytes; then the adapter's no-op (its watched handle)
 *		and the library's no-op of the same document on a plain handle
 *	node bench/node.mjs flatcount ROOT CONFIG N adapter|plain
 *		the no-ops of `flat` one side alone, after the warm-up, printing
 *		nothing: the adapter's (a row as nanoclaw's database returns it)
 *		or the plain handle's (the config as text), for callgrind at two
 *		N as `count`; with CLAWMD_BENCH_MARK set, one call more between
 *		two marks for a trace (the floor, scripts/bench-node.sh)
 *	node bench/node.mjs loop ROOT
 *		the event loop's delay while composeAll() runs over every group
 *		of ROOT, beside the same loop idle
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const require = createRequire(import.meta.url);
const pkg = process.env.CLAWMD_NODE_PKG || new URL('../build/node/package', import.meta.url).pathname;
const clawmd = require(pkg);

const now = () => Number(process.hrtime.bigint()) / 1e3; // microseconds
const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
const sorted = (v) => Float64Array.from(v).sort();
const pct = (s, p) => s[Math.min(s.length - 1, Math.floor(s.length * p))];
const us = (x) => x.toFixed(1).padStart(7);
const NOOP = Number(process.env.NODE_CALLS || 5000);

/* What any JS composer must do before it can call a compose a no-op. */
function baseline(dir) {
	const cj = path.join(dir, 'container.json');
	const entry = path.join(dir, 'CLAUDE.md');
	return () => {
		const config = JSON.parse(fs.readFileSync(cj, 'utf8'));
		const text = fs.readFileSync(entry, 'utf8');
		return config.mcpServers !== undefined && text.length > 0;
	};
}

/* A watched handle whose record of the last verified no-op exists: the
 * record keeps only inputs older than the compose that writes it, so let
 * the first compose's writes age (as bench/compose.c does). */
function watched(root, group) {
	const h = clawmd.open(root, { watch: true });
	for (let i = 0; i < 20; i++) {
		h.compose(group);
		sleep(20);
	}
	if (h.compose(group).changed) throw new Error(`bench: ${group} is not a no-op`);
	return h;
}

function noop(root, group, n) {
	const h = watched(root, group);
	const base = baseline(path.join(h.groupsDir, group));
	const a = [], b = [];
	for (let i = 0; i < 200; i++) { h.compose(group); base(); } // JIT warm-up
	for (let i = 0; i < n; i++) {
		let t = now();
		h.compose(group);
		a.push(now() - t);
		t = now();
		base();
		b.push(now() - t);
	}
	h.close();
	const sa = sorted(a), sb = sorted(b);
	const ratio = pct(sa, 0.5) / pct(sb, 0.5);
	console.log(`      ${'clawmd compose(), watched handle'.padEnd(42)} median ${us(pct(sa, 0.5))} us   ` +
		`p90 ${us(pct(sa, 0.9))} us   ${ratio.toFixed(2)}x the baseline (target <= 0.5x)`);
	console.log(`      ${'JS: parse container.json, read CLAUDE.md'.padEnd(42)} median ${us(pct(sb, 0.5))} us   ` +
		`p90 ${us(pct(sb, 0.9))} us   1.00x`);
}

function count(root, group, n, which) {
	const h = watched(root, group);
	const f = which === 'clawmd' ? () => h.compose(group) : baseline(path.join(h.groupsDir, group));
	for (let i = 0; i < 200; i++) f();
	for (let i = 0; i < n; i++) f();
	h.close();
}

/* nanoclaw's composer, loaded from its checkout as its tests load it
 * (TypeScript through its own tsx), with its database in memory. */
async function peerSource(dir) {
	const req = createRequire(path.join(dir, 'package.json'));
	const tsx = req.resolve('tsx/package.json');
	const api = JSON.parse(fs.readFileSync(tsx, 'utf8')).exports['./esm/api'].import.default;
	const { register } = await import(pathToFileURL(path.join(path.dirname(tsx), api)).href);
	register();
	process.env.LOG_LEVEL ??= 'warn'; // its migrations log each step
	return (f) => import(pathToFileURL(path.join(dir, 'src', f)).href);
}

async function peer(dir, config, n) {
	const src = await peerSource(dir);
	const db = await src('db/index.ts');
	const compose = await src('claude-md-compose.ts');
	const configs = await src('db/container-configs.ts');
	const conn = db.initTestDb();
	db.runMigrations(conn);
	const servers = JSON.parse(fs.readFileSync(config, 'utf8')).mcpServers;
	const groups = [];
	for (let i = 0; i < n; i++) {
		const g = { id: `ag-${i}`, name: `nc${i}`, folder: `nc${i}`, agent_provider: null,
			created_at: new Date().toISOString() };
		db.createAgentGroup(g);
		configs.createContainerConfig({ agent_group_id: g.id, provider: null, model: null, effort: null,
			image_tag: null, assistant_name: null, max_messages_per_prompt: null, skills: '"all"',
			mcp_servers: JSON.stringify(servers), packages_apt: '[]', packages_npm: '[]',
			additional_mounts: '[]', updated_at: g.created_at });
		groups.push(g);
	}
	return (i) => compose.composeGroupClaudeMd(groups[i]);
}

async function first(root, config, n, peerDir) {
	process.chdir(root); // nanoclaw resolves its groups from the working directory
	const sym = clawmd.open(root, { preset: 'nanoclaw', mode: 'symlink' });
	const cpy = clawmd.open(root, { preset: 'nanoclaw', mode: 'copy' });
	const cj = fs.readFileSync(config);
	const sides = [
		['clawmd, symlink mode (as nanoclaw writes)', 'sym', (i) => sym.compose(`sym${i}`)],
		['clawmd, copy mode (the default)', 'cpy', (i) => cpy.compose(`cpy${i}`)],
	];
	let peerNote = null;
	if (peerDir) {
		try {
			sides.push([`nanoclaw's composeGroupClaudeMd`, 'nc', await peer(peerDir, config, n + 5)]);
		} catch (e) {
			peerNote = `could not load nanoclaw's composer from ${peerDir}: ${e.message.split('\n')[0]}`;
		}
	}
	for (const [, p] of sides) {
		for (let i = 0; i < n + 5; i++) {
			fs.mkdirSync(path.join(root, 'groups', `${p}${i}`));
			if (p !== 'nc') fs.writeFileSync(path.join(root, 'groups', `${p}${i}`, 'container.json'), cj);
		}
	}
	const t = sides.map(() => []);
	for (let i = 0; i < n + 5; i++) {
		sides.forEach(([, , f], k) => {
			const a = now();
			f(i);
			if (i >= 5) t[k].push(now() - a); // the first few warm the code up
		});
	}
	sym.close();
	cpy.close();
	const ref = sides.length > 2 ? pct(sorted(t[2]), 0.5) : null;
	sides.forEach(([name], k) => {
		const s = sorted(t[k]);
		const r = ref === null ? '' : `   ${(pct(s, 0.5) / ref).toFixed(2)}x nanoclaw's${k < 2 ? ' (target <= 1x)' : ''}`;
		console.log(`      ${name.padEnd(42)} median ${us(pct(s, 0.5))} us   p90 ${us(pct(s, 0.9))} us${r}`);
	});
	if (peerNote)
		console.log(`      nanoclaw: ${peerNote}`);
	else if (!peerDir)
		console.log('      nanoclaw: skipped (make bench PEER=DIR, DIR a nanoclaw checkout after npm install)');
}

/*
 * nanoclaw's composeGroupProjectDoc (src/project-doc-compose.ts), loaded
 * from its checkout as peer() loads the older one, its rows made with its own
 * functions (the same calls its tests make, awaited: its database layer is
 * synchronous in some versions, asynchronous in later ones).
 */
async function peerFlat(dir, servers, n) {
	const src = await peerSource(dir);
	const db = await src('db/index.ts');
	const compose = await src('project-doc-compose.ts');
	const configs = await src('db/container-configs.ts');
	await db.runMigrations(await db.initTestDb());
	const groups = [], rows = [];
	for (let i = 0; i < n; i++) {
		const g = { id: `ag-nf${i}`, name: `nf${i}`, folder: `nf${i}`, agent_provider: null,
			created_at: new Date().toISOString() };
		await db.createAgentGroup(g);
		await configs.ensureContainerConfig(g.id);
		await configs.updateContainerConfigJson(g.id, 'mcp_servers', servers);
		groups.push(g);
		rows.push(await configs.getContainerConfig(g.id));
	}
	const spec = compose.DEFAULT_PROJECT_DOC;
	return { spec, rows, f: (i) => compose.composeGroupProjectDoc(groups[i], path.resolve('groups', `nf${i}`), spec) };
}

async function flat(root, config, n, peerDir) {
	const nc = require(path.join(pkg, 'nanoclaw.js'));
	if (typeof nc.composeGroupProjectDoc !== 'function') {
		console.log('      skipped: this package has no composeGroupProjectDoc (clawmd/nanoclaw\'s adapter for ' +
			'nanoclaw\'s flat composer, issue 32)');
		return;
	}
	process.chdir(root); // both root their groups at the working directory
	const servers = JSON.parse(fs.readFileSync(config, 'utf8')).mcpServers;
	const quiet = { warn() {}, error() {} };
	let spec = { fileName: 'CLAUDE.md', maxBytes: 4 * 1024 * 1024 }; // nanoclaw's DEFAULT_PROJECT_DOC
	let rows = null;
	let nf = null, peerNote = null;
	if (peerDir) {
		try {
			nf = await peerFlat(peerDir, servers, n + 5);
			spec = nf.spec;
			rows = nf.rows; // the adapter gets the very rows nanoclaw's composer reads
		} catch (e) {
			peerNote = `could not load nanoclaw's composeGroupProjectDoc from ${peerDir}: ${e.message.split('\n')[0]}`;
		}
	}
	const row = (i) => (rows ? rows[i] : { agent_group_id: `ag-fa${i}`, skills: '"all"',
		mcp_servers: JSON.stringify(servers), cli_scope: null });
	const grp = (i) => ({ id: `ag-fa${i}`, name: `fa${i}`, folder: `fa${i}` });
	// as nanoclaw 2.4 calls it: the row from its reader, set once, the call awaited
	nc.configure({ getContainerConfig: async (id) => row(Number(id.slice(5))), log: quiet });
	const sides = [['clawmd/nanoclaw composeGroupProjectDoc', (i) =>
		nc.composeGroupProjectDoc(grp(i), path.resolve('groups', `fa${i}`), spec)]];
	if (nf) sides.push([`nanoclaw's composeGroupProjectDoc`, nf.f]);
	const t = sides.map(() => []);
	for (let i = 0; i < n + 5; i++) {
		for (let k = 0; k < sides.length; k++) {
			const a = now();
			await sides[k][1](i);
			if (i >= 5) t[k].push(now() - a);
		}
	}
	const ref = nf ? pct(sorted(t[1]), 0.5) : null;
	sides.forEach(([name], k) => {
		const s = sorted(t[k]);
		const r = ref === null ? '' : `   ${(pct(s, 0.5) / ref).toFixed(2)}x nanoclaw's${k === 0 ? ' (target <= 0.5x)' : ''}`;
		console.log(`      ${name.padEnd(42)} median ${us(pct(s, 0.5))} us   p90 ${us(pct(s, 0.9))} us${r}`);
	});
	if (nf) {
		let same = 0;
		for (let i = 0; i < n + 5; i++) {
			const a = fs.readFileSync(path.join('groups', `fa${i}`, spec.fileName));
			const b = fs.readFileSync(path.join('groups', `nf${i}`, spec.fileName));
			if (a.equals(b)) same++;
		}
		console.log(`      the same bytes in ${same} of ${n + 5} groups (${spec.fileName}, ` +
			`${fs.statSync(path.join('groups', 'nf0', spec.fileName)).size} bytes)`);
	} else {
		console.log(peerNote ? `      nanoclaw: ${peerNote}` :
			'      nanoclaw: skipped (PEER=DIR, DIR a nanoclaw checkout with src/project-doc-compose.ts after its install)');
	}

	// The no-op: the adapter's own handle (watched), once the record of a
	// verified no-op exists; and the same document's no-op on a plain handle
	// (no watch: the record verified by stats at each call), the config
	// given as the JSON text the adapter hands the addon, and again as an
	// object (a JSON.stringify more at each call).
	const cfg = { skills: 'all', mcpServers: servers };
	const cfgText = JSON.stringify(cfg);
	const plain = clawmd.open(root, { preset: 'nanoclaw', document: 'flat' });
	const a = () => nc.composeGroupProjectDoc(grp(0), path.resolve('groups', 'fa0'), spec);
	const b = () => plain.compose('fa1', { config: cfg });
	const c = () => plain.compose('fa2', { config: cfgText });
	for (let i = 0; i < 20; i++) {
		await a();
		b();
		c();
		sleep(20);
	}
	if ((await a()).changed || b().changed || c().changed) throw new Error('bench: the adapter\'s groups are not a no-op');
	const ta = [], tb = [], tc = [];
	for (let i = 0; i < 200; i++) { await a(); b(); c(); }
	for (let i = 0; i < NOOP; i++) {
		let x = now();
		await a();
		ta.push(now() - x);
		x = now();
		b();
		tb.push(now() - x);
		x = now();
		c();
		tc.push(now() - x);
	}
	plain.close();
	const sa = sorted(ta), sb = sorted(tb), sc = sorted(tc);
	console.log(`      ${'no-op, composeGroupProjectDoc (watched)'.padEnd(42)} median ${us(pct(sa, 0.5))} us   ` +
		`p90 ${us(pct(sa, 0.9))} us   (target <= 10 us)`);
	// The target is the adapter's on a plain handle: the adapter hands the
	// addon the row's JSON text; an object costs a JSON.stringify more.
	console.log(`      ${'no-op, the same on a plain handle'.padEnd(42)} median ${us(pct(sc, 0.5))} us   ` +
		`p90 ${us(pct(sc, 0.9))} us   (target <= 50 us)`);
	console.log(`      ${'  the config as an object, not text'.padEnd(42)} median ${us(pct(sb, 0.5))} us   ` +
		`p90 ${us(pct(sb, 0.9))} us`);
}

/* The two no-ops of flat(), one side alone (see flatcount above). */
async function flatCount(root, config, n, which) {
	const nc = require(path.join(pkg, 'nanoclaw.js'));
	process.chdir(root);
	const servers = JSON.parse(fs.readFileSync(config, 'utf8')).mcpServers;
	const quiet = { warn() {}, error() {} };
	const spec = { fileName: 'CLAUDE.md', maxBytes: 4 * 1024 * 1024 };
	// every column of nanoclaw's container_configs, as its database hands a row
	const row = { agent_group_id: 'ag-fc0', provider: null, model: null, effort: null, image_tag: null,
		assistant_name: null, max_messages_per_prompt: null, skills: '"all"',
		mcp_servers: JSON.stringify(servers), packages_apt: '[]', packages_npm: '[]',
		additional_mounts: '[]', updated_at: new Date().toISOString() };
	const grp = { id: 'ag-fc0', name: 'fc0', folder: 'fc0' };
	const cfg = { skills: 'all', mcpServers: servers };
	let plain = null;
	let f;
	if (which === 'adapter') {
		// as nanoclaw 2.4 calls it: the row from its reader, the call awaited
		nc.configure({ getContainerConfig: async () => row, log: quiet });
		f = () => nc.composeGroupProjectDoc(grp, path.resolve('groups', 'fc0'), spec);
	} else {
		fs.mkdirSync(path.join(root, 'groups', 'fc1'), { recursive: true });
		plain = clawmd.open(root, { preset: 'nanoclaw', document: 'flat' });
		const text = JSON.stringify(cfg); // as the adapter hands it
		f = () => plain.compose('fc1', { config: text });
	}
	for (let i = 0; i < 20; i++) {
		await f();
		sleep(20);
	}
	if ((await f()).changed) throw new Error(`bench: ${which} is not a no-op`);
	for (let i = 0; i < 5000; i++) await f(); // past the optimizing compiler's work
	for (let i = 0; i < n; i++) await f();
	// CLAWMD_BENCH_MARK: one call more between two stats of names that do
	// not exist, where a trace of the process finds that call's system
	// calls (scripts/bench-node.sh: the floor of the plain no-op).
	if (process.env.CLAWMD_BENCH_MARK) {
		try { fs.statSync('/clawmd-bench-mark-begin'); } catch { /* the mark */ }
		await f();
		try { fs.statSync('/clawmd-bench-mark-end'); } catch { /* the mark */ }
	}
	if (plain) plain.close();
}

async function loop(root) {
	const h = clawmd.open(root);
	const hist = monitorEventLoopDelay({ resolution: 1 });
	const ms = (x) => x.toFixed(1).padStart(6);
	const row = (name, d, tail) => console.log(`      ${name.padEnd(24)} ${ms(hist.max / 1e6)} ms max  ` +
		`${ms(hist.percentile(99) / 1e6)} ms p99  over ${(d / 1e3).toFixed(1).padStart(5)} s${tail}`);
	const run = async (name) => {
		hist.reset();
		hist.enable();
		const a = now();
		const r = await h.composeAll();
		const b = now();
		await new Promise((res) => setTimeout(res, 5)); // the histogram sees a stall when its timer next runs
		hist.disable();
		const failed = r.filter((x) => x.error);
		if (failed.length) throw new Error(`bench: ${failed[0].group}: ${failed[0].error.message}`);
		const n = r.reduce((k, x) => k + x.changes.length, 0);
		row(name, (b - a) / 1e3, `, ${r.length} groups, ${n} changes`);
		return (b - a) / 1e3;
	};
	const d = await run('composeAll, first pass');
	await new Promise((res) => setTimeout(res, 1000)); // let the writes age for the record
	await h.composeAll();
	await run('composeAll, no-op pass');
	hist.reset();
	hist.enable();
	await new Promise((res) => setTimeout(res, Math.min(d, 10000)));
	hist.disable();
	row('the same loop, idle', Math.min(d, 10000), '');
	h.close();
}

const [mode, ...args] = process.argv.slice(2);
if (mode === 'noop') noop(args[0], args[1], Number(args[2]));
else if (mode === 'count') count(args[0], args[1], Number(args[2]), args[3]);
else if (mode === 'first') await first(args[0], args[1], Number(args[2]), args[3]);
else if (mode === 'flat') await flat(args[0], args[1], Number(args[2]), args[3]);
else if (mode === 'flatcount') await flatCount(args[0], args[1], Number(args[2]), args[3]);
else if (mode === 'loop') await loop(args[0]);
else {
	console.error('usage: node bench/node.mjs noop|count|first|flat|flatcount|loop ROOT ...');
	process.exit(2);
}
