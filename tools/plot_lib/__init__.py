"""Helpers of tools/plot and tools/report: reading run and study folders, the paper's curves, figures, the HTML page."""
