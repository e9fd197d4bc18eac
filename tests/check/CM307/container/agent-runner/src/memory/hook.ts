// SessionStart
