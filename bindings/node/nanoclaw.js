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
const composeText = clawmd.composeText;

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
		// nanoclaw's runner builds `-v HOST:CONTAINER:ro` from these: a
		// path that form cannot carry would bind something else, so it is
		// refused as `clawmd mounts --format docker` refuses it.
		if (!m.shortForm)
			throw new ClawmdError(`'${m.host}' or '${m.container}': docker's -v cannot carry ` +
				"this path (a ':' or ',' or a control character); bind it with --mount",
				{ code: 'EINPUT', exitStatus: 3, path: m.host });
		return { hostPath: m.host, containerPath: m.container, readonly: m.readonly };
	});
}

/* ---- nanoclaw since its pull request 3536: composeGroupProjectDoc ------ */

/*
 * The module nanoclaw's src/project-doc-compose.ts is, as nanoclaw 2.4
 * calls it (doc/nanoclaw.md): its exports, its signature
 * (group, groupDir, spec, runtimeSkills?), a Promise, its log lines.  Two
 * things it reads from nanoclaw itself come in once, through configure():
 * the group's container_configs row (nanoclaw's getContainerConfig) and
 * its logger.  Where nanoclaw's composer would fail the spawn on what is
 * stored (a malformed mcp_servers column) clawmd composes and says so.
 */

/** nanoclaw's BASE_INSTRUCTIONS_PATH: the canon, relative to the project root. */
const BASE_INSTRUCTIONS_PATH = path.join('container', 'CLAUDE.md');
/** The paragraph of the canon's Memory section the override note replaces. */
const MEMORY_NOTE_PLACEHOLDER = '{{provider-memory-note}}';
/** Claude Code loads a CLAUDE.md of up to 4 MiB whole and skips a larger one. */
const DEFAULT_PROJECT_DOC = { fileName: 'CLAUDE.md', maxBytes: 4 * 1024 * 1024 };

/*
 * The two texts nanoclaw's module renders for its callers and tests; the
 * composer itself renders them in C (lib/compose/flat.c), and the tests
 * hold the two to the same bytes.
 */
function renderBaseInstructions(template, facts) {
	const files = (facts && facts.nativeOverrideFiles) || [];
	const note = files.length ? `Do not use ${files.map((f) => `\`${f}\``).join(' or ')} for memory.` : '';
	const at = String(template).indexOf(`\n\n${MEMORY_NOTE_PLACEHOLDER}`);
	if (at < 0) return String(template);
	const t = String(template);
	return t.slice(0, at) + (note ? `\n\n${note}` : '') + t.slice(at + 2 + MEMORY_NOTE_PLACEHOLDER.length);
}

function renderNativeSkillsSection(facts) {
	const s = facts && facts.nativeSkills;
	if (!s) return undefined;
	const roots = s.persistentRoots.map((r) => `\`${r}\``).join(' and ');
	return {
		name: 'Native Runtime Skills',
		body: [
			`Selected NanoClaw runtime skills are available as provider-native skills at \`${s.discoveryPath}\`.`,
			'Each skill directory contains a `SKILL.md` with its trigger description plus any supporting ' +
				`files, and points to the read-only shared skill source under \`${s.sharedSource}\`.`,
			'Use skill discovery to load these skills only when their descriptions match the task.' +
				(s.ruleBearingInlined ? ' A skill whose rules must hold before the task is recognised ships an ' +
					'`instructions.md` instead, and those arrive inlined as `NanoClaw Skill:` sections of this ' +
					'document.' : ''),
			`Skills YOU author or install yourself go in \`${s.selfAuthoredHome}/<name>/SKILL.md\` \u2014 persistent ` +
				`across sessions and discovered automatically. Never write skills elsewhere: paths outside ${roots} ` +
				'are ephemeral or not discovered.',
		].join('\n\n'),
	};
}

/*
 * What the host sets once: `getContainerConfig(agentGroupId)` (nanoclaw's
 * own, a row or a Promise of one; undefined: no row) and `log` (nanoclaw's
 * logger).  Each call may still pass its own in options.
 */
