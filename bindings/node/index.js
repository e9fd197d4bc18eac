'use strict';
/*
 * clawmd for Node: the addon (src/, addon.h lists its files) and the error class it throws.
 *
 *	const clawmd = require('clawmd');
 *	const root = clawmd.open('/srv/nanoclaw', { preset: 'nanoclaw', watch: true });
 *	const r = root.compose('main');      // { group, changed, changes, warnings }
 *	root.close();
 *
 * The addon is looked for where an install that built it from source put
 * it (build/clawmd.node), then among the prebuilt ones
 * (prebuilds/<platform>-<arch>/clawmd.node); CLAWMD_NODE_ADDON names one.
 */
const path = require('path');

class ClawmdError extends Error {
	constructor(message, props) {
		super(message);
		this.name = 'ClawmdError';
		// Own properties only: a polluted Object.prototype adds no path or key.
		const p = props || {};
		const own = (k) => (Object.prototype.hasOwnProperty.call(p, k) ? p[k] : undefined);
		this.code = own('code') || 'EFS';
		this.exitStatus = own('exitStatus') === undefined ? 4 : own('exitStatus');
		if (own('path') !== undefined) this.path = own('path');
		if (own('key') !== undefined) this.key = own('key');
		if (own('errno') !== undefined) this.errno = own('errno');
	}
}

function candidates() {
	const list = [];
	if (process.env.CLAWMD_NODE_ADDON) list.push(path.resolve(process.env.CLAWMD_NODE_ADDON));
	list.push(path.join(__dirname, 'build', 'clawmd.node'));
	list.push(path.join(__dirname, 'prebuilds', `${process.platform}-${process.arch}`, 'clawmd.node'));
	return list;
}

function load() {
	const tried = [];
	for (const file of candidates()) {
		try {
			return require(file);
		} catch (e) {
			if (e.code === 'MODULE_NOT_FOUND' && String(e.message).includes(file)) {
				tried.push(`${file}: not there`);
				continue;
			}
			tried.push(`${file}: ${e.message}`);
		}
	}
	throw new ClawmdError(`clawmd: no addon loads on ${process.platform}-${process.arch} ` +
		`(reinstall to build it from source):\n  ${tried.join('\n  ')}`, { code: 'EFS', exitStatus: 4 });
}

const binding = load();
binding.setErrorClass(ClawmdError);

/**
 * Open a root (ROOT, its clawmd.json, then `options`, the layout keys as
 * clawmd.json names them; `watch: true` for the inotify-watched pass).
 */
function open(root, options) {
	return binding.open(root, options);
}

module.exports = {
	open,
	ClawmdError,
	version: binding.version,
	/** True for a valid group, skill, module or server name (the library's check). */
	validName: binding.validName,
	/** The clawmd command this package carries. */
	bin: path.join(__dirname, 'bin', 'clawmd'),
	Handle: binding.Handle,
};
// The adapter's compose (nanoclaw.js): a symbol-keyed method of Handle,
// not enumerable, so no API beside compose() (src/compose.c says why).
Object.defineProperty(module.exports, 'composeText', { value: binding.composeText });
