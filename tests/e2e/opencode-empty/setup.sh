mkdir -p sub
: >sub/AGENTS.md
printf "\n\n" >AGENTS.md
echo "The root CLAUDE.md." >CLAUDE.md
