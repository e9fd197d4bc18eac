# Five levels of imports, the sixth not followed.
mkdir -p .git ws
for i in 1 2 3 4 5 6 7; do printf 'd%s\n@./d%s.md\n' "$i" $((i + 1)) >ws/d$i.md; done
printf '@./d1.md\n' >ws/CLAUDE.md
