mkdir -p p/sub outside
echo "Outside, through a relative link." >outside/o.md
echo "Outside, through an absolute link." >outside/abs.md
echo "Outside, imported by its own path." >outside/direct.md
echo "Inside, through a link." >p/sub/i.md
ln -s ../outside/o.md p/rel-out.md
ln -s "$CT_ROOT/outside/abs.md" p/abs-out.md
ln -s sub/i.md p/in.md
ln -s sub/i.md p/in-again.md
cat >p/CLAUDE.md <<'MD'
# Symlinked imports

@./rel-out.md
@./abs-out.md
@./in.md
@./in-again.md
@../outside/direct.md
MD
