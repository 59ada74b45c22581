"""Drivers that play a whole part of the campaign through `apply()` with a policy answering every prompt: what the
odds and the CLI use to ask "what does it cost" of the rules as implemented. Pure: no I/O."""
