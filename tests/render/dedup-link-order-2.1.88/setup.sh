set -e
ln -s t.md p/l1.md
ln -s t2.md p/l2.md
