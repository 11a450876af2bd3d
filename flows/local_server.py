"""The Prefect server a run of ``chessfed run`` starts for itself (no PREFECT_API_URL given):
Prefect's own application (``prefect.server.api.server.create_app``, as Prefect's ephemeral
mode starts it) behind two adjustments, :class:`RetryLocked` and :class:`WarmStart`.

Measured (issue 13, Prefect 3.9.1, this 2-core machine): when two events start side by side,
their flow runs' bookkeeping writes to the server's SQLite database at the same moment; one
write fails at once with "database is locked" (``SQLITE_BUSY_SNAPSHOT``: a transaction that
read before another committed cannot write), the server answers 503, and Prefect's client waits
2 s before it tries again (then 4, 8 …). Every demo run lost 2-8 s so. The lock is gone a few
milliseconds later: :class:`RetryLocked` replays such a request inside the server after 10 ms,
20 ms … (the transaction that failed was rolled back, so a replay is what the client's own
retry would do), and only after :data:`DELAYS` answers the 503, when the client's own patience
takes over as before.

Its first requests are slow: measured 0.39 s for the first ``GET /api/admin/version`` and
0.24 s for the first read of the database, on the way to the run's first flow run (the
same requests take 5-10 ms afterwards). :class:`WarmStart` makes them during
the server's start instead, while the run assembles its events (:mod:`flows.prepare`)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

DELAYS = (0.01, 0.02, 0.05, 0.1, 0.2) + (0.5,) * 19
"""The waits before each replay of a request answered 503 (about 10 s in all)."""


class RetryLocked:
    """An ASGI wrapper: an HTTP request the application answers "503 Service Unavailable" (the
    Prefect server's answer to a locked SQLite database) is run again after each of ``delays``
    before the 503 goes to the client. Request bodies are read whole first (Prefect's API
    requests are small JSON documents); every other response passes through as it comes."""

    def __init__(self, app: ASGIApp, delays: tuple[float, ...] = DELAYS) -> None:
        self.app = app
        self.delays = delays

    def __getattr__(self, name: str) -> Any:  # the wrapped application's attributes
        return getattr(self.app, name)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                return
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        for delay in (*self.delays, None):
            if not await self._attempt(scope, body, receive, send, last=delay is None):
                return
            await asyncio.sleep(delay)

    async def _attempt(self, scope: Scope, body: bytes, receive: Receive, send: Send,
                       last: bool) -> bool:
        """One run of the request; True when it was answered 503 and not sent (to retry)."""
        given = False
        locked = False

        async def replay() -> Message:
            nonlocal given
            if not given:
                given = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        async def forward(message: Message) -> None:
            nonlocal locked
            if message["type"] == "http.response.start" and message["status"] == 503 and not last:
                locked = True
            if not locked:
                await send(message)

        try:
            await self.app(dict(scope), replay, forward)  # routing rewrites the scope it gets
        except Exception:
            # Starlette raises the error again after its handler sent the 503 (for the server's
            # log): held back here, it is the retry's business, not the client's
            if not locked:
                raise
        return locked


WARM_UP = (("GET", "/api/admin/version", None), ("POST", "/api/flows/filter", {"limit": 1}),
           ("POST", "/api/flow_runs/filter", {"limit": 1}))
"""Read-only requests made once at the server's start (:class:`WarmStart`)."""


class WarmStart:
    """An ASGI wrapper: when the application's own start has completed, :data:`WARM_UP` goes
    through it in this process before uvicorn is told so (uvicorn answers no request before
    that), so that the run's first requests find it warm. A failed warm-up request is
    ignored: it only costs the time it saves."""

    def __init__(self, app: ASGIApp, requests: tuple[tuple[str, str, Any], ...] = WARM_UP) -> None:
        self.app = app
        self.requests = requests
        self.answers: list[int] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.app, name)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "lifespan":
            await self.app(scope, receive, send)
            return

        async def started(message: Message) -> None:
            if message["type"] == "lifespan.startup.complete":
                # in a task of its own: the lifespan's task holds a token of anyio's thread
                # limiter, which a request made from it would ask for again (RuntimeError)
                await asyncio.create_task(self.warm_up())
            await send(message)

        await self.app(scope, receive, started)

    async def warm_up(self) -> None:
        import httpx

        transport = httpx.ASGITransport(app=self.app)
        async with httpx.AsyncClient(transport=transport, base_url="http://local") as client:
            for method, path, body in self.requests:
                try:
                    self.answers.append((await client.request(method, path, json=body)).status_code)
                except Exception:  # noqa: BLE001 - a warm-up never stops the server's start
                    self.answers.append(0)


def create_app() -> ASGIApp:
    """The application uvicorn serves (``--factory flows.local_server:create_app``)."""
    from prefect.server.api.server import create_app as prefect_app

    return WarmStart(RetryLocked(prefect_app()))
