"""dice: placeholder, filled in by its binding."""
