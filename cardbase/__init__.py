"""cardbase: a card database and collection manager for trading card games."""

__version__ = "0.1.0"
