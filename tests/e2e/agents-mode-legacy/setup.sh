mkdir -p proj home/.claude
git init -q proj
echo '{"pluginConfigs":{"cc-plugin-agents-md@builtin":{"options":{"projectInstructions":"both"}}}}' >home/.claude/settings.json
echo "Project CLAUDE.md." >proj/CLAUDE.md
echo "Project AGENTS.md." >proj/AGENTS.md