const settings = { getContainerConfig: undefined, log: undefined };
function configure(options) {
	if (!options || typeof options !== 'object')
		throw usage('configure: expected { getContainerConfig?, log? }', 'options');
	const reader = own(options, 'getContainerConfig');
	const log = own(options, 'log');
	if (reader !== undefined && reader !== null && typeof reader !== 'function')
		throw usage('configure: getContainerConfig: expected a function (agentGroupId) -> row', 'getContainerConfig');
	if (log !== undefined && log !== null && typeof log !== 'object' && typeof log !== 'function')
		throw usage('configure: log: expected a logger with warn() and error()', 'log');
	if (Object.prototype.hasOwnProperty.call(options, 'getContainerConfig')) settings.getContainerConfig = reader ?? undefined;
	if (Object.prototype.hasOwnProperty.call(options, 'log')) settings.log = log ?? undefined;
}

const ENTRY_FILES = ['CLAUDE.md', 'AGENTS.md', 'GEMINI.md', 'QWEN.md'];
const projectDocs = new Map(); // cwd + groups directory + contract name -> entry
const groupDirs = new Set(); // the group directories made or found by this process

/*
 * upstream's spec ({fileName, instructions?, maxBytes?}, and the legacy
 * baseDocPath and extraSections) as the layout keys of a provider contract
 * of clawmd's (doc/runtimes.md): its name is made from the spec, so two
 * specs never share a contract, and one spec always finds its handle again.
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
 * The working directory is part of it: a legacy base path is relative to it.
 */
function specRead(spec, cwd) {
	if (!spec || typeof spec !== 'object')
		throw usage('composeGroupProjectDoc: spec: expected {fileName, instructions?, maxBytes?}', 'spec');
	const list = (v) => (Array.isArray(v) ? slice(v) : v);
	const facts = own(spec, 'instructions');
	const f = facts && typeof facts === 'object' ? facts : null;
	const skills = f ? own(f, 'nativeSkills') : undefined;
	const s = skills && typeof skills === 'object' ? skills : null;
	const extra = own(spec, 'extraSections');
	const legacy = Array.isArray(extra) ? slice(extra).map((x) => (x && typeof x === 'object'
		? [x, own(x, 'name'), own(x, 'body')] : [x])) : extra;
	return [own(spec, 'fileName'), own(spec, 'maxBytes'), facts,
		f ? list(own(f, 'nativeOverrideFiles')) : undefined, skills,
		s ? own(s, 'discoveryPath') : undefined, s ? own(s, 'sharedSource') : undefined,
		s ? own(s, 'selfAuthoredHome') : undefined, s ? list(own(s, 'persistentRoots')) : undefined,
		s ? own(s, 'ruleBearingInlined') : undefined,
		'baseDocPath' in spec ? own(spec, 'baseDocPath') : undefined, 'baseDocPath' in spec,
		legacy, cwd];
}

function sameRead(a, b) {
	if (a.length !== b.length) return false;
	for (let i = 0; i < a.length; i++)
		if (a[i] !== b[i] && !(Array.isArray(a[i]) && Array.isArray(b[i]) && sameRead(a[i], b[i]))) return false;
	return true;
}

function specContract(spec, cwd) {
	const read = specRead(spec, cwd);
	const known = specs.get(spec);
	if (known && sameRead(read, known.read)) return known.contract;
	const contract = makeContract(read);
	specs.set(spec, { read, contract });
	return contract;
}

/* maxBytes as nanoclaw's ladder compares with it: a whole number of bytes
 * (0: none), the same documents kept and dropped. */
function capOf(maxBytes) {
	if (maxBytes === undefined) return 0;
	if (typeof maxBytes !== 'number')
		throw usage(`composeGroupProjectDoc: spec.maxBytes: expected a number of bytes, not ${typeof maxBytes}`,
			'maxBytes');
	// NaN and past 1 GiB: no document reaches it, so no ladder and no log
	if (Number.isNaN(maxBytes) || maxBytes >= 2 ** 30) return 0;
	// at most 0: every droppable section goes (the cap of one byte does that)
	return Math.max(1, Math.floor(maxBytes));
}

