"""What agents' answers cost and how full their context is (docs/usage.md): the ledger folded
from a log's entries, the price table behind it, and the log's ledger kept up to date."""
