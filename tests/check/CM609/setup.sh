#!/bin/sh
# A chimera group whose memory is Latin-1, not UTF-8: chimera raises and
# sends no memory at all.
printf 'Le caf\351 est au deuxi\350me.\n' >groups/main/CLAUDE.local.md
"$CLAWMD" compose -q -C . main
