# demo-copy's layout, the group switched to Codex (nanoclaw's provider field)
sh -e "$CLAWMD_SRC/tests/e2e/demo-copy/setup.sh"
sed -i '1a\  "provider": "codex",' groups/assistant/container.json
