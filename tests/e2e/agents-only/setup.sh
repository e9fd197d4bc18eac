mkdir -p proj
git init -q proj
echo "Project AGENTS.md." >proj/AGENTS.md
