"""``pideck``'s commands without the TUI: ``main`` parses and dispatches; each command's module is
imported only when that command runs (start-up laziness lives here and nowhere else)."""
