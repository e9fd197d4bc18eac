mkdir -p a/b
mkfifo .git
ln -s /nonexistent a/.git
echo "Root AGENTS.md (its .git is a FIFO)." >AGENTS.md
echo "A AGENTS.md (its .git is a dangling link)." >a/AGENTS.md
echo "B AGENTS.md." >a/b/AGENTS.md
