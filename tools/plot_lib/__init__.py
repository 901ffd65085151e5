"""Helpers of tools/plot: reading run and study folders (runs) and drawing (figures)."""
