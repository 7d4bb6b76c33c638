"""`python -m app.cli`: the `dossier` command (workers are spawned this way)."""

from app.cli import main

main()
