mkdir -p container skills/research/more skills/plain groups/g
printf '# Shared base\n\nBe brief.\n' >container/CLAUDE.md
printf -- '---\nname: research\n---\nResearch skill.\n' >skills/research/SKILL.md
printf 'Research: how to search.\n\n@./details.md\n' >skills/research/instructions.md
printf 'Research details, beside the instructions.\n@./more/deeper.md\n' >skills/research/details.md
printf 'Research details, one directory down.\n' >skills/research/more/deeper.md
printf -- '---\nname: plain\n---\nPlain skill.\n' >skills/plain/SKILL.md
printf 'Plain skill: no imports.\n' >skills/plain/instructions.md
printf '{ "skills": "all" }\n' >groups/g/container.json
