# What each takes for an import: caliban a line's first word, chimera any
# @ after white space, with trailing punctuation trimmed.
mkdir -p .git ws
printf 'A\n' >ws/a.md
printf 'B\n' >ws/b.md
printf 'C\n' >ws/c.md
printf 'first @./a.md, then @b.md.\n' >ws/CLAUDE.md
printf '@./b.md and the rest of the line\n' >>ws/CLAUDE.md
printf '  @ ./c.md\n' >>ws/CLAUDE.md
printf '(@./a.md) `@./a.md` x@./a.md\n' >>ws/CLAUDE.md
printf '@someone @MyInterface\n' >>ws/CLAUDE.md
printf 'tab\t@./c.md;\n' >>ws/CLAUDE.md
