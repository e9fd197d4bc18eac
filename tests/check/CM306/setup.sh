#!/bin/sh
# A provider no contract knows: compose gives the group Claude Code's
# surfaces (with a warning), check names it.
"$CLAWMD" compose -q -C . main 2>/dev/null
