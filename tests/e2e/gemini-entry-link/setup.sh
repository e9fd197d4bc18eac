ln -s "$CT_ROOT/shared/real.md" p/GEMINI.md
