'use strict';
// What the tests share: the package under test and a scratch ROOT.
const fs = require('fs');
const os = require('os');
const path = require('path');

// make node-test stages the package (build/node/package) and names it.
const pkg = process.env.CLAWMD_NODE_PKG || path.resolve(__dirname, '../../../build/node/package');

function tmpdir(t) {
	const d = fs.mkdtempSync(path.join(os.tmpdir(), 'clawmd-node-'));
	if (t) t.after(() => fs.rmSync(d, { recursive: true, force: true }));
	return d;
}

/* A ROOT with a shared base, skills alpha and beta, and the given groups. */
function makeRoot(t, groups = ['main'], extra = {}) {
	const root = tmpdir(t);
	fs.mkdirSync(path.join(root, 'container'));
	fs.writeFileSync(path.join(root, 'container', 'CLAUDE.md'), '# Shared base\n');
	for (const s of ['alpha', 'beta']) {
		fs.mkdirSync(path.join(root, 'skills', s), { recursive: true });
		fs.writeFileSync(path.join(root, 'skills', s, 'instructions.md'), `Use ${s}.\n`);
	}
	for (const g of groups) fs.mkdirSync(path.join(root, 'groups', g), { recursive: true });
	fs.writeFileSync(path.join(root, 'clawmd.json'), JSON.stringify(extra));
	return root;
}

const read = (...p) => fs.readFileSync(path.join(...p), 'utf8');

module.exports = { pkg, tmpdir, makeRoot, read };
