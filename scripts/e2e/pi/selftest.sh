#!/bin/sh
# The pi harness's own tests, run by run.sh before any release: the mock's
# answers and extract.js on requests shaped as pi 1.5.2 and 1.6.0 send
# them (its own prompt shortened).  Prints TAP.
. "$(dirname "$0")/../lib/selftest.sh"
chat_mock_check
ctx='<project_context>
Project-specific instructions and guidelines:

<project_instructions path="/w/AGENTS.md">
one
</project_instructions>

<project_instructions path="/w/sub/AGENTS.md">
two, no final newline
</project_instructions>
</project_context>'
rec_clear
chat_rec "$T/rec" 001.json "You are pi (shortened).

$ctx

<cwd>
/w/sub
</cwd>" hello
extract_is "extract.js cuts the project context" "$ctx"
rec_clear
chat_rec "$T/rec" 001.json "You are pi (shortened).

<cwd>
/w
</cwd>" hello
extract_is "extract.js: no project context, an empty string" ''
rec_clear
chat_rec "$T/rec" 001.json "You are pi (shortened)." hello
extract_fails 4 'cwd' "extract.js: no <cwd> block is an error"
rec_clear
chat_rec "$T/rec" 001.json "You are pi (shortened)." other
extract_fails 3 '' "extract.js: no turn with the prompt is an error"
tap_end
