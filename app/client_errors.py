"""What the `dossier` command's HTTP clients do with an error answer: stop, naming it."""

from __future__ import annotations

import httpx


def exit_on_error(response: httpx.Response) -> None:
    """Stop the command with the API's error message (or the body) when `response` failed."""
    if response.status_code >= 400:
        response.read()
        try:
            message = response.json()["error"]["message"]
        except (ValueError, KeyError, TypeError):
            message = response.text
        raise SystemExit(f"error {response.status_code}: {message}")
