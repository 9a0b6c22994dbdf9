"""patience: placeholder, filled in by its binding."""
