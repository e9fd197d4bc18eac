'use strict';
/*
 * A drop-in for nanoclaw's src/claude-md-compose.ts:
 *
 *	import { composeGroupClaudeMd, migrateGroupsToClaudeLocal } from 'clawmd/nanoclaw';
 *
 * with nanoclaw's signatures, rooted where nanoclaw roots them: the host's
 * working directory (nanoclaw's PROJECT_ROOT, groups in ./groups), with the
 * nanoclaw preset unless that directory holds a clawmd.json, which then
 * says the layout.  composeGroupClaudeMd takes the group's config as the
 * host keeps it as an optional second argument: a container.json-shaped
 * object ({ skills, mcpServers, cli_scope }), or a row of nanoclaw's
 * container_configs table (JSON columns as strings); without one, the
 * group's container.json is read.  Errors are clawmd's ClawmdError.
 */
const fs = require('fs');
const path = require('path');
const clawmd = require('./index.js');

const { ClawmdError } = clawmd;
let cached = null; // { cwd, handle }

/*
 * The root a directory is inside a group of, or null.  An ancestor is a
 * root as the library finds one (a clawmd.json, a .git, or a groups/ and a
 * container/ side by side), its groups directory the one its clawmd.json
 * names, else groups/.  Every ancestor is asked: a clawmd.json an agent
 * planted on the way can add a refusal, never take one away.
 */
function groupRootOf(dir) {
	let real;
	try {
		real = fs.realpathSync(dir);
	} catch (e) {
		return null; // a working directory removed under the host: open() says so
	}
	const isDir = (p) => { try { return fs.statSync(p).isDirectory(); } catch (e) { return false; } };
	for (let up = path.dirname(real); ; up = path.dirname(up)) {
		const json = path.join(up, 'clawmd.json');
		const marked = fs.existsSync(json) || fs.existsSync(path.join(up, '.git')) ||
			(isDir(path.join(up, 'groups')) && isDir(path.join(up, 'container')));
		if (marked) {
			let groups = path.join(up, 'groups');
			try {
				const g = jsonParse(fs.readFileSync(json, 'utf8')).groups;
				if (typeof g === 'string' && g) groups = path.resolve(up, g);
			} catch (e) { /* no clawmd.json, or not one that moves groups */ }
			let rg = null;
			try { rg = fs.realpathSync(groups); } catch (e) { /* no groups directory */ }
			if (rg && real.startsWith(rg + path.sep)) return up;
		}
		if (up === path.dirname(up)) return null;
	}
}

function root() {
	const cwd = process.cwd();
	if (cached && cached.cwd === cwd) return cached.handle;
	if (cached) cached.handle.close();
	cached = null;
	// The host's working directory inside a group would make the agent's
	// files (a planted clawmd.json) the layout: refused, as the command
	// refuses a ROOT there (exit 4).
	const outer = groupRootOf(cwd);
	if (outer)
		throw new ClawmdError(`the working directory '${cwd}' is inside a group of '${outer}': ` +
			'clawmd/nanoclaw roots at the working directory, nanoclaw\'s PROJECT_ROOT; start the host ' +
			`from '${outer}'`, { code: 'EFS', exitStatus: 4, path: cwd });
	const own = fs.existsSync(path.join(cwd, 'clawmd.json'));
	cached = { cwd, handle: clawmd.open(cwd, own ? {} : { preset: 'nanoclaw' }) };
	return cached.handle;
}

function usage(message, key) {
	return new ClawmdError(message, { code: 'EUSAGE', exitStatus: 2, key });
}

/* nanoclaw's container_configs row to container.json's shape. */
function fromRow(row) {
	const parse = (key, text) => {
		if (typeof text !== 'string') return text;
		try {
			return jsonParse(text);
		} catch (e) {
			throw new ClawmdError(`container config of ${row.agent_group_id || 'the group'}: ` +
				`${key}: not JSON (${e.message})`, { code: 'EINPUT', exitStatus: 3, key });
		}
	};
	// Own columns only: a polluted Object.prototype adds none.
	const col = (k) => (Object.prototype.hasOwnProperty.call(row, k) ? row[k] : undefined);
	const cfg = {};
	if (col('skills') !== undefined && col('skills') !== null) cfg.skills = parse('skills', col('skills'));
	if (col('mcp_servers') !== undefined && col('mcp_servers') !== null)
		cfg.mcpServers = parse('mcp_servers', col('mcp_servers'));
	if (col('cli_scope') !== undefined && col('cli_scope') !== null) cfg.cli_scope = col('cli_scope');
	return cfg;
}

