#!/bin/sh
# A chimera group whose role file shows an import in a fenced block: text
# to Claude Code, an import to chimera.
"$CLAWMD" compose -q -C . main
