"""Dossier's error tree: every expected failure carries its HTTP status and a stable code.

One handler (in `app.main`) renders them as `{"error": {"code", "message", "field"?}}`, so a route
never builds an error response by hand and a library error is translated where it enters
(`raise DossierError(...) from exc`).
"""

from __future__ import annotations


class DossierError(Exception):
    status_code = 400
    code = "bad_request"

    def __init__(self, message: str, *, field: str | None = None, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        if code is not None:
            self.code = code

    def to_dict(self) -> dict[str, dict[str, str]]:
        body = {"code": self.code, "message": self.message}
        if self.field is not None:
            body["field"] = self.field
        return {"error": body}


class Unauthorized(DossierError):
    status_code = 401
    code = "unauthorized"


class InsufficientCredit(DossierError):
    status_code = 402
    code = "insufficient_credit"


class Forbidden(DossierError):
    status_code = 403
    code = "forbidden"


class NotFound(DossierError):
    status_code = 404
    code = "not_found"


class Conflict(DossierError):
    status_code = 409
    code = "conflict"


class Gone(DossierError):
    """It was here and is not any more (an export past its expiry, say)."""

    status_code = 410
    code = "gone"


class Invalid(DossierError):
    status_code = 422
    code = "invalid"


class UpstreamFailed(DossierError):
    """The remote engine answered with an error or could not be reached."""

    status_code = 502
    code = "upstream_failed"


class UpstreamTimeout(DossierError):
    status_code = 504
    code = "upstream_timeout"


class ServiceUnavailable(DossierError):
    status_code = 503
    code = "unavailable"


class PayloadTooLarge(DossierError):
    status_code = 413
    code = "too_large"
