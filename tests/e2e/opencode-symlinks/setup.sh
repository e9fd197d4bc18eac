mkdir -p sub elsewhere
echo "Outside the tree." >elsewhere/o.md
ln -s /e2e/oc-outside/o.md AGENTS.md
echo "The real sub file." >real.md
ln -s ../real.md sub/AGENTS.md
