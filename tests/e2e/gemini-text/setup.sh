mkdir .git
: >GEMINI.md
