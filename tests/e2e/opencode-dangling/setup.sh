mkdir -p sub
ln -s nowhere.md sub/AGENTS.md
echo "The root CLAUDE.md." >CLAUDE.md
