# A missing file, a directory, a URL, an absolute path, ~ without the file.
mkdir -p .git ws/dir home
printf 'abs\n' >ws/abs.md
printf '@./nope.md\n@./dir\n@https://example.com/x.md\n@%s/ws/abs.md\n@~/none.md\n' "$PWD" >ws/CLAUDE.md
