"""toolex: expand tool-retrieval annotations with equivalent tools and re-score retrievers.

The core package is headless: it never imports Textual or the TUI package (a test enforces it).
"""

__version__ = "0.1.0"
