set -e
cp container/CLAUDE.md groups/g/.claude-shared.md
cp skills/s1/instructions.md groups/g/.claude-fragments/skill-s1.md
