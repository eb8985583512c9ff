"""Configuration and where files live: the TOML tables (``settings``), the folders of pi's and
pideck's sessions (``places``), the command history. The bottom of the tree: it imports nothing of
pideck's but ``core/files.py``."""
