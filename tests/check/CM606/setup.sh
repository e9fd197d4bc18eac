#!/bin/sh
# A caliban group whose role file imports its notes inside a line: Claude
# Code loads them, caliban follows an @ only at the start of a line.
"$CLAWMD" compose -q -C . main
