mkdir -p proj
git init -q proj
echo "<!-- nothing yet -->" >proj/CLAUDE.md
: >proj/CLAUDE.local.md
echo "Project AGENTS.md." >proj/AGENTS.md
