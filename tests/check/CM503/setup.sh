#!/bin/sh
# Compose the group (then, below, break it).
"$CLAWMD" compose -q -C . main
