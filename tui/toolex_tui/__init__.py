"""toolex TUI (Textual). Depends on the toolex core; the core never imports it."""
