"""Fan tournaments: Swiss pairings, standings and their tiebreakers, the top cut."""
