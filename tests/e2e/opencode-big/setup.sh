awk "BEGIN { print \"BEGIN\"; for (i = 0; i < 82000; i++) printf \"%064d\\n\", i; print \"END\" }" >AGENTS.md
