"""One JSON error shape for every failure: ``{"error": {"code", "message", ...}}``.

Handlers map known failures to precise statuses; the catch-all turns anything
unforeseen into a 500 that names no internals (the traceback goes to the log).
"""

from __future__ import annotations

import logging
import re

import orjson
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import ClientDisconnect

from ..core.env import describe_errors
from ..core.errors import SupportGymError

log = logging.getLogger("supportgym.server")


class ApiError(Exception):
    """A failure with its HTTP status, a stable machine code, and a message for people."""

    def __init__(self, status: int, code: str, message: str, headers: dict[str, str] | None = None, **extra: Any):
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers
        self.extra = extra

    def body(self) -> dict[str, Any]:
        return {"error": {"code": self.code, "message": self.message, **self.extra}}


INTERNAL = ApiError(500, "internal_error", "internal server error (logged on the server)")


def invalid(code: str, errors: list[dict[str, Any]], what: str) -> ApiError:
    """422 naming each bad field (and its allowed values where the schema lists them)."""
    return ApiError(422, code, f"{what}: {describe_errors(errors)}", errors=errors)


def from_programmer_error(err: SupportGymError) -> ApiError:
    # Core errors carry "what, got, allowed, fix" in their message: pass it on verbatim.
    name = re.sub(r"(?<!^)(?=[A-Z])", "_", type(err).__name__.removesuffix("Error")).lower()
    return ApiError(422, name or "invalid", str(err))


def response_for(err: Exception, where: str = "") -> Response:
    """The JSON error response for any exception (used by the fast path, which has no handlers)."""
    if isinstance(err, ApiError):
        return _json(err)
    if isinstance(err, SupportGymError):
        return _json(from_programmer_error(err))
    if isinstance(err, ClientDisconnect):  # nobody is left to answer; one line, no traceback
        log.info("client disconnected before sending the whole request body (%s)", where)
        return _json(ApiError(400, "client_disconnected", "the client disconnected mid-body"))
    log.exception("unhandled error on %s", where, exc_info=err)
    return _json(INTERNAL)


def _json(err: ApiError) -> Response:
    return Response(orjson.dumps(err.body()), status_code=err.status, headers=err.headers, media_type="application/json")


def install(app: FastAPI) -> None:
    @app.exception_handler(ApiError)
    async def _api(_: Request, err: ApiError) -> Response:
        return _json(err)

    @app.exception_handler(SupportGymError)
    async def _core(_: Request, err: SupportGymError) -> Response:
        return _json(from_programmer_error(err))

    @app.exception_handler(RequestValidationError)
    async def _validation(_: Request, err: RequestValidationError) -> Response:
        errors = [
            {"field": ".".join(str(p) for p in e.get("loc", ())), "message": e.get("msg", ""), "type": e.get("type", "")}
            for e in err.errors()
        ]
        return _json(invalid("invalid_request", errors, "invalid request"))

    @app.exception_handler(StarletteHTTPException)
    async def _http(_: Request, err: StarletteHTTPException) -> Response:
        code = {404: "not_found", 405: "method_not_allowed"}.get(err.status_code, "http_error")
        return _json(ApiError(err.status_code, code, str(err.detail), headers=getattr(err, "headers", None)))

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, err: Exception) -> Response:
        return response_for(err, f"{request.method} {request.url.path}")
