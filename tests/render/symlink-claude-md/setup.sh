set -e
ln -s ../shared/T.md p/CLAUDE.md
