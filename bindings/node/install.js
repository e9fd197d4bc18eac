'use strict';
/*
 * npm install: keep the prebuilt addon when it loads here; otherwise build
 * the addon (and the clawmd command) from the C sources under src/, which
 * needs a C compiler, make, pkg-config, Node's headers and the libraries'
 * development packages (libgit2, libyaml, libcjson, md4c).
 */
const { execFileSync } = require('child_process');
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
const src = path.join(here, 'src');
const make = (args) => execFileSync('make', ['-C', src, `-j${Math.min(os.cpus().length, 4)}`, `NODE=${process.execPath}`, ...args], { stdio: 'inherit' });
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
