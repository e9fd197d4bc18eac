set -e
ln -s T.md p/A.md
ln -s T.md p/B.md
