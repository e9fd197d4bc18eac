// What every runtime's extract.js shares: its command line and the requests
// mock-api.js recorded.
'use strict';
const fs = require('fs');
const path = require('path');

// [RECORD_DIR, PROMPT, OUT_FILE] from the command line, or exit 2
function args() {
	const [dir, prompt, out] = process.argv.slice(2);
	if (!dir || prompt === undefined || !out) {
		process.stderr.write('usage: extract.js RECORD_DIR PROMPT OUT_FILE\n');
		process.exit(2);
	}
	return [dir, prompt, out];
}

// every request recorded in DIR, in order, as {file, method, url, path (url
// without its query), body}; none when DIR does not exist
function recorded(dir) {
	let files = [];
	try { files = fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort(); } catch (e) { /* none */ }
	return files.map((file) => {
		const r = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
		return Object.assign({ file, path: r.url.split('?')[0] }, r);
	});
}

module.exports = { args, recorded };
