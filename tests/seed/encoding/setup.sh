# Non-ASCII text at depths 0, 1 and 2; CRLF, a BOM, a lone CR.
mkdir -p .git ws
printf 'caf\303\251 \342\200\224 walked\r\n@./one.md\r\n' >ws/CLAUDE.md
printf '\357\273\277one \303\251\r\n@./two.md\n' >ws/one.md
printf 'two \303\251\rcr\n' >ws/two.md