function hostConfig(config) {
	if (config === undefined || config === null) return undefined;
	if (typeof config === 'string') return config;
	if (typeof config !== 'object' || Array.isArray(config))
		throw usage(`config: expected an object or a JSON string, not ${typeof config}`, 'config');
	const has = (k) => Object.prototype.hasOwnProperty.call(config, k);
	const isRow = has('mcp_servers') || has('agent_group_id');
	return isRow ? fromRow(config) : config;
}

/*
 * What nanoclaw's composer refuses and clawmd's would move aside: a
 * .claude-fragments that is not a real directory.  The host gets the throw
 * its own tests expect, and nothing is changed.
 */
function refuseOddFragments(groupDir) {
	const dir = path.join(groupDir, '.claude-fragments');
	let st;
	try {
		st = fs.lstatSync(dir);
	} catch (e) {
		if (e.code === 'ENOENT') return;
		throw new ClawmdError(`could not look at '${dir}': ${e.message}`,
			{ code: 'EFS', exitStatus: 4, path: dir });
	}
	if (st.isSymbolicLink())
		throw new ClawmdError(`CLAUDE fragment directory '${dir}' must be a directory and not a symlink ` +
			'(refused: it could lead anywhere; remove it)', { code: 'EFS', exitStatus: 4, path: dir });
	if (!st.isDirectory())
		throw new ClawmdError(`CLAUDE fragment directory '${dir}' is not a directory (remove it)`,
			{ code: 'EFS', exitStatus: 4, path: dir });
}

/**
 * Regenerate groups/<folder>/CLAUDE.md (nanoclaw's signature; the config
 * argument is clawmd's addition).  Creates the group directory when it is
 * missing, as nanoclaw does.
 */
function composeGroupClaudeMd(group, config) {
	if (!group || typeof group !== 'object' || !Object.prototype.hasOwnProperty.call(group, 'folder') ||
		typeof group.folder !== 'string')
		throw usage('composeGroupClaudeMd: expected an agent group with a folder', 'folder');
	const cfg = hostConfig(config);
	const h = root();
	if (!clawmd.validName(group.folder))
		h.compose(group.folder); // throws the library's message for the name
	const groupDir = path.join(h.groupsDir, group.folder);
	fs.mkdirSync(h.groupsDir, { recursive: true });
	try {
		fs.mkdirSync(groupDir);
	} catch (e) {
		if (e.code !== 'EEXIST') throw e;
	}
	// A symlinked group directory is compose's to refuse: nothing is looked
	// at through it.
	if (!fs.lstatSync(groupDir).isSymbolicLink()) refuseOddFragments(groupDir);
	// what compose did, its warnings among it (an unknown provider, what
	// the cap ladder left out): nanoclaw's own composer returns nothing,
	// so a host that ignores it loses nothing
	return h.compose(group.folder, cfg === undefined ? undefined : { config: cfg });
}

/*
 * The one-time cutover from groups/global and .claude-global.md
 * (idempotent).  It runs at host start, unattended, so what needs the
 * operator (the text a git-tracked container/CLAUDE.md lacks, written to
 * the review file beside it instead; a tracked file moved; the .gitignore
 * line to add) must reach the host's log: each warning goes to
 * options.log.warn (nanoclaw's `log`), else to console.warn as the command
 * prints it.  Returns what migrate did (undefined without a groups
 * directory).
 */
function migrateGroupsToClaudeLocal(options) {
	const log = options && typeof options === 'object' ? options.log : undefined;
	const h = root();
	if (!fs.existsSync(h.groupsDir)) return undefined;
	const res = h.migrate();
	for (const w of res.warnings) {
		if (log && typeof log.warn === 'function') log.warn(w, { source: 'clawmd migrate' });
		else console.warn(`clawmd: warning: ${w}`);
	}
	if (res.failed.length)
		throw new ClawmdError(`migrate: ${res.failed.length} group(s) failed: ` +
			res.failed.map((f) => `${f.group}: ${f.message}`).join('; '),
			{ code: 'EFS', exitStatus: 6 });
	return res;
}

/**
 * The mounts nanoclaw's buildMounts needs for the group's instruction files,
 * in its VolumeMount shape ({hostPath, containerPath, readonly}), in the
 * order to apply them: the group read-write, what clawmd composed there
 * read-only over it, the shared base and the skills read-only.  Call it
 * after composeGroupClaudeMd: a file it would mount that is missing, or is
 * no longer the type compose wrote, throws (EFS).
 */
