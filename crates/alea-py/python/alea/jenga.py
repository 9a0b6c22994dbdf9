"""jenga: placeholder, filled in by its binding."""
