mkdir -p proj home/.claude
git init -q proj
echo '{"pluginConfigs":{"cc-plugin-agents-md@builtin":{"options":{"instructionFiles":"claude-md"}}}}' >home/.claude/settings.json
echo "User CLAUDE.md." >home/.claude/CLAUDE.md
echo "Project AGENTS.md." >proj/AGENTS.md
