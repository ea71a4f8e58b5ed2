"""The documentation site: it builds strictly, its references are generated, its figures are
records, and the one version number agrees everywhere."""
