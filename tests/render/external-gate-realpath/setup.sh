set -e
ln -s ../outside.md p/link.md
ln -s "$ROOT/outside.md" p/abslink.md
