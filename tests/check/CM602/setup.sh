#!/bin/sh
# A Codex group whose AGENTS.md is past Codex's 32 KiB: composed, then
# grown by hand (compose writes one that large only when nothing droppable
# is left: the cap ladder).
"$CLAWMD" compose -q -C . main
awk 'BEGIN { for (i = 0; i < 800; i++) print "A line of the agent'\''s notes, written by hand." }' >>groups/main/AGENTS.md
