mkdir -p .git sub
printf 'Top.\n@./x.md\n@%s/x.md\n@x.md\nSee @sub/y.md here.\n' "$CT_ROOT" >AGENTS.md
echo "X, never read." >x.md
echo "Y, never read." >sub/y.md
