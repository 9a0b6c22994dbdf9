"""Model checking of PRISM-language models: placeholder."""
