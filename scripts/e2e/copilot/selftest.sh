#!/bin/sh
# The Copilot CLI harness's own tests, run by run.sh before any release:
# the mock's answers and extract.js on requests shaped as Copilot CLI
# 1.0.102 sends them (its own prompt shortened; the user turn carries the
# date before the prompt).  Prints TAP.
. "$(dirname "$0")/../lib/selftest.sh"
chat_mock_check
ins='<custom_instruction>
one
@./x.md

<imported_custom_instruction source="/w/x.md">
x
</imported_custom_instruction>
</custom_instruction>

<custom_instruction>
two
</custom_instruction>'
user='<current_datetime>2026-11-27T09:51:22.889+00:00</current_datetime>

hello'
rec_clear
chat_rec "$T/rec" 001.json "You are Copilot (shortened).
<tools>
...
</tools>

$ins
<system_notifications>
(shortened)" "$user"
extract_is "extract.js cuts the custom instructions" "$ins"
rec_clear
chat_rec "$T/rec" 001.json "You are Copilot (shortened).
<tools>
...
</tools>


<system_notifications>
(shortened)" "$user"
extract_is "extract.js: no instructions, an empty string" ''
rec_clear
chat_rec "$T/rec" 001.json "You are Copilot (shortened)." "$user"
extract_fails 4 'tools' "extract.js: no tools section is an error"
rec_clear
chat_rec "$T/rec" 001.json "You are Copilot (shortened)." other
extract_fails 3 '' "extract.js: no turn with the prompt is an error"
tap_end