/* The contract of a spec, from what specRead read of it. */
function makeContract(read) {
	const [fileName, maxBytes, instructions, overrides, nativeSkills,
		discoveryPath, sharedSource, selfAuthoredHome, persistentRoots, ruleBearingInlined,
		baseDocPath, hasBase, extraSections, cwd] = read;
	if (!ENTRY_FILES.includes(fileName))
		throw usage(`composeGroupProjectDoc: spec.fileName: expected one of ${ENTRY_FILES.join(', ')}, ` +
			`not ${jsonStringify(String(fileName))}`, 'fileName');
	const facts = instructions ?? {};
	if (typeof facts !== 'object')
		throw usage('composeGroupProjectDoc: spec.instructions: expected an object', 'instructions');
	const names = (v, key) => {
		if (v === undefined || v === null) return [];
		if (!Array.isArray(v))
			throw usage(`composeGroupProjectDoc: spec.instructions.${key}: expected a list of file names`, key);
		for (const x of v)
			if (typeof x !== 'string' || !x || /[,/\x00-\x1f\x7f]/.test(x) || x === '.' || x === '..')
				throw usage(`composeGroupProjectDoc: spec.instructions.${key}: expected file names (none ` +
					`empty, '.' or '..', none with a '/', ',' or control character), not ` +
					`${jsonStringify(String(x))}`, key);
		return v;
	};
	const keys = {
		like: fileName === 'CLAUDE.md' ? 'claude' : 'codex',
		entry: fileName,
		cap: capOf(maxBytes),
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
		const roots = persistentRoots ?? [];
		if (!Array.isArray(roots) || !roots.every((x) => typeof x === 'string' && x && !x.includes(',')))
			throw usage('composeGroupProjectDoc: spec.instructions.nativeSkills.persistentRoots: expected a list ' +
				"of paths, none with a ','", 'persistentRoots');
		keys['skills.roots'] = roots.join(',');
		keys['skills.inlined'] = ruleBearingInlined === true;
	}
	// The legacy inputs: any baseDocPath but undefined (null: the canon's
	// path) is the base inlined as written; each extra section as named.
	let baseDoc = path.resolve(cwd, BASE_INSTRUCTIONS_PATH);
	if (hasBase && baseDocPath !== undefined) {
		if (baseDocPath !== null && typeof baseDocPath !== 'string')
			throw usage('composeGroupProjectDoc: spec.baseDocPath: expected a path', 'baseDocPath');
		baseDoc = path.resolve(cwd, baseDocPath ?? BASE_INSTRUCTIONS_PATH);
		keys.base = baseDoc;
	}
	if (extraSections !== undefined && extraSections !== null) {
		if (!Array.isArray(extraSections))
			throw usage('composeGroupProjectDoc: spec.extraSections: expected a list of {name, body}', 'extraSections');
		keys.sections = jsonStringify(extraSections.map(([x, name, body], i) => {
			if (!x || typeof x !== 'object' || typeof body !== 'string')
				throw usage(`composeGroupProjectDoc: spec.extraSections[${i}]: expected {name, body} with a ` +
					'text body', 'extraSections');
			return { name: String(name), body };
		}));
	}
	const id = require('crypto').createHash('sha256').update(jsonStringify(keys)).digest('hex');
	return { name: `spec-${id.slice(0, 12)}`, keys, baseDoc };
}

/*
 * The handle for the working directory, the groups directory the host's
 * groupDir lies in, and a contract, with what a call needs of it kept in
 * JS (each group's directory, its name checked once): a no-op is then one
 * call into the addon.
 */
let lastDoc = null; // the entry of the last call: nanoclaw passes one spec and one groups directory
function projectDocRoot(contract, groupsDir, cwd) {
	if (lastDoc && lastDoc.cwd === cwd && lastDoc.contract === contract && lastDoc.groupsDir === groupsDir)
		return lastDoc;
	const key = `${cwd}\0${groupsDir}\0${contract.name}`;
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
	const opts = { preset: 'nanoclaw', document: 'flat', watch: true, groups: groupsDir };
	for (const [k, v] of Object.entries(contract.keys)) opts[`providers.${contract.name}.${k}`] = v;
	opts.runtimes = contract.name; // after the contract it names
	if (projectDocs.size > 256) { // a host that moves its cwd or groups about
		for (const e of projectDocs.values()) e.handle.close();
		projectDocs.clear();
	}
	const handle = clawmd.open(cwd, opts);
	const entry = { cwd, groupsDir, contract, handle, names: new Map() };
	projectDocs.set(key, entry);
	return (lastDoc = entry);
}

/*
 * The row (nanoclaw's container_configs, JSON columns as text) or a
 * container.json-shaped object as the flat document reads it, as JSON
 * text, with `runtimeSkills` (a list) in place of the stored selection.
 * Nothing in a row throws: a column nanoclaw's composer would fail the
 * spawn on is composed without, with a warning into `notes`.
 */
