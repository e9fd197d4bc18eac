set -e
ln -s /app/CLAUDE.md groups/g/.claude-shared.md
ln -s /app/skills/s1/instructions.md groups/g/.claude-fragments/skill-s1.md
