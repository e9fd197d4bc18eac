#!/bin/sh
# The Qwen Code harness's own tests, run by run.sh before any release: the
# mock's answers and extract.js on requests shaped as Qwen Code 0.24.4
# sends them (its own prompt and memory sections shortened).  Prints TAP.
. "$(dirname "$0")/../lib/selftest.sh"
chat_mock_check
ctx='--- Context from: QWEN.md ---
one
--- End of Context from: QWEN.md ---

--- Context from: ../AGENTS.md ---
two
--- End of Context from: ../AGENTS.md ---'
lang='--- Context from: ../../e2e-home/.qwen/output-language.md ---
# Output language preference: auto
--- End of Context from: ../../e2e-home/.qwen/output-language.md ---

---

# auto memory'
rec_clear
chat_rec "$T/rec" 001.json "You are Qwen Code (shortened).

---

$ctx

$lang" hello
chat_rec "$T/rec" 002.json "The memory extraction agent (shortened).

---

$lang" "Extract memories (shortened)."
extract_is "extract.js cuts the context blocks before output-language.md" "$ctx"
rec_clear
chat_rec "$T/rec" 001.json "You are Qwen Code (shortened).

---

$lang" hello
extract_is "extract.js: no context files, an empty string" ''
rec_clear
chat_rec "$T/rec" 001.json "You are Qwen Code (shortened).

---

$ctx" hello
extract_fails 4 'output-language' "extract.js: no output-language block is an error"
rec_clear
chat_rec "$T/rec" 001.json "You are Qwen Code (shortened)." other
extract_fails 3 '' "extract.js: no turn with the prompt is an error"
tap_end