const ROW_CACHE_BYTES = 32 * 1024 * 1024;
const rowTexts = new Map(); // mcp_servers text -> [{ skills, cli, runtime, text }]
let rowBytes = 0;
const isColumn = (c) => c === undefined || c === null || typeof c === 'string';
function projectDocConfig(config, runtimeSkills, notes) {
	const rs = runtimeSkills ? jsonStringify(runtimeSkills) : undefined;
	if (config && typeof config === 'object' && !Array.isArray(config)) {
		const skills = own(config, 'skills'), mcp = own(config, 'mcp_servers'), cli = own(config, 'cli_scope');
		if (typeof mcp === 'string' && isColumn(skills) && isColumn(cli)) {
			let seen = rowTexts.get(mcp);
			for (let i = 0; seen && i < seen.length; i++) {
				const r = seen[i];
				if (r.skills === skills && r.cli === cli && r.runtime === rs) {
					for (let k = 0; k < r.notes.length; k++) notes.push(r.notes[k]);
					return r.text;
				}
			}
			const mine = [];
			const text = jsonStringify(projectDocObject(config, runtimeSkills, mine));
			for (const n of mine) notes.push(n);
			const bytes = 2 * (mcp.length + text.length + (skills || '').length + (rs || '').length);
			if (bytes <= ROW_CACHE_BYTES / 8) {
				// bounded by bytes, not rows: 1 MiB rows are the agent's to make
				if (rowBytes + bytes > ROW_CACHE_BYTES || rowTexts.size > 4096) {
					rowTexts.clear();
					rowBytes = 0;
					seen = undefined;
				}
				if (!seen || seen.length > 16) rowTexts.set(mcp, (seen = []));
				seen.push({ skills, cli, runtime: rs, text, notes: mine });
				rowBytes += bytes;
			}
			return text;
		}
	}
	return jsonStringify(projectDocObject(config, runtimeSkills, notes));
}

/* A value with nothing nested past `depth` (deeper parts become null):
 * what the flat document reads of a server is at most three levels down,
 * and a server that is too deep where it matters stays invalid. */
const NEST_MAX = 32;
function shallow(v, depth = 0) {
	if (!v || typeof v !== 'object') return v;
	if (depth >= NEST_MAX) return null;
	if (Array.isArray(v)) return v.map((x) => shallow(x, depth + 1));
	const out = {};
	for (const k of Object.keys(v)) {
		if (k === '__proto__') Object.defineProperty(out, k, { value: shallow(v[k], depth + 1), enumerable: true,
			configurable: true, writable: true });
		else out[k] = shallow(v[k], depth + 1);
	}
	return out;
}

function projectDocObject(config, runtimeSkills, notes) {
	if (config === undefined || config === null) config = {};
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
	const o = (k) => own(config, k);
	const isRow = o('mcp_servers') !== undefined || o('agent_group_id') !== undefined;
	const out = {};
	if (isRow) {
		const skills = o('skills');
		if (!runtimeSkills && skills !== undefined && skills !== null) {
			// a corrupt selection widens to every skill, with a warning
			try { out.skills = jsonParse(skills); } catch (e) { out.skills = { corrupt: String(skills) }; }
		}
		const mcp = o('mcp_servers');
		if (typeof mcp === 'string') {
			try {
				out.mcpServers = jsonParse(mcp);
			} catch (e) {
				// nanoclaw's composer fails every spawn of the group here
				notes.push(['Stored MCP servers are not JSON; composed without their instructions',
					{ error: e.message }]);
			}
		} else if (mcp !== undefined && mcp !== null) {
			out.mcpServers = mcp;
		}
	} else {
		if (!runtimeSkills && o('skills') !== undefined) out.skills = o('skills');
		if (o('mcpServers') !== undefined) out.mcpServers = o('mcpServers');
	}
	if (out.mcpServers && typeof out.mcpServers === 'object') out.mcpServers = shallow(out.mcpServers);
	// the list the runner resolved, in place of the stored selection:
	// names only, as nanoclaw's includes() matches nothing else
	if (runtimeSkills) out.skills = slice(runtimeSkills).filter((x) => typeof x === 'string');
	if (typeof o('cli_scope') === 'string') out.cli_scope = o('cli_scope');
	return out;
}

