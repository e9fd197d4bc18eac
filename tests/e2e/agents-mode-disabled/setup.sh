mkdir -p proj home/.claude
git init -q proj
echo '{"enabledPlugins":{"cc-plugin-agents-md@builtin":false}}' >home/.claude/settings.json
echo "Project AGENTS.md." >proj/AGENTS.md
