"""A tenant's quality setting (fast, balanced, best; a temperature) and the second-tier engine."""
