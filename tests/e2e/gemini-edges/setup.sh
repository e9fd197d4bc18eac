ln -s nowhere .git
