"""Small widgets that only render what they are given."""
