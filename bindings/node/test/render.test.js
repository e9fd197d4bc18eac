'use strict';
// handle.render() shows what `clawmd render --group G` shows: one setup of a
// group's render (clawmd_render_setup) behind both.  Each case runs the
// command as a child process and compares.
const test = require('node:test');
const assert = require('node:assert/strict');
const { spawnSync } = require('child_process');
const fs = require('fs');
const path = require('path');
const { pkg, makeRoot } = require('./helper.js');
const clawmd = require(pkg);
// The command runs without the LD_PRELOAD a sanitizer build gives node for
// the addon (package.test.js says why).
const cmdEnv = { ...process.env };
delete cmdEnv.LD_PRELOAD;

function cli(root, ...args) {
	const r = spawnSync(clawmd.bin, ['-C', root, 'render', ...args], { env: cmdEnv, encoding: 'utf8' });
	assert.equal(r.status, 0, r.stderr);
	return r;
}

// render --json's keys as the binding spells them (external_includes ->
// externalIncludes), without the envelope (tool, version).
function camel(v) {
	if (Array.isArray(v)) return v.map(camel);
	if (v === null || typeof v !== 'object') return v;
	const o = {};
	for (const [k, x] of Object.entries(v))
		o[k.replace(/_([a-z])/g, (_, c) => c.toUpperCase())] = camel(x);
	return o;
}
function cliJson(root, group) {
	const d = camel(JSON.parse(cli(root, '--group', group, '--json').stdout));
	delete d.tool;
	delete d.version;
	return d;
}

const write = (root, rel, text) => {
	fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
	fs.writeFileSync(path.join(root, rel), text);
};

/* A nanoclaw host as today: the runner with its memory hook (mounted at
 * /app/src/memory/hook.ts), a pinned Claude Code, the agent's memory. */
function nanoclawRoot(t, extra = {}) {
	const root = makeRoot(t, ['main', 'cx'], { preset: 'nanoclaw', document: 'flat', ...extra });
	write(root, 'container/agent-runner/src/memory/hook.ts', '// registered as SessionStart\n');
	write(root, 'container/cli-tools.json', JSON.stringify([
		{ name: 'agent-browser', version: '0.27.1' },
		{ name: '@anthropic-ai/claude-code', version: '2.1.257' },
	]));
	write(root, 'groups/main/memory/index.md', '\n\n# Memory index\n\nThe owner prefers French.\n\n');
	write(root, 'groups/main/memory/system/definition.md', '# Definition\n' + 'd'.repeat(20000) + '\n');
	write(root, 'groups/main/CLAUDE.local.md', 'Local notes.\n');
	write(root, 'groups/main/AGENTS.md', 'Agents notes.\n');
	write(root, 'groups/cx/container.json', '{"provider": "codex"}');
	return root;
}

