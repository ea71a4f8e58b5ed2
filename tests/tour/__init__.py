"""The Tour (docs/tour.md), run as independent chains that pytest-xdist spreads over its workers."""
