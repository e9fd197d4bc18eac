mkdir -p managed/.claude/rules proj home/.claude
git init -q proj
echo '{"pluginConfigs":{"agents-md@builtin":{"options":{"instructionFiles":"managed-only"}}}}' >home/.claude/settings.json
echo "Managed CLAUDE.md." >managed/CLAUDE.md
echo "Managed rule." >managed/.claude/rules/m.md
echo "User CLAUDE.md." >home/.claude/CLAUDE.md
echo "Project CLAUDE.md." >proj/CLAUDE.md
echo "Project AGENTS.md." >proj/AGENTS.md
