"""Small reusable widgets of the toolex TUI."""
