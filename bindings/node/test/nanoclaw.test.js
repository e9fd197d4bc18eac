'use strict';
// clawmd/nanoclaw: nanoclaw's composer API, rooted at the working directory
// with the nanoclaw preset.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const { pkg, tmpdir, read } = require('./helper.js');
const { composeGroupClaudeMd, migrateGroupsToClaudeLocal } = require(path.join(pkg, 'nanoclaw.js'));
const { ClawmdError } = require(pkg);
const { spawnSync } = require('child_process');
const gitEnv = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t',
	GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };

/* A nanoclaw checkout's shape: container/CLAUDE.md, container/skills,
 * the agent runner's MCP tool modules, groups/. */
function nanoclawTree(t) {
	const root = tmpdir(t);
	const w = (p, s) => {
		fs.mkdirSync(path.dirname(path.join(root, p)), { recursive: true });
		fs.writeFileSync(path.join(root, p), s);
	};
	w('container/CLAUDE.md', '# Base\n');
	w('container/skills/browser/instructions.md', 'Browse.\n');
	w('container/skills/browser/SKILL.md', '---\nname: browser\n---\n');
	w('container/agent-runner/src/mcp-tools/cli.instructions.md', 'CLI.\n');
	w('container/agent-runner/src/mcp-tools/scheduling.instructions.md', 'Schedule.\n');
	w('container/agent-runner/src/mcp-tools/cli.ts', '');
	fs.mkdirSync(path.join(root, 'groups'));
	const cwd = process.cwd();
	process.chdir(root);
	t.after(() => process.chdir(cwd));
	return root;
}

const group = (folder) => ({ id: `ag-${folder}`, name: folder, folder, agent_provider: null, created_at: '2026-01-01T00:00:00.000Z' });

test('composeGroupClaudeMd: the group dir is created, the entry imports base, skills, modules, local', (t) => {
	const root = nanoclawTree(t);
	composeGroupClaudeMd(group('main'));
	const entry = read(root, 'groups/main/CLAUDE.md');
	assert.match(entry, /^<!-- Composed at spawn/);
	const imports = entry.split('\n').filter((l) => l.startsWith('@'));
	assert.deepEqual(imports, ['@./.claude-shared.md', '@./.claude-fragments/skill-browser.md',
		'@./.claude-fragments/module-cli.md', '@./.claude-fragments/module-scheduling.md', '@./CLAUDE.local.md']);
	assert.equal(read(root, 'groups/main/CLAUDE.local.md'), '');
	assert.equal(read(root, 'groups/main/.claude-fragments/module-cli.md'), 'CLI.\n');
	const again = fs.statSync(path.join(root, 'groups/main/CLAUDE.md'));
	composeGroupClaudeMd(group('main'));
	assert.equal(fs.statSync(path.join(root, 'groups/main/CLAUDE.md')).ino, again.ino);
});

test('CLAUDE.role.md is imported when present, after the fragments', (t) => {
	const root = nanoclawTree(t);
	composeGroupClaudeMd(group('main'));
	assert.doesNotMatch(read(root, 'groups/main/CLAUDE.md'), /CLAUDE\.role\.md/);
	fs.writeFileSync(path.join(root, 'groups/main/CLAUDE.role.md'), '# Role\n');
	composeGroupClaudeMd(group('main'));
	const body = read(root, 'groups/main/CLAUDE.md');
	assert.ok(body.indexOf('@./CLAUDE.role.md') > body.indexOf('@./.claude-fragments/'));
	composeGroupClaudeMd(group('main'));
	assert.equal(read(root, 'groups/main/CLAUDE.md'), body);
});

test('a symlinked .claude-fragments throws, and nothing outside is touched', (t) => {
	const root = nanoclawTree(t);
	const outside = tmpdir(t);
	fs.writeFileSync(path.join(outside, 'mount-allowlist.json'), 'keep me');
	fs.mkdirSync(path.join(root, 'groups/main'));
	fs.symlinkSync(outside, path.join(root, 'groups/main/.claude-fragments'), 'dir');
	assert.throws(() => composeGroupClaudeMd(group('main')), /CLAUDE fragment directory.*not a symlink/);
	assert.throws(() => composeGroupClaudeMd(group('main')), (e) => e instanceof ClawmdError && e.exitStatus === 4);
	assert.equal(read(outside, 'mount-allowlist.json'), 'keep me');
	assert.deepEqual(fs.readdirSync(outside), ['mount-allowlist.json']);
	assert.equal(fs.existsSync(path.join(root, 'groups/main/CLAUDE.md')), false);
});

