'use strict';
// The package: the clawmd command it carries, and an offline install of
// the npm pack tarball with the prebuilt addon.
const test = require('node:test');
const assert = require('node:assert/strict');
const { execFileSync, spawnSync } = require('child_process');
const fs = require('fs');
const path = require('path');
const { pkg, tmpdir, makeRoot, read } = require('./helper.js');

const has = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
// The command runs without the LD_PRELOAD that make check's sanitizer pass
// gives node for the addon (tests/t60-node.sh): that build's programs carry
// their own static copy of the sanitizer runtime, which refuses a second.
const cmdEnv = { ...process.env };
delete cmdEnv.LD_PRELOAD;

test('the package carries the clawmd command', (t) => {
	const root = makeRoot(t);
	const bin = require(pkg).bin;
	const out = execFileSync(bin, ['-C', root, 'compose', 'main'], { encoding: 'utf8', env: cmdEnv });
	assert.equal(out, '');
	assert.match(read(root, 'groups/main/CLAUDE.md'), /^<!-- Composed at spawn/);
	const r = spawnSync(bin, ['-C', root, 'compose', '--check', '--json', 'main'], { encoding: 'utf8', env: cmdEnv });
	assert.equal(r.status, 0, r.stderr);
	assert.equal(JSON.parse(r.stdout).changed, false);
	assert.equal(spawnSync(bin, ['-C', root, 'compose', 'no/such'], { encoding: 'utf8', env: cmdEnv }).status, 3);
});

test('npm pack installs offline; require, import and npx clawmd work', { skip: !has('npm') && 'no npm' }, (t) => {
	const dir = tmpdir(t);
	const npmEnv = { npm_config_cache: path.join(dir, 'cache'), npm_config_update_notifier: 'false' };
	// npm pack and npx load no addon: they run without the sanitizer
	// preload, which makes node itself several times slower.
	const env = { ...cmdEnv, ...npmEnv };
	const tgz = execFileSync('npm', ['pack', '--silent', '--pack-destination', dir, pkg], { encoding: 'utf8', env }).trim().split('\n').pop();
	const app = path.join(dir, 'app');
	fs.mkdirSync(app);
	fs.writeFileSync(path.join(app, 'package.json'), '{"name": "app", "version": "1.0.0", "private": true}');
	// the install script loads the addon
	execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', path.join(dir, tgz)], { cwd: app, env: { ...process.env, ...npmEnv }, stdio: 'pipe' });
	const installed = path.join(app, 'node_modules', 'clawmd');
	assert.ok(fs.existsSync(path.join(installed, 'prebuilds/linux-x64/clawmd.node')));
	assert.equal(fs.existsSync(path.join(installed, 'build', 'clawmd.node')), false, 'the prebuilt was kept');
	const root = makeRoot(t);
	const script = `const c = require('clawmd'); const h = c.open(${JSON.stringify(root)});
		console.log(JSON.stringify(h.compose('main').changed)); h.close();
		import('clawmd/nanoclaw').then((n) => console.log(typeof n.composeGroupClaudeMd));`;
	assert.equal(execFileSync(process.execPath, ['-e', script], { cwd: app, encoding: 'utf8' }), 'true\nfunction\n');
	const out = execFileSync('npx', ['--offline', 'clawmd', '-C', root, 'status', '--json'], { cwd: app, env, encoding: 'utf8' });
	assert.equal(JSON.parse(out).groups[0].drift, 'clean');
});

test('the build from source installs no system package: it names what is missing (issue 28 item 11)', (t) => {
	const dir = tmpdir(t);
	const copy = path.join(dir, 'pkg');
	fs.cpSync(pkg, copy, { recursive: true });
	// No prebuilt addon for this platform: the install builds from source.
	fs.rmSync(path.join(copy, 'prebuilds'), { recursive: true, force: true });
	// Every tool that could install something, and every probe, is ours:
	// pkg-config and dpkg-query find nothing, sudo and apt-get record.
	const bin = path.join(dir, 'bin');
	const calls = path.join(dir, 'calls');
	fs.mkdirSync(bin);
	for (const [name, body] of [['pkg-config', '[ "$1" = --version ] && echo 1.8.1 || exit 1'], ['dpkg-query', 'exit 1'], ['id', 'echo 1000'],
		['sudo', `echo sudo "$@" >>${calls}; exit 1`], ['apt-get', `echo apt-get "$@" >>${calls}; exit 1`]]) {
		fs.writeFileSync(path.join(bin, name), `#!/bin/sh\n${body}\n`);
		fs.chmodSync(path.join(bin, name), 0o755);
	}
	const r = spawnSync(process.execPath, [path.join(copy, 'install.js')], {
		encoding: 'utf8', cwd: copy,
		env: { ...cmdEnv, PATH: `${bin}:${process.env.PATH}` },
	});
	assert.equal(fs.existsSync(calls) ? read(calls) : '', '', 'sudo or apt-get ran');
	assert.equal(r.status, 1, r.stderr);
	assert.match(r.stderr, /missing libgit2 \(pkg-config\), yaml-0\.1 \(pkg-config\), libcjson \(pkg-config\), md4c/);
	assert.ok(r.stderr.includes(`no prebuilt addon for ${process.platform}-${process.arch}; building from source`), r.stderr);
	assert.match(r.stderr, /does not install system packages/);
	assert.match(r.stderr, /sudo apt-get install libgit2-dev libyaml-dev libcjson-dev libmd4c-dev/);
	assert.equal(fs.existsSync(path.join(copy, 'build', 'clawmd.node')), false);
});
