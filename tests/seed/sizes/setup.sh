# caliban: an import over 64 KiB is skipped; the imports spliced share 256
# KiB, counted before comments are stripped (these are comments, so the
# prefix stays far below its own budget).
mkdir -p .git ws
head -c 65537 /dev/zero | tr '\0' a >ws/big.md
comment() { printf '<!--'; head -c $(($1 - 7)) /dev/zero | tr '\0' c; printf -- '-->'; }
{ printf 'ok\n'; comment 65533; } >ws/ok.md
for i in 1 2 3 4; do { printf 'f%s\n' "$i"; comment 64997; } >ws/f$i.md; done
printf '@./big.md\n@./ok.md\n@./f1.md\n@./f2.md\n@./f3.md\n@./f4.md\nend\n' >ws/CLAUDE.md
