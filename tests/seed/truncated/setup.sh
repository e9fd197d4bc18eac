# caliban: a prefix over 32,000 tokens (chars / 4) cut at a line, marked.
mkdir -p .git ws
i=0
while [ $i -lt 1400 ]; do
	printf 'line %04d of a long memory, about a hundred characters wide, padded out to be that long........\n' $i
	i=$((i + 1))
done >ws/CLAUDE.md
printf 'after\n' >ws/AGENTS.md
