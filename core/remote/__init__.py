"""Other machines: pideck run there over the system's OpenSSH client (docs/hosts.md)."""
