'use strict';
/*
 * npm install: keep the prebuilt addon when it loads here; otherwise build
 * the addon (and the clawmd command) from the C sources under src/, which
 * needs a C compiler, make, pkg-config, Node's headers and the libraries'
 * development packages (libgit2, libyaml, libcjson, md4c).  An npm install
 * never installs system packages: what is missing is named, with the
 * command that installs it, and the install fails; make runs with
 * INSTALL_DEPS=no, so it never runs apt-get (nor sudo) either.
 */
const { execFileSync, spawnSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const here = __dirname;
const prebuilt = path.join(here, 'prebuilds', `${process.platform}-${process.arch}`, 'clawmd.node');

function loads(file) {
	try {
		require(file);
		return null;
	} catch (e) {
		return e.message;
	}
}

const why = fs.existsSync(prebuilt) ? loads(prebuilt) : `no prebuilt addon for ${process.platform}-${process.arch}`;
if (!why && !process.env.CLAWMD_BUILD_FROM_SOURCE) process.exit(0);

console.error(`clawmd: ${why || 'CLAWMD_BUILD_FROM_SOURCE is set'}; building from source`);

/* What the build needs that is not here: [what, Debian package]. */
function missing() {
	const runs = (cmd, args) => spawnSync(cmd, args, { stdio: 'ignore' }).status === 0;
	const need = [];
	if (!runs('sh', ['-c', 'command -v "${CC:-cc}"'])) need.push(['a C compiler (cc)', 'gcc']);
	if (!runs('make', ['--version'])) need.push(['make', 'make']);
	if (!runs('pkg-config', ['--version'])) need.push(['pkg-config', 'pkg-config']);
	for (const [pc, deb] of [['libgit2', 'libgit2-dev'], ['yaml-0.1', 'libyaml-dev'],
		['libcjson', 'libcjson-dev'], ['md4c', 'libmd4c-dev']])
		if (!runs('pkg-config', ['--exists', pc])) need.push([`${pc} (pkg-config)`, deb]);
	const inc = [path.join(path.dirname(process.execPath), '..', 'include', 'node'), '/usr/include/node',
		'/usr/local/include/node'];
	if (!inc.some((d) => fs.existsSync(path.join(d, 'node_api.h'))))
		need.push(["Node's headers (node_api.h)", 'libnode-dev']);
	return need;
}

const need = missing();
if (need.length) {
	console.error(`clawmd: cannot build from source: missing ${need.map((n) => n[0]).join(', ')}.\n` +
		'  npm install does not install system packages; install them, then run npm install again ' +
		`(Debian, Ubuntu: sudo apt-get install ${need.map((n) => n[1]).join(' ')})`);
	process.exit(1);
}
const src = path.join(here, 'src');
const make = (args) => execFileSync('make', ['-C', src, `-j${Math.min(os.cpus().length, 4)}`, `NODE=${process.execPath}`,
	'INSTALL_DEPS=no', ...args], { stdio: 'inherit' });
try {
	make(['BUILD=build', 'build/node/clawmd.node', 'build/bin/clawmd', 'build/libexec/clawmd/clawmd']);
} catch (e) {
	console.error('clawmd: the build from source failed: it needs cc, make, pkg-config, ' +
		"Node's headers (node_api.h) and libgit2, libyaml, libcjson and md4c with their headers");
	process.exit(1);
}
fs.mkdirSync(path.join(here, 'build'), { recursive: true });
fs.copyFileSync(path.join(src, 'build/node/clawmd.node'), path.join(here, 'build', 'clawmd.node'));
for (const f of ['bin/clawmd', 'libexec/clawmd/clawmd']) {
	fs.mkdirSync(path.dirname(path.join(here, f)), { recursive: true });
	fs.copyFileSync(path.join(src, 'build', f), path.join(here, f));
	fs.chmodSync(path.join(here, f), 0o755);
}
fs.rmSync(path.join(src, 'build'), { recursive: true, force: true });
const still = loads(path.join(here, 'build', 'clawmd.node'));
if (still) {
	console.error(`clawmd: the addon built from source does not load: ${still}`);
	process.exit(1);
}
