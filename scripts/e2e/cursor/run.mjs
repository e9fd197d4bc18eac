// One headless run of the Cursor SDK's local agent, for make e2e: the
// agent of the working directory sends "PROMPT" and the run's end is
// awaited (the mock ends it once the client has sent its rules).
//
//   node run.mjs SDK_DIR PROMPT [--setting-sources LIST]
//
// SDK_DIR is the installed @cursor/sdk; LIST (comma-separated user,
// project, all; default all) is the agent's local.settingSources: without
// project or all it sends no rules.  Environment: CURSOR_BACKEND_URL,
// CURSOR_API_KEY.  HTTP/1 for the agent stream, as the mock speaks it.
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [sdk, prompt, ...rest] = process.argv.slice(2);
let sources = ['all'];
for (let i = 0; i < rest.length; i++) {
	if (rest[i] === '--setting-sources' && i + 1 < rest.length) sources = rest[++i].split(',').filter(Boolean);
	else { console.error(`run.mjs: unknown argument ${rest[i]}`); process.exit(2); }
}
const { Agent, configureCursorSdk } = await import(pathToFileURL(path.join(sdk, 'dist/esm/index.js')).href);
configureCursorSdk({ local: { useHttp1ForAgent: true } });
const agent = await Agent.create({
	apiKey: process.env.CURSOR_API_KEY,
	model: { id: 'composer-2' },
	local: { cwd: process.cwd(), settingSources: sources },
});
const run = await agent.send(prompt);
const result = await run.wait();
// no model answers: the run ends in the mock's error, which is expected
console.log(`run ended: ${result && result.status}`);
process.exit(0);
