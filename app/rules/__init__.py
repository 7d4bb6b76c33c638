"""Rules act in code, where a memory line can only pull the engine: pure functions, no I/O.

`evaluate` decides which of a subject's rules are active at a decision (pinned, fired by their
condition, or excluding an option) and writes the computed facts; `exclusions` removes options
from answers.
"""
