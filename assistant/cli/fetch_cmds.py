"""Commands of this area (being written)."""
