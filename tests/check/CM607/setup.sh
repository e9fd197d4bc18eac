#!/bin/sh
# A caliban group whose memory is not ASCII: caliban garbles it.
printf 'Le caf\303\251 est au deuxi\303\250me.\n' >groups/main/CLAUDE.local.md
"$CLAWMD" compose -q -C . main
