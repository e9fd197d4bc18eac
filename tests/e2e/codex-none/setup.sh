echo "README, not read." >README.md
