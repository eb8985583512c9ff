"""The session log: one pi-format JSONL file (header, entries, id/parentId tree, current branch),
read incrementally, indexed, and appended to under a lock. Where session files live is
``core/config/places.py``; which sessions a directory has is the catalog's (``core/catalog/``).

Nothing is imported here: importing one submodule (``core.session.errors`` for the command line's
error type) must not load the log, msgspec and platformdirs with it.
"""
