# @ lines in code: neither loader knows code.
mkdir -p .git ws
printf 'F\n' >ws/f.md
printf 'G\n' >ws/g.md
printf '```\n@./f.md\n```\n    @./g.md\n~~~\n`@./f.md` and ` @./g.md`\n~~~\n' >ws/CLAUDE.md
