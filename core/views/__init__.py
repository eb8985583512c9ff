"""What front ends draw, as immutable data: one Deck's view, the activity, time travel, diffs and
the overview table."""
