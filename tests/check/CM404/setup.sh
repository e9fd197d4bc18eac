#!/bin/sh
# Compose, edit the composed entry by hand while CLAUDE.local.md has content,
# compose again: the edit is moved aside.  A fixed name keeps the output stable.
"$CLAWMD" compose -q -C . main
echo "notes" >groups/main/CLAUDE.local.md
echo "a hand edit" >>groups/main/CLAUDE.md
"$CLAWMD" compose -q -C . main
for f in groups/main/CLAUDE.md.clawmd-preserved-*; do
	mv "$f" groups/main/CLAUDE.md.clawmd-preserved-20260101T000000Z-abcdef
done
