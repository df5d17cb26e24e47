"""d4 Resonance: rank-many d4s, the two largest against a Difficulty; Resonance, Harms, Morale and Overkill."""
