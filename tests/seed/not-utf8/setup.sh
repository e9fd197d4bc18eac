# A file that is not UTF-8 among the imports.
mkdir -p .git ws
printf 'bad \377 byte\n' >ws/bad.md
printf 'ok\n@./bad.md\n' >ws/CLAUDE.md