/*
 * Each warning of the compose as nanoclaw's composer logs its own: the
 * same message and fields where it has the line (the missing base, the
 * cap ladder, the skill selection, a dropped server, a persona file),
 * else clawmd's words with {file, group}.
 */
/* What a warning is to nanoclaw's log: its kind and the parts matched,
 * worked out once per text, since a group's no-op returns the same
 * warnings at every spawn (bounded: 4,096 texts or 1 MiB of them). */
const WARN_KINDS = [
	['dropped', /: (\d+) bytes against its cap of (\d+): dropped the largest instruction sections: (.*)$/],
	['near', /: (\d+) bytes, near its cap of (\d+)$/],
	['base', /: composed without its base document \(/],
	['selection', /: skills: the skill selection is not /],
	['server', /: mcpServers\.(.*): dropping an invalid MCP server \((.*)\)$/],
	['servers', /: mcpServers: not an object; ignoring every server$/],
	['standing', /: could not read the standing instructions; /],
];
const warnKinds = new Map(); // warning text -> [kind, match]
let warnChars = 0;
function warnKind(w) {
	let k = warnKinds.get(w);
	if (k) return k;
	k = ['other', null];
	for (const [kind, re] of WARN_KINDS) {
		const m = re.exec(w);
		if (m) {
			k = [kind, m];
			break;
		}
	}
	if (warnKinds.size >= 4096 || warnChars + w.length > 1 << 20) {
		warnKinds.clear();
		warnChars = 0;
	}
	warnKinds.set(w, k);
	warnChars += w.length;
	return k;
}

function logWarnings(log, r, file, group, contract) {
	const warn = (m, o) => { if (log && typeof log.warn === 'function') log.warn(m, o); };
	const error = (m, o) => { if (log && typeof log.error === 'function') log.error(m, o); };
	r.dropped = [];
	for (let i = 0; i < r.warnings.length; i++) {
		const w = r.warnings[i], known = warnKind(w), kind = known[0], m = known[1];
		switch (kind) {
		case 'dropped':
			r.dropped = m[3].split(', ');
			error('Project document exceeded its size cap \u2014 dropped the largest instruction sections',
				{ file, group, bytes: +m[1], maxBytes: +m[2], dropped: r.dropped, message: w });
			break;
		case 'near': {
			const maxBytes = +m[2];
			warn('Project document is near its size cap',
				{ file, group, bytes: +m[1], warnBytes: Math.floor(maxBytes - maxBytes / 8), maxBytes, message: w });
			break;
		}
		case 'base':
			warn('Project document composed without its base document', { file, group, baseDoc: contract.baseDoc });
			break;
		case 'selection':
			warn('Stored skill selection is not "all" or a string list; inlining every skill', { file, group, message: w });
			break;
		case 'server':
			warn('Dropping invalid stored MCP server', { file, group, server: m[1], reason: m[2] });
			break;
		case 'servers':
			warn('Stored mcp_servers is not an object; ignoring all entries', { file, group, message: w });
			break;
		case 'standing':
			warn('Could not read group standing instructions; omitting prepend file', { file, group, message: w });
			break;
		default:
			warn(w, { file, group });
		}
	}
}

/* groupDir as a directory of a groups directory: resolved once per
 * working directory and text (a no-op is then no string work). */
const groupDirsSeen = new Map(); // cwd + groupDir -> { dir, name, groupsDir }
let lastGroupDir = null; // { cwd, groupDir, g }: a spawn composes one group, often again
function groupDirOf(groupDir, cwd) {
	if (lastGroupDir && lastGroupDir.groupDir === groupDir && lastGroupDir.cwd === cwd) return lastGroupDir.g;
	const key = `${cwd}\0${groupDir}`;
	let g = groupDirsSeen.get(key);
	if (!g) {
		const dir = path.resolve(cwd, groupDir);
		g = { dir, name: path.basename(dir), groupsDir: path.dirname(dir) };
		if (groupDirsSeen.size > 65536) groupDirsSeen.clear();
		groupDirsSeen.set(key, g);
	}
	lastGroupDir = { cwd, groupDir, g };
	return g;
}

/*
 * nanoclaw's composeGroupProjectDoc(group, groupDir, spec, runtimeSkills?)
 * over clawmd's flat document: the same bytes in groupDir/<spec.fileName>
 * wherever no @ directive stands in what the agent wrote (defused there).
 * The row comes from configure()'s getContainerConfig(group.id).  The
 * earlier form's fourth argument, a row or a container.json-shaped object
 * (never a list, so never runtimeSkills), is still taken, as is
 * options.config; options.log overrides the configured logger.  Resolves
 * to what compose did, with `file` and `dropped` (the section names left
 * out for size).
 */
async function composeGroupProjectDoc(group, groupDir, spec, runtimeSkills, options) {
	const folder = group && typeof group === 'object' ? group.folder : undefined;
	if (typeof folder !== 'string')
		throw usage('composeGroupProjectDoc: expected an agent group with a folder', 'folder');
	if (typeof groupDir !== 'string' || !groupDir)
		throw usage('composeGroupProjectDoc: groupDir: expected a path', 'groupDir');
	let config;
	if (runtimeSkills !== undefined && runtimeSkills !== null && !Array.isArray(runtimeSkills)) {
		if (typeof runtimeSkills !== 'object' && typeof runtimeSkills !== 'string')
			throw usage('composeGroupProjectDoc: runtimeSkills: expected a list of skill names', 'runtimeSkills');
		config = runtimeSkills; // the earlier (group, groupDir, spec, config) form
		runtimeSkills = undefined;
	}
	const opts = options && typeof options === 'object' ? options : null;
	if (opts && own(opts, 'config') !== undefined) config = own(opts, 'config');
	const log = (opts && own(opts, 'log')) ?? settings.log;
	// the working directory, asked once a call (each asking is a call
	// into Node's C++): the spec's legacy base, groupDir and the root
	// are all relative to it
	const cwd = process.cwd();
	const contract = specContract(spec, cwd);
	const { dir, name, groupsDir } = groupDirOf(groupDir, cwd);
	const doc = projectDocRoot(contract, groupsDir, cwd);
	const h = doc.handle;
	if (config === undefined && settings.getContainerConfig) {
		config = settings.getContainerConfig(group.id);
		// nanoclaw's reader is async; a synchronous one costs no turn of the loop
		if (config && typeof config.then === 'function') config = await config;
		if (config !== undefined && config !== null && (typeof config !== 'object' || Array.isArray(config)))
			throw usage('getContainerConfig: expected a container_configs row or undefined', 'getContainerConfig');
	}
	const notes = [];
	const cfg = projectDocConfig(config, runtimeSkills, notes);
	// the group's directory name, checked once (the library's check)
	if (!doc.names.has(name)) {
		if (!clawmd.validName(name))
			throw usage(`composeGroupProjectDoc: groupDir '${groupDir}': its name is not a valid group ` +
				'name ([A-Za-z0-9][A-Za-z0-9._-]{0,63})', 'groupDir');
		if (doc.names.size > 65536) doc.names.clear();
		doc.names.set(name, true);
	}
	// made when missing, as nanoclaw's composer does: first seen, made up
	// front; one removed since, after the compose that found it gone
	if (!groupDirs.has(dir)) {
		fs.mkdirSync(dir, { recursive: true });
		if (groupDirs.size > 65536) groupDirs.clear();
		groupDirs.add(dir);
	}
	let r;
	try {
		r = h[composeText](name, cfg); // h.compose(name, { config: cfg }), positional
	} catch (e) {
		if (!(e instanceof ClawmdError) || e.code !== 'EFS' || fs.existsSync(dir)) throw e;
		fs.mkdirSync(dir, { recursive: true });
		r = h[composeText](name, cfg);
	}
	const file = contract.keys.entry;
	r.file = file;
	for (const [m, fields] of notes)
		if (log && typeof log.warn === 'function') log.warn(m, { file, group: group.name, ...fields });
	if (r.warnings.length) logWarnings(log, r, file, group.name, contract);
	else r.dropped = [];
	return r;
}

// nanoclaw's src/project-doc-compose.ts exports, beside the adapter's own
module.exports = { composeGroupClaudeMd, composeGroupProjectDoc, migrateGroupsToClaudeLocal, groupMounts, configure, renderBaseInstructions, renderNativeSkillsSection, BASE_INSTRUCTIONS_PATH, MEMORY_NOTE_PLACEHOLDER, DEFAULT_PROJECT_DOC };
