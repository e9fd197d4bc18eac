mkdir -p sub/docs abs
cat >sub/AGENTS.md <<EOF
# Imports
@./rel.md
@rel2.md
@$CT_ROOT/abs/abs.md
See @docs/inline.md here.
@~/home.md
EOF
echo "REL" >sub/rel.md
echo "REL2" >sub/rel2.md
echo "INLINE" >sub/docs/inline.md
echo "ABS" >abs/abs.md
