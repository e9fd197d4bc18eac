. "$CLAWMD_SRC/tests/e2e/nanoclaw-copy/setup.sh"
printf '{ "skills": "all", "provider": "copilot" }\n' >groups/main/container.json
# the group's persona (nanoclaw's instructions.prepend.md), first
printf 'You are Kai, the assistant of the Ada team.\n' >groups/main/instructions.prepend.md
