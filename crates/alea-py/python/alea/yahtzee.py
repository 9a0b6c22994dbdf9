"""yahtzee: placeholder, filled in by its binding."""
