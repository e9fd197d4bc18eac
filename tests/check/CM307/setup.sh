#!/bin/sh
# A nanoclaw host whose image pin is no array of {name, version}: compose
# is unaffected; check names the file once, and checks the group by
# clawmd's default release.
"$CLAWMD" compose -q -C . main 2>/dev/null
