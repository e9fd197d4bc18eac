#!/bin/sh
# Compose the flat document: every directive the agent wrote defused.
"$CLAWMD" compose -q -C . main
