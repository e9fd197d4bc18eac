set -e
ln -s ../outside.md p/link.md
