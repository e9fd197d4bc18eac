# Rules: caliban's .caliban/rules and the user's, chimera's nearest
# .claude/rules; paths: rules.
mkdir -p .git ws/.caliban/rules ws/.claude/rules ws/src home/.config/caliban/rules .claude/rules
: >ws/src/main.py
printf -- '---\nname: zz\n---\ncaliban rule a\n@./x.md\n' >ws/.caliban/rules/a.md
printf 'x\n' >ws/.caliban/rules/x.md
printf -- '---\npaths: ["*.py"]\n---\ncaliban scoped\n' >ws/.caliban/rules/b.md
printf 'readme\n' >ws/.caliban/rules/README.md
printf 'caliban user rule\n' >home/.config/caliban/rules/m.md
printf -- '---\npaths: ["**/*.py"]\n---\nchimera py rule\n' >ws/.claude/rules/b.md
printf -- '---\npaths:\n  - "*.go"\n---\nchimera go rule\n' >ws/.claude/rules/a.md
printf 'chimera plain rule @./c.txt\n' >ws/.claude/rules/c.md
printf 'C\n' >ws/.claude/rules/c.txt
printf 'not the nearest\n' >.claude/rules/far.md
printf 'walked\n' >ws/CLAUDE.md
