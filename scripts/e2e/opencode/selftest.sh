#!/bin/sh
# The OpenCode harness's own tests, run by run.sh before any release: the
# mock's answers (a streamed chat completion that ends in [DONE], the model
# list) and extract.js on requests shaped as OpenCode 1.18.33 sends them
# (doc/runtime-opencode.md), the agent prompt and skills text shortened.
# Prints TAP.
. "$(dirname "$0")/../lib/selftest.sh"

chat_mock_check

# rec DIR FILE SYSTEM USER: a recorded agent request
rec() {
	mkdir -p "$1"
	node -e 'require("fs").writeFileSync(process.argv[1], JSON.stringify({method: "POST",
		url: "/v1/chat/completions", headers: {}, body: {model: "e2e", stream: true,
		messages: [{role: "system", content: process.argv[2]}, {role: "user", content: process.argv[3]}]}}))' \
		"$1/$2" "$3" "$4"
}
env='You are the agent (shortened).
<env>
  Working directory: /e2e/x
</env>'
skills='Skills provide specialized instructions (shortened).'
parts='Instructions from: /e2e/x/AGENTS.md
one

Instructions from: /e2e/x/CONTEXT.md
no final newline'
rec "$T/a" 001.json 'A title prompt.' hello
rec "$T/a" 002.json "$env
$parts
$skills" hello
node "$here/extract.js" "$T/a" hello "$T/out" >"$T/log" 2>&1 && [ "$(cat "$T/out")" = "$parts" ]
t $? "extract.js cuts the instruction parts, the title request skipped" "$(cat "$T/log")"
rec "$T/b" 001.json "$env
$skills" hello
node "$here/extract.js" "$T/b" hello "$T/out" >"$T/log" 2>&1 && [ ! -s "$T/out" ]
t $? "extract.js: no instructions, an empty string" "$(cat "$T/log")"
rec_clear
rec "$T/rec" 001.json "$env
$parts" hello
extract_fails 4 '' "extract.js: no skills section is an error"
rec_clear
rec "$T/rec" 001.json 'A title prompt.' other
extract_fails 3 '' "extract.js: no agent request is an error"
tap_end
