set -e
ln -s nowhere.md p/broken.md
mkfifo p/fifo.md
mkfifo p/CLAUDE.md
