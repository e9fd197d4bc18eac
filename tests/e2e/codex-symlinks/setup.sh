mkdir -p p/.git p/sub home/.codex outside
echo "Real file inside the tree." >p/real.md
ln -s real.md p/AGENTS.md
echo "File outside the tree." >outside/proj.md
ln -s /e2e-out/proj.md p/sub/AGENTS.md
echo "Global file outside the home." >outside/global.md
ln -s /e2e-out/global.md home/.codex/AGENTS.md