function groupMounts(group) {
	if (!group || typeof group !== 'object' || typeof group.folder !== 'string')
		throw usage('groupMounts: expected an agent group with a folder', 'folder');
	return root().mounts(group.folder).map((m) => {
		// docker -v makes a directory where a file is missing, and follows
		// a symlink the agent left in its group: refuse both, as
		// `clawmd mounts` does (the list is checked without following).
		if (!m.present)
			throw new ClawmdError(`'${m.host}': not there yet, or not a ${m.type} ` +
				'(composeGroupClaudeMd first)', { code: 'EFS', exitStatus: 4, path: m.host });
		return { hostPath: m.host, containerPath: m.container, readonly: m.readonly };
	});
}

/* ---- nanoclaw since its pull request 3536: composeGroupProjectDoc ------ */

const ENTRY_FILES = ['CLAUDE.md', 'AGENTS.md', 'GEMINI.md', 'QWEN.md'];
const projectDocs = new Map(); // cwd + contract name -> { cwd, contract, handle, groupsDir, dirs }
const groupDirs = new Set(); // the group directories made or found by this process

/*
 * upstream's spec ({fileName, instructions?, maxBytes?}) as the layout keys
 * of a provider contract of clawmd's (doc/runtimes.md): its name is made
 * from the spec, so two specs never share a contract, and one spec always
 * finds its handle again.
 */
const specs = new WeakMap(); // spec object -> what made its contract (nanoclaw passes the same one)
const own = (o, k) => (Object.prototype.hasOwnProperty.call(o, k) ? o[k] : undefined);
// JSON as it was at load: a host that replaces JSON.stringify later (a
// logger's wrapper) must not give two specs one contract name
const jsonStringify = JSON.stringify;
const jsonParse = JSON.parse;
const slice = Function.prototype.call.bind(Array.prototype.slice);

/*
 * Every own key makeContract reads, read once, in one flat list: the
 * lists copied, so that one changed in place is seen.  Compared value by
 * value with the last call's, it is the spec's identity: what JSON would
 * miss (a key not enumerable, a toJSON) cannot keep a stale contract.
 */
function specRead(spec) {
	if (!spec || typeof spec !== 'object')
		throw usage('composeGroupProjectDoc: spec: expected {fileName, instructions?, maxBytes?}', 'spec');
	const list = (v) => (Array.isArray(v) ? slice(v) : v);
	const facts = own(spec, 'instructions');
	const f = facts && typeof facts === 'object' ? facts : null;
	const skills = f ? own(f, 'nativeSkills') : undefined;
	const s = skills && typeof skills === 'object' ? skills : null;
	return [own(spec, 'fileName'), own(spec, 'maxBytes'), facts,
		f ? list(own(f, 'nativeOverrideFiles')) : undefined, skills,
		s ? own(s, 'discoveryPath') : undefined, s ? own(s, 'sharedSource') : undefined,
		s ? own(s, 'selfAuthoredHome') : undefined, s ? list(own(s, 'persistentRoots')) : undefined,
		s ? own(s, 'ruleBearingInlined') : undefined];
}

const sameRead = (a, b) => a.length === b.length && a.every((x, i) => x === b[i] ||
	(Array.isArray(x) && Array.isArray(b[i]) && sameRead(x, b[i])));

function specContract(spec) {
	const read = specRead(spec);
	const known = specs.get(spec);
	if (known && sameRead(read, known.read)) return known.contract;
	const contract = makeContract(read);
	specs.set(spec, { read, contract });
	return contract;
}

