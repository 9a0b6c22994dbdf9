"""mahjong: placeholder, filled in by its binding."""
