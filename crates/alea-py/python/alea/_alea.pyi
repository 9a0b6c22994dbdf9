# The native half of the package. Its functions are internal: use the public modules.
__version__: str
