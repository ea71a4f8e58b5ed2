"""The README's Tour, run as independent chains that pytest-xdist spreads over its workers."""
