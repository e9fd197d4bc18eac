# links and the absolute path name where the run sees the tree ($CT_ROOT)
sed -i "s|ABSOLUTE_OUTSIDE|$CT_ROOT/outside/abs.md|" p/GEMINI.md
: >p/empty.md
ln -s "$CT_ROOT/outside/abs.md" p/link-out.md
ln -s rel.md p/link-in.md
ln -s nothere.md p/dangling.md
ln -s loop.md p/loop.md
