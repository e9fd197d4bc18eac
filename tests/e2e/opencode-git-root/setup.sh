mkdir -p sub/deeper up
echo "The git root AGENTS.md." >AGENTS.md
echo "The sub AGENTS.md." >sub/AGENTS.md
echo "Above the git root." >up/e2e.md
git init -q .
git -c user.name=e2e -c user.email=e2e@example.invalid commit -q --allow-empty -m init
