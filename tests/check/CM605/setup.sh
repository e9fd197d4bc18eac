#!/bin/sh
# Copilot CLI beside Codex: it reads the inlined AGENTS.md and, through
# CLAUDE.md's imports, the same text again.
"$CLAWMD" compose -q -C . main 2>/dev/null
