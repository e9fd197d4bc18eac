#!/bin/sh
# A Codex group whose skill instructions grew past Codex's 32 KiB: the cap
# ladder left the skill out of AGENTS.md, and check names it.
awk 'BEGIN { for (i = 0; i < 800; i++) print "A line of the alpha skill, over and over." }' >skills/alpha/instructions.md
"$CLAWMD" compose -q -C . main 2>/dev/null