/* The contract of a spec, from what specRead read of it. */
function makeContract(read) {
	const [fileName, maxBytes, instructions, overrides, nativeSkills,
		discoveryPath, sharedSource, selfAuthoredHome, persistentRoots, ruleBearingInlined] = read;
	if (!ENTRY_FILES.includes(fileName))
		throw usage(`composeGroupProjectDoc: spec.fileName: expected one of ${ENTRY_FILES.join(', ')}`,
			'fileName');
	if (maxBytes !== undefined && !(Number.isInteger(maxBytes) && maxBytes > 0 && maxBytes <= 2 ** 30))
		throw usage('composeGroupProjectDoc: spec.maxBytes: expected a whole number of bytes', 'maxBytes');
	const facts = instructions ?? {};
	if (typeof facts !== 'object')
		throw usage('composeGroupProjectDoc: spec.instructions: expected an object', 'instructions');
	const names = (v, key) => {
		if (v === undefined) return [];
		if (!Array.isArray(v) || !v.every((x) => typeof x === 'string' && x && !x.includes(',')))
			throw usage(`composeGroupProjectDoc: spec.instructions.${key}: expected a list of names`, key);
		return v;
	};
	const keys = {
		like: fileName === 'CLAUDE.md' ? 'claude' : 'codex',
		entry: fileName,
		cap: maxBytes ?? 0,
		document: 'flat',
		overrides: names(overrides, 'nativeOverrideFiles').join(','),
	};
	// null is none, as nanoclaw's optional chaining reads it
	const skills = nativeSkills ?? undefined;
	if (skills !== undefined && typeof skills !== 'object')
		throw usage('composeGroupProjectDoc: spec.instructions.nativeSkills: expected an object', 'nativeSkills');
	// none: no native-skills section, whatever the built-in contract it
	// is "like" has (codex's would otherwise be written for an AGENTS.md)
	if (skills === undefined) keys['skills.discovery'] = '';
	else {
		const str = (v, k) => {
			if (typeof v !== 'string' || !v)
				throw usage(`composeGroupProjectDoc: spec.instructions.nativeSkills.${k}: expected a path`, k);
			return v;
		};
		keys['skills.discovery'] = str(discoveryPath, 'discoveryPath');
		keys['skills.source'] = str(sharedSource, 'sharedSource');
		keys['skills.home'] = str(selfAuthoredHome, 'selfAuthoredHome');
		keys['skills.roots'] = names(persistentRoots, 'persistentRoots').join(',');
		keys['skills.inlined'] = ruleBearingInlined === true;
	}
	const id = require('crypto').createHash('sha256').update(jsonStringify(keys)).digest('hex');
	return { name: `spec-${id.slice(0, 12)}`, keys };
}

/*
 * The handle for the working directory and a contract, with what a call
 * needs of it kept in JS (its groups directory; each group's directory,
 * its name checked once): a no-op is then one call into the addon.
 */
let lastDoc = null; // the entry of the last call: nanoclaw passes one spec
function projectDocRoot(contract) {
	const cwd = process.cwd();
	if (lastDoc && lastDoc.cwd === cwd && lastDoc.contract === contract) return lastDoc;
	const key = `${cwd}\0${contract.name}`;
	const have = projectDocs.get(key);
	if (have) {
		have.contract = contract;
		return (lastDoc = have);
	}
	const outer = groupRootOf(cwd);
	if (outer)
		throw new ClawmdError(`the working directory '${cwd}' is inside a group of '${outer}': ` +
			'clawmd/nanoclaw roots at the working directory; start the host from ' +
			`'${outer}'`, { code: 'EFS', exitStatus: 4, path: cwd });
	const opts = { preset: 'nanoclaw', document: 'flat', watch: true };
	for (const [k, v] of Object.entries(contract.keys)) opts[`providers.${contract.name}.${k}`] = v;
	opts.runtimes = contract.name; // after the contract it names
	const handle = clawmd.open(cwd, opts);
	const entry = { cwd, contract, handle, groupsDir: handle.groupsDir, dirs: new Map() };
	projectDocs.set(key, entry);
	return (lastDoc = entry);
}

/* The container_configs row (or a container.json-shaped object) as the
 * flat document reads it: the spec, not a provider, says which file. */
// the row's mcp_servers text -> [{ skills, cli, text }]: the config's JSON
// text for each row seen (a few per group).  Keyed by the column's own
// string, whose hash V8 keeps, rather than by a text made of the columns,
// which would be made and hashed again at every call.
const rowTexts = new Map();
function projectDocConfig(config) {
	if (config && typeof config === 'object' && !Array.isArray(config)) {
		const own = (k) => (Object.prototype.hasOwnProperty.call(config, k) ? config[k] : undefined);
		const skills = own('skills'), mcp = own('mcp_servers'), cli = own('cli_scope');
		const col = (c) => c === undefined || c === null || typeof c === 'string';
		if (typeof mcp === 'string' && col(skills) && col(cli)) {
			let seen = rowTexts.get(mcp);
			for (const r of seen || []) if (r.skills === skills && r.cli === cli) return r.text;
			const text = jsonStringify(projectDocObject(config));
			if (rowTexts.size > 4096) rowTexts.clear();
			if (!seen || seen.length > 16) rowTexts.set(mcp, (seen = []));
			seen.push({ skills, cli, text });
			return text;
		}
	}
	return jsonStringify(projectDocObject(config));
}

