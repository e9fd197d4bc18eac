#!/bin/sh
# Compose the group (then, below, break it).
"$CLAWMD" compose -q -C . main
awk 'BEGIN { for (i = 0; i < 820; i++) printf "%s\n", "Per-group notes, repeated until the file passes 40,000 characters." }' >groups/main/CLAUDE.local.md
