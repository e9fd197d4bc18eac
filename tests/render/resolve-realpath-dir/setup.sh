set -e
ln -s ../shared/main.md p/CLAUDE.md
