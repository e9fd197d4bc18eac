# nanoclaw-copy's tree, its group switched to Gemini CLI
sh -e "$CLAWMD_SRC/tests/e2e/nanoclaw-copy/setup.sh"
printf '{ "skills": "all", "provider": "gemini" }\n' >groups/main/container.json
