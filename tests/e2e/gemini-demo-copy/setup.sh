# demo-copy's tree, its group switched to Gemini CLI
sh -e "$CLAWMD_SRC/tests/e2e/demo-copy/setup.sh"
sed -i 's/^{$/{\n  "provider": "gemini",/' groups/assistant/container.json
grep -q '"provider": "gemini"' groups/assistant/container.json
