"""Games written in Python, solved by the engine: placeholder."""
