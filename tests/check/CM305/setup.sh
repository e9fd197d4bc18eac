#!/bin/sh
# Compose the group: the misspelt key is ignored (every skill), with a warning.
"$CLAWMD" compose -q -C . main
