"""pig: placeholder, filled in by its binding."""