test('a nanoclaw host: the pin, the hook\'s sources and memory, as render --group --json', (t) => {
	const root = nanoclawRoot(t);
	const h = clawmd.open(root);
	t.after(() => h.close());
	h.compose('main');
	h.compose('cx');
	const j = h.render('main', { format: 'json' });
	assert.equal(j.claudeVersion, '2.1.257');
	assert.equal(j.claudeVersionFrom, 'pinned by container/cli-tools.json');
	assert.deepEqual(j.settingSources, ['project', 'user', 'local']);
	assert.match(j.settingSourcesFrom, /memory hook \(\/app\/src\/memory\/hook\.ts\)/);
	assert.equal(j.sessionStart.hook, '/app/src/memory/hook.ts');
	assert.equal(j.sessionStart.maxChars, 16000);
	const [index, def] = j.sessionStart.files;
	assert.deepEqual(index, { path: '/workspace/agent/memory/index.md', available: true, chars: 41,
		truncated: false, text: '# Memory index\n\nThe owner prefers French.' });
	assert.equal(def.truncated, true);
	assert.equal(def.chars, 20013);
	assert.match(def.text, /\n\[truncated: slim this file/);
	// 2.1.257 has no AGENTS.md loading; the local source loads CLAUDE.local.md
	assert.equal(j.instructionFiles, null);
	assert.ok(j.files.some((f) => f.type === 'Local' && f.path === '/workspace/agent/CLAUDE.local.md'));
	assert.deepEqual(j, cliJson(root, 'main'));

	// the text and the files, as the command prints them
	assert.equal(h.render('main'), cli(root, '-q', '--group', 'main').stdout);
	const rows = h.render('main', { format: 'files' }).map((f) => [f.type, f.path, f.parent ?? '-'].join('\t'));
	assert.deepEqual(rows, cli(root, '--group', 'main', '--format', 'files').stdout.trimEnd().split('\n'));
	assert.deepEqual(rows.slice(-2), ['Hook\t/workspace/agent/memory/index.md\t/app/src/memory/hook.ts',
		'Hook\t/workspace/agent/memory/system/definition.md\t/app/src/memory/hook.ts']);

	// Codex: the hook is the runner's for it too; no release, no sources
	const cx = h.render('cx', { format: 'json' });
	assert.equal(cx.sessionStart.files.length, 2);
	assert.equal('claudeVersion' in cx, false);
	assert.equal('settingSources' in cx, false);
	assert.deepEqual(cx, cliJson(root, 'cx'));

	// the agent's memory may hold anything: a NUL byte, quotes, an escape
	write(root, 'groups/main/memory/index.md', 'before\0after "q" \\ \x1b[31m\n');
	const nul = h.render('main', { format: 'json' });
	assert.equal(nul.sessionStart.files[0].text, 'before\0after "q" \\ \x1b[31m');
	assert.deepEqual(nul, cliJson(root, 'main'));
});

test('clawmd.json\'s release and sources stand over the pin; the AGENTS.md fields', (t) => {
	const root = nanoclawRoot(t, { claude_version: '2.1.330', setting_sources: 'project,user' });
	const h = clawmd.open(root);
	t.after(() => h.close());
	h.compose('main');
	const j = h.render('main', { format: 'json' });
	assert.equal(j.claudeVersion, '2.1.330');
	assert.equal(j.claudeVersionFrom, 'claude_version in clawmd.json (container/cli-tools.json pins 2.1.257)');
	assert.deepEqual(j.settingSources, ['project', 'user']);
	assert.equal(j.settingSourcesFrom, 'setting_sources in clawmd.json');
	// 2.1.330 loads AGENTS.md where no CLAUDE.md applies: here one does
	assert.equal(j.instructionFiles, 'claude-md-or-agents-md');
	assert.deepEqual(j.agentsMd, [{ path: '/workspace/agent/AGENTS.md', loaded: false }]);
	assert.equal(j.agentsMdOffBy, '/workspace/agent/CLAUDE.md');
	assert.deepEqual(j, cliJson(root, 'main'));
	// no hook script in the container: the preset's sources, no hook
	fs.rmSync(path.join(root, 'container/agent-runner/src/memory/hook.ts'));
	const none = h.render('main', { format: 'json' });
	assert.equal(none.sessionStart, null);
	assert.deepEqual(none, cliJson(root, 'main'));
});

test('a host\'s broken pin is the command\'s error (EINPUT, exit status 3)', (t) => {
	const root = nanoclawRoot(t);
	write(root, 'container/cli-tools.json', '[{"name": "@anthropic-ai/claude-code", "version": "^2.1"}]');
	const h = clawmd.open(root);
	t.after(() => h.close());
	assert.throws(() => h.render('main'), (e) => e.code === 'EINPUT' && e.exitStatus === 3 &&
		/cli-tools\.json': @anthropic-ai\/claude-code's version: expected a release/.test(e.message));
	const r = spawnSync(clawmd.bin, ['-C', root, 'render', '--group', 'main'], { env: cmdEnv, encoding: 'utf8' });
	assert.equal(r.status, 3);
});

test('a provider clawmd.json defines loads by the rules of the one it is like', (t) => {
	const root = makeRoot(t, ['main'], { providers: { manifest: { like: 'codex', title: 'Manifest' } } });
	write(root, 'groups/main/container.json', '{"provider": "manifest"}');
	write(root, 'groups/main/CLAUDE.local.md', 'Remember: tea.\n');
	const h = clawmd.open(root);
	t.after(() => h.close());
	h.compose('main');
	const text = h.render('main');
	assert.match(text, /^Remember: tea\.$/m);
	assert.equal(text, cli(root, '--group', 'main').stdout);
	const j = h.render('main', { format: 'json' });
	assert.deepEqual(j.files.map((f) => f.path), ['/workspace/agent/AGENTS.md']);
	assert.deepEqual(j, cliJson(root, 'main'));
	// a runtime given stands over the group's
	assert.equal(h.render('main', { runtime: 'claude' }),
		cli(root, '--group', 'main', '--runtime', 'claude').stdout);
});

test('runtime chimera: a file that is not UTF-8 makes it send nothing, and json says why', (t) => {
	const root = makeRoot(t);
	const h = clawmd.open(root);
	t.after(() => h.close());
	h.compose('main');
	fs.writeFileSync(path.join(root, 'groups/main/CLAUDE.local.md'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
	assert.equal(h.render('main', { runtime: 'chimera' }), '');
	const j = h.render('main', { runtime: 'chimera', format: 'json' });
	assert.match(j.failed, /^chimera raises UnicodeDecodeError reading '\/workspace\/agent\/CLAUDE\.local\.md'/);
	assert.equal(h.render('main', { runtime: 'caliban', format: 'json' }).failed, undefined);
});

test('runtime: every provider of the contract table is known; an unknown one is named', (t) => {
	const root = makeRoot(t);
	const h = clawmd.open(root);
	t.after(() => h.close());
	h.compose('main');
	for (const rt of ['claude', 'codex', 'gemini', 'opencode', 'cursor', 'copilot', 'ollama', 'pi', 'qwen', 'mock', 'caliban', 'chimera'])
		assert.equal(typeof h.render('main', { runtime: rt }), 'string', rt);
	assert.throws(() => h.render('main', { runtime: 'cursr' }), (e) => e.code === 'EUSAGE' && e.key === 'runtime' &&
		e.message === "runtime: unknown runtime 'cursr'; did you mean 'cursor'? (claude, codex, gemini, " +
			'opencode, cursor, copilot, ollama, pi, qwen, mock, caliban or chimera)');
	assert.throws(() => h.render('main', { home: 'home/node' }),
		(e) => e.code === 'EUSAGE' && e.key === 'home' && /a container path, absolute/.test(e.message));
});
