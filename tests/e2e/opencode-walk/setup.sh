mkdir -p sub/deeper up
echo "The deeper AGENTS.md." >sub/deeper/AGENTS.md
printf "The root AGENTS.md, no final newline." >AGENTS.md
printf "The sub AGENTS.md.\n\n" >sub/AGENTS.md
echo "Above the tree: /e2e/AGENTS.md." >up/e2e.md
echo "At the top: /AGENTS.md." >up/slash.md
