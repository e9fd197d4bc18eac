# nanoclaw-copy's tree, the group switched to Codex
sh -e "$CLAWMD_SRC/tests/e2e/nanoclaw-copy/setup.sh"
printf '{ "skills": "all", "provider": "codex" }\n' >groups/main/container.json
# the group's persona (nanoclaw's instructions.prepend.md), inlined first
printf 'You are Kai, the assistant of the Ada team.\n' >groups/main/instructions.prepend.md
