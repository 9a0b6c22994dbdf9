"""snakes: placeholder, filled in by its binding."""
