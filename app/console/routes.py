"""The web console: one page at `/console` and its static files, plus the listings it reads.

The page holds no data and needs no key to load: it signs in in the browser, keeps the API key in
sessionStorage and calls the JSON API with it, like any other client. Everything it loads comes
from this server, so it works offline; the Content-Security-Policy keeps it that way.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse, RedirectResponse

from app.console.lookups import router as lookups_router
from app.errors import NotFound
from app.exports.routes import router as exports_router

STATIC = Path(__file__).parent / "static"
# The files served, fixed at start: a request names one of these or gets a 404, so no path in
# a URL can reach outside the folder.
FILES = {path.name: path for path in STATIC.iterdir() if path.is_file()}
TYPES = {
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".svg": "image/svg+xml",
}
HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; "
        "form-action 'self'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}

router = APIRouter()


@router.get("/console", include_in_schema=False)
def page() -> FileResponse:
    """The console's one page."""
    return _file("index.html", cache="no-cache")


@router.get("/console/", include_in_schema=False)
def page_slash() -> RedirectResponse:
    return RedirectResponse("/console", status_code=308)


@router.get("/console/static/{name}", include_in_schema=False)
def static(name: str) -> FileResponse:
    """A file of the page: its stylesheet, scripts and icon."""
    return _file(name, cache="no-cache")


def _file(name: str, *, cache: str) -> FileResponse:
    path = FILES.get(name)
    if path is None:
        raise NotFound(f"the console has no file '{name}'")
    media_type = TYPES.get(path.suffix, "application/octet-stream")
    return FileResponse(path, media_type=media_type, headers={**HEADERS, "Cache-Control": cache})


# The listings and Settings > Data export are API routes (in the OpenAPI document), served with
# the console's router so app.main registers one router for all of them.
router.include_router(lookups_router)
router.include_router(exports_router)
