#!/bin/sh
# A Gemini CLI group in copy mode whose skill imports a file by its
# absolute container path: Gemini CLI follows no import leaving the group.
"$CLAWMD" compose -q -C . main
