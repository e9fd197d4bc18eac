mkdir -p .git AGENTS.override.md a/b/c a/dir
mkfifo a/AGENTS.override.md
ln -s ../dir a/b/AGENTS.override.md
ln -s /nonexistent a/b/c/AGENTS.override.md
echo "Root AGENTS.md (its override is a directory)." >AGENTS.md
echo "A AGENTS.md (its override is a FIFO)." >a/AGENTS.md
echo "B AGENTS.md (its override links to a directory)." >a/b/AGENTS.md
echo "C AGENTS.md (its override is a dangling link)." >a/b/c/AGENTS.md
