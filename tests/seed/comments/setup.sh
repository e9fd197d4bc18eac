# HTML comments: inline, multi-line with an @ line inside, in a fence, in an
# imported file, unterminated.
mkdir -p .git ws
printf 'I <!-- kept by chimera --> text\n@./j.md\n' >ws/i.md
printf 'J\n' >ws/j.md
printf 'K\n' >ws/k.md
printf '<!-- header -->\nbefore <!-- x --> after\n<!--\n@./k.md\n-->\n```\n<!-- in fence -->\n```\n@./i.md\n' >ws/CLAUDE.md
printf 'local <!-- open\nrest\n' >ws/CLAUDE.local.md
printf 'agents <!-- open\nrest\n' >ws/AGENTS.md