test("the host's config: a container.json object or a container_configs row", (t) => {
	const root = nanoclawTree(t);
	composeGroupClaudeMd(group('main'), { mcpServers: { gh: { command: 'gh', instructions: 'Use gh.' } }, cli_scope: 'disabled' });
	let entry = read(root, 'groups/main/CLAUDE.md');
	assert.match(entry, /mcp-gh\.md/);
	assert.doesNotMatch(entry, /module-cli/);
	composeGroupClaudeMd(group('main'), { agent_group_id: 'ag-main', skills: '"all"', mcp_servers: '{}', cli_scope: null });
	entry = read(root, 'groups/main/CLAUDE.md');
	assert.doesNotMatch(entry, /mcp-gh/);
	assert.match(entry, /module-cli/);
	assert.throws(() => composeGroupClaudeMd(group('main'), { mcp_servers: '{' }), (e) => e.code === 'EINPUT' && e.key === 'mcp_servers');
	assert.throws(() => composeGroupClaudeMd(group('main'), { skills: ['../x'] }), (e) => e.code === 'EINPUT' && e.exitStatus === 3);
});

test('a codex group gets AGENTS.md, an opencode one CLAUDE.md, all inlined; back to claude, AGENTS.md goes', (t) => {
	const root = nanoclawTree(t);
	composeGroupClaudeMd(group('main'), { provider: 'codex' });
	const agents = read(root, 'groups/main/AGENTS.md');
	assert.match(agents, /^<!-- Composed at spawn/);
	assert.match(agents, /<!-- from \/app\/CLAUDE\.md -->\n# Base\n/);
	assert.match(agents, /<!-- from \/app\/skills\/browser\/instructions\.md -->\nBrowse\.\n/);
	assert.match(agents, /<!-- from \/app\/src\/mcp-tools\/scheduling\.instructions\.md -->\nSchedule\.\n/);
	assert.doesNotMatch(agents, /^@/m);
	// nanoclaw's OpenCode contract: Claude's document, CLAUDE.md, every part
	// inlined (OpenCode follows no import), the memory its own to read
	composeGroupClaudeMd(group('main'), { provider: 'opencode' });
	const claude = read(root, 'groups/main/CLAUDE.md');
	assert.match(claude, /<!-- from \/app\/CLAUDE\.md -->\n# Base\n/);
	assert.match(claude, /<!-- from \/app\/skills\/browser\/instructions\.md -->\nBrowse\.\n/);
	assert.doesNotMatch(claude, /^@/m);
	assert.equal(fs.existsSync(path.join(root, 'groups/main/AGENTS.md')), false);
	// an unknown provider composes the default (Claude) surfaces, as nanoclaw spawns it
	const r = composeGroupClaudeMd(group('main'), { provider: 'codx' });
	assert.ok(r.warnings.some((w) => /unknown provider 'codx' \(did you mean 'codex'\?\)/.test(w)));
	assert.equal(fs.existsSync(path.join(root, 'groups/main/AGENTS.md')), false);
	composeGroupClaudeMd(group('main'), { provider: 'codex' });
	composeGroupClaudeMd(group('main'), {});
	assert.equal(fs.existsSync(path.join(root, 'groups/main/AGENTS.md')), false);
});

test('a symlinked group directory is refused, not followed', (t) => {
	const root = nanoclawTree(t);
	const outside = tmpdir(t);
	fs.symlinkSync(outside, path.join(root, 'groups/linked'));
	assert.throws(() => composeGroupClaudeMd(group('linked')), (e) => e.code === 'EFS' && e.exitStatus === 4);
	assert.deepEqual(fs.readdirSync(outside), []);
});

test('bad groups throw before anything is created', (t) => {
	const root = nanoclawTree(t);
	assert.throws(() => composeGroupClaudeMd(group('../escape')), (e) => e.code === 'EINPUT');
	assert.equal(fs.existsSync(path.join(root, 'escape')), false);
	assert.throws(() => composeGroupClaudeMd({ folder: 'a\0b' }), (e) => e.code === 'EINPUT');
	assert.throws(() => composeGroupClaudeMd(), (e) => e.code === 'EUSAGE');
	assert.throws(() => composeGroupClaudeMd({ folder: 3 }), (e) => e.code === 'EUSAGE');
	assert.deepEqual(fs.readdirSync(path.join(root, 'groups')), []);
});

test('migrateGroupsToClaudeLocal: the legacy layout, once', (t) => {
	const root = nanoclawTree(t);
	fs.mkdirSync(path.join(root, 'groups/global'));
	fs.writeFileSync(path.join(root, 'groups/global/CLAUDE.md'), '# Base\n');
	fs.mkdirSync(path.join(root, 'groups/main'));
	fs.writeFileSync(path.join(root, 'groups/main/CLAUDE.md'), '@./.claude-global.md\n# Mine\n');
	fs.symlinkSync('/workspace/global/CLAUDE.md', path.join(root, 'groups/main/.claude-global.md'));
	migrateGroupsToClaudeLocal();
	assert.equal(fs.existsSync(path.join(root, 'groups/global')), false);
	assert.equal(fs.existsSync(path.join(root, 'groups/main/.claude-global.md')), false);
	assert.match(read(root, 'groups/main/CLAUDE.local.md'), /# Mine/);
	migrateGroupsToClaudeLocal();
	composeGroupClaudeMd(group('main'));
	assert.match(read(root, 'groups/main/CLAUDE.local.md'), /# Mine/);
});

test('migrateGroupsToClaudeLocal: a git-tracked container/CLAUDE.md is left as it is; the warning reaches the logger', { skip: spawnSync('git', ['--version']).status !== 0 && 'no git' }, (t) => {
	const root = nanoclawTree(t);
	fs.mkdirSync(path.join(root, 'groups/global'));
	fs.writeFileSync(path.join(root, 'groups/global/CLAUDE.md'), '# Base\n\nAnswer in French.\n');
	const git = (...a) => spawnSync('git', ['-C', root, ...a], { encoding: 'utf8', env: gitEnv });
	git('init', '-q');
	git('add', 'container');
	git('commit', '-qm', 'checkout');
	const warned = [];
	const res = migrateGroupsToClaudeLocal({ log: { warn: (m, f) => warned.push([m, f]) } });
	assert.equal(read(root, 'container/CLAUDE.md'), '# Base\n');
	assert.equal(git('status', '--porcelain', '--untracked-files=no').stdout, '');
	assert.match(read(root, 'container/CLAUDE.md.clawmd-review'), /^<!-- clawmd migrate: carried from groups\/global\/CLAUDE\.md \(fnv1a64=[0-9a-f]{16}\) -->\nAnswer in French\.\n$/);
	assert.ok(res.actions.some((a) => a.action === 'review-base' && a.dest === 'container/CLAUDE.md.clawmd-review'));
	assert.ok(warned.some(([m]) => /^container\/CLAUDE\.md is tracked by git, so migrate left it unchanged: .* are in container\/CLAUDE\.md\.clawmd-review/.test(m)),
		JSON.stringify(warned));
	assert.deepEqual(warned.map(([m]) => m), res.warnings);
});

test('no groups directory: migrate does nothing', (t) => {
	const root = nanoclawTree(t);
	fs.rmdirSync(path.join(root, 'groups'));
	migrateGroupsToClaudeLocal();
	assert.equal(fs.existsSync(path.join(root, 'groups')), false);
});

test('a working directory inside a group is refused, nothing read or written (issue 28 item 11)', (t) => {
	const root = nanoclawTree(t);
	composeGroupClaudeMd(group('main'));
	const entry = read(root, 'groups/main/CLAUDE.md');
	// The agent plants a layout of its own in its group, the host starts there.
	const elsewhere = tmpdir(t);
	fs.writeFileSync(path.join(root, 'groups/main/clawmd.json'), JSON.stringify({ groups: elsewhere }));
	fs.mkdirSync(path.join(root, 'groups/main/sub'));
	for (const dir of ['groups/main', 'groups/main/sub']) {
		process.chdir(path.join(root, dir));
		assert.throws(() => composeGroupClaudeMd(group('main')),
			(e) => e instanceof ClawmdError && e.code === 'EFS' && e.exitStatus === 4 &&
				/inside a group/.test(e.message), dir);
		assert.throws(() => migrateGroupsToClaudeLocal(), (e) => e.exitStatus === 4, dir);
	}
	assert.deepEqual(fs.readdirSync(elsewhere), []);
	assert.equal(read(root, 'groups/main/CLAUDE.md'), entry);
	process.chdir(root);
	composeGroupClaudeMd(group('main')); // from ROOT, as before
});

test('a polluted Object.prototype neither names a folder nor makes a row (issue 28 item 4)', (t) => {
	const root = nanoclawTree(t);
	Object.prototype.folder = 'main';
	Object.prototype.agent_group_id = 'x';
	Object.prototype.skills = '["evil"]';
	try {
		assert.throws(() => composeGroupClaudeMd({}), (e) => e.code === 'EUSAGE');
		composeGroupClaudeMd(group('main'), { mcpServers: {} });
	} finally {
		delete Object.prototype.folder;
		delete Object.prototype.agent_group_id;
		delete Object.prototype.skills;
	}
	assert.doesNotMatch(read(root, 'groups/main/CLAUDE.md'), /evil/);
	assert.equal(fs.existsSync(path.join(root, 'groups/other')), false);
});

test('groupMounts: the group rw, the composed files ro over it, the runner\'s /app mounts ro', (t) => {
	const root = nanoclawTree(t);
	const { groupMounts } = require(path.join(pkg, 'nanoclaw.js'));
	fs.mkdirSync(path.join(root, 'groups/main'));
	assert.throws(() => groupMounts(group('main')), (e) => e instanceof ClawmdError && e.exitStatus === 4 &&
		/not there yet/.test(e.message));
	composeGroupClaudeMd(group('main'));
	const g = fs.realpathSync(path.join(root, 'groups/main'));
	const r = fs.realpathSync(root);
	assert.deepEqual(groupMounts(group('main')), [
		{ hostPath: g, containerPath: '/workspace/agent', readonly: false },
		{ hostPath: `${g}/.claude-fragments`, containerPath: '/workspace/agent/.claude-fragments', readonly: true },
		{ hostPath: `${g}/.claude-shared.md`, containerPath: '/workspace/agent/.claude-shared.md', readonly: true },
		{ hostPath: `${g}/CLAUDE.md`, containerPath: '/workspace/agent/CLAUDE.md', readonly: true },
		{ hostPath: `${r}/container/CLAUDE.md`, containerPath: '/app/CLAUDE.md', readonly: true },
		{ hostPath: `${r}/container/skills`, containerPath: '/app/skills', readonly: true },
		{ hostPath: `${r}/container/agent-runner/src`, containerPath: '/app/src', readonly: true },
	]);
	// the agent swapped its entry for a link to a host file: refused
	fs.renameSync(path.join(g, 'CLAUDE.md'), path.join(g, 'CLAUDE.md.old'));
	fs.symlinkSync('/etc/hostname', path.join(g, 'CLAUDE.md'));
	assert.throws(() => groupMounts(group('main')), (e) => e instanceof ClawmdError && e.code === 'EFS');
	assert.throws(() => groupMounts({}), (e) => e instanceof ClawmdError && e.code === 'EUSAGE');
	assert.throws(() => groupMounts(group('nope')), (e) => e instanceof ClawmdError && e.exitStatus === 4);
});

// nanoclaw builds -v HOST:CONTAINER:ro from the paths (issue 39 item 9)
for (const bad of ['a:b', 'a,b']) test(`groupMounts: a ROOT docker -v cannot carry ('${bad}') is refused, as mounts --format docker refuses it`, (t) => {
	{
		const parent = nanoclawTree(t);
		const root = path.join(parent, bad);
		fs.mkdirSync(root);
		for (const f of ['container', 'groups'])
			fs.renameSync(path.join(parent, f), path.join(root, f));
		process.chdir(root);
		const { groupMounts } = require(path.join(pkg, 'nanoclaw.js'));
		composeGroupClaudeMd(group('main'));
		assert.throws(() => groupMounts(group('main')), (e) => e instanceof ClawmdError &&
			e.code === 'EINPUT' && e.exitStatus === 3 && /docker's -v cannot carry/.test(e.message));
		process.chdir(parent);
	}
});