function projectDocObject(config) {
	if (config === undefined || config === null) return {};
	if (typeof config === 'string') {
		try {
			config = jsonParse(config);
		} catch (e) {
			throw new ClawmdError(`config: not JSON (${e.message})`, { code: 'EINPUT', exitStatus: 3, key: 'config' });
		}
	}
	// JSON text may hold null or a list, which the checks of an object miss
	if (config === null || typeof config !== 'object' || Array.isArray(config)) {
		const what = config === null ? 'null' : Array.isArray(config) ? 'an array' : typeof config;
		throw usage(`config: expected a container_configs row or an object, not ${what}`, 'config');
	}
	const own = (k) => (Object.prototype.hasOwnProperty.call(config, k) ? config[k] : undefined);
	const isRow = own('mcp_servers') !== undefined || own('agent_group_id') !== undefined;
	const out = {};
	if (isRow) {
		const skills = own('skills');
		if (skills !== undefined && skills !== null) {
			// a corrupt selection widens to every skill, with a warning
			try { out.skills = jsonParse(skills); } catch (e) { out.skills = { corrupt: String(skills) }; }
		}
		const mcp = own('mcp_servers');
		if (typeof mcp === 'string') {
			try {
				out.mcpServers = jsonParse(mcp);
			} catch (e) {
				throw new ClawmdError(`container config of ${own('agent_group_id') || 'the group'}: ` +
					`mcp_servers: not JSON (${e.message})`, { code: 'EINPUT', exitStatus: 3, key: 'mcp_servers' });
			}
		} else if (mcp !== undefined && mcp !== null) {
			out.mcpServers = mcp;
		}
	} else {
		for (const k of ['skills', 'mcpServers']) if (own(k) !== undefined) out[k] = own(k);
	}
	if (typeof own('cli_scope') === 'string') out.cli_scope = own('cli_scope');
	return out;
}

/*
 * nanoclaw's composeGroupProjectDoc(group, groupDir, spec) (its pull
 * request 3536 and later), over clawmd's flat document: the same bytes in
 * groups/<folder>/<spec.fileName>.  `config` is the group's
 * container_configs row as nanoclaw stores it (JSON columns as text), or a
 * container.json-shaped object; none: every default, as a group without a
 * row.  `options.log` is the host's logger (nanoclaw's `log`): each warning
 * goes to log.warn, what the cap ladder dropped to log.error, as
 * nanoclaw's composer logs them.  Returns what compose did, with
 * `dropped` (the section names left out for size).
 */
function composeGroupProjectDoc(group, groupDir, spec, config, options) {
	const folder = group && typeof group === 'object' ? group.folder : undefined;
	if (typeof folder !== 'string')
		throw usage('composeGroupProjectDoc: expected an agent group with a folder', 'folder');
	if (typeof groupDir !== 'string')
		throw usage('composeGroupProjectDoc: groupDir: expected a path', 'groupDir');
	const contract = specContract(spec);
	const cfg = projectDocConfig(config);
	const log = options && typeof options === 'object' ? options.log : undefined;
	const doc = projectDocRoot(contract);
	const h = doc.handle;
	// the group's directory, its name checked once (the library's check)
	let want = doc.dirs.get(folder);
	if (want === undefined) {
		if (!clawmd.validName(folder))
			h.compose(folder); // throws the library's message for the name
		want = path.join(doc.groupsDir, folder);
		if (doc.dirs.size > 65536) doc.dirs.clear();
		doc.dirs.set(folder, want);
	}
	if (groupDir !== want && path.resolve(groupDir) !== want)
		throw usage(`composeGroupProjectDoc: groupDir '${groupDir}' is not '${want}', the group's ` +
			'directory under the root', 'groupDir');
	// a group's directory is made when missing, as nanoclaw's composer
	// does: first seen, made up front (no failed compose to throw); one
	// removed since, after the compose that found it gone
	if (!groupDirs.has(want)) {
		fs.mkdirSync(want, { recursive: true });
		if (groupDirs.size > 65536) groupDirs.clear();
		groupDirs.add(want);
	}
	let r;
	try {
		r = h.compose(folder, { config: cfg });
	} catch (e) {
		if (!(e instanceof ClawmdError) || e.code !== 'EFS' || fs.existsSync(want)) throw e;
		fs.mkdirSync(want, { recursive: true });
		r = h.compose(folder, { config: cfg });
	}
	// the file validated and written: the spec is read once (a getter
	// may answer otherwise the second time)
	const file = contract.keys.entry;
	r.file = file;
	r.dropped = [];
	for (const w of r.warnings) {
		const m = / dropped the largest instruction sections: (.*)$/.exec(w);
		if (m) {
			r.dropped = m[1].split(', ');
			if (log && typeof log.error === 'function')
				log.error('Project document exceeded its size cap \u2014 dropped the largest instruction sections',
					{ file, group: group.name, dropped: r.dropped, message: w });
		} else if (log && typeof log.warn === 'function') {
			log.warn(w, { file, group: group.name });
		}
	}
	return r;
}

module.exports = { composeGroupClaudeMd, composeGroupProjectDoc, migrateGroupsToClaudeLocal, groupMounts };
