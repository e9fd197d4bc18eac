# caliban: a prefix over budget cut inside a character (its comment
# stripper made two bytes of every byte past ASCII): caliban panics.  The
# cut is at byte 127,872 of the project tier, after its first tag: PAD
# ASCII bytes put it on the second byte of a character (PAD + 1: on the
# first, which cuts the text after the tag's newline).
mkdir -p .git ws
tag="<project-claude-md path=\"$PWD/ws/CLAUDE.md\" source=\"walk\">
"
pad=$((1 + (127872 - ${#tag}) % 2 + ${SHIFT:-0}))
{
	head -c $pad /dev/zero | tr '\0' x
	i=0
	while [ $i -lt 9000 ]; do printf '\303\251\303\251\303\251\303\251\303\251\303\251\303\251\303\251'; i=$((i + 1)); done
} >ws/CLAUDE.md
