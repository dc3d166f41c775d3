"""Only the page itself may call the API: the checks every request passes before it is read.

- **Host** (every request): the name the browser used must be one of the server's own (the
  loopback names, or with `--allow-remote` the address it listens on, this machine's names and
  any IP address) with the port it listens on. A web site that points its own name at 127.0.0.1
  (DNS rebinding) sends its own name, and is refused: it can neither read the page nor call it.
- **State-changing requests** (anything but GET and HEAD) also need: no `Origin`, or the
  server's own (a cross-site form or fetch carries the other site's); `Sec-Fetch-Site`, where the
  browser sends it, `same-origin` or `none`; `Content-Type: application/json`, which no
  cross-site form can send without a preflight the server never approves; and the per-server
  token of `X-Huerta-Token`, which the page reads from `/api/meta` (a page of another site
  cannot read that answer).

Each refusal is a 403 with the usual JSON error body, sent before the request's body is read.
"""

from __future__ import annotations

import ipaddress
import json
import secrets
import socket
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

TOKEN_HEADER = "x-huerta-token"
SAFE_METHODS = frozenset({"GET", "HEAD"})
LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "::1"})

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]


def new_token() -> str:
    """A fresh per-server token (32 random bytes, URL-safe)."""
    return secrets.token_urlsafe(32)


def split_host(value: str) -> tuple[str, int | None] | None:
    """(name, port or None) of a Host header value (`name`, `name:port`, `[v6]:port`), the
    name in lower case; None when it is not one."""
    value = value.strip().lower()
    if value.startswith("["):
        name, _, rest = value[1:].partition("]")
        port = rest[1:] if rest.startswith(":") else None if not rest else "x"
    else:
        name, colon, port = value.rpartition(":")
        if not colon:
            name, port = value, None
    if not name or (port is not None and not port.isdigit()):
        return None
    return name, int(port) if port is not None else None


def is_ip_address(name: str) -> bool:
    """Whether `name` is an IP address (which no DNS answer can re-point)."""
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


class HostRule:
    """The host names the server answers to: the loopback names, and with `remote` also any IP
    address, this machine's names and `extra` names (the `--host` it listens on)."""

    def __init__(self, remote: bool = False, extra: Iterable[str] = ()) -> None:
        self.remote = remote
        names = set(LOOPBACK_NAMES)
        if remote:
            names |= {socket.gethostname().lower(), socket.getfqdn().lower()}
            names |= {n.lower().strip("[]") for n in extra}
        self.names = frozenset(names)

    def allows(self, name: str) -> bool:
        return name in self.names or (self.remote and is_ip_address(name))


class RequestGuard:
    """ASGI middleware refusing, with a 403, a request that does not come from the server's own
    page (see the module docstring)."""

    def __init__(self, app: Callable[..., Awaitable[None]], token: str, hosts: HostRule) -> None:
        self.app = app
        self.token = token
        self.hosts = hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            refusal = self.refusal(scope)
            if refusal is not None:
                await _forbidden(send, *refusal)
                return
        await self.app(scope, receive, send)

    def refusal(self, scope: Scope) -> tuple[str, str] | None:
        """(input, reason) of why a request is refused, or None when it may go on."""
        headers = {k.decode("latin-1").lower(): v.decode("latin-1")
                   for k, v in scope.get("headers", [])}
        server = scope.get("server") or (None, None)
        host = split_host(headers.get("host", ""))
        if host is None or not self.hosts.allows(host[0]) or (
                server[1] is not None and (host[1] or 80) != server[1]):
            return "Host", (f"{headers.get('host', '')[:80]!r} is not this server's address: "
                            "open the page at http://127.0.0.1:PORT/ (or the address "
                            "huerta serve printed)")
        if scope.get("method", "GET") in SAFE_METHODS:
            return None
        origin = headers.get("origin")
        own = f"http://{headers['host'].strip().lower()}"
        if origin is not None and origin.strip().lower() != own:
            return "Origin", (f"a request from {origin[:80]!r} is refused: only the page this "
                              "server serves may change a game")
        site = headers.get("sec-fetch-site")
        if site is not None and site not in ("same-origin", "none"):
            return "Origin", (f"a {site} request is refused: only the page this server serves "
                              "may change a game")
        kind = headers.get("content-type", "").split(";")[0].strip().lower()
        if kind != "application/json":
            return "Content-Type", (f"must be application/json, got {kind[:60] or 'none'!r}")
        given = headers.get(TOKEN_HEADER, "").encode("latin-1")
        if not secrets.compare_digest(given, self.token.encode()):
            return "token", ("missing or wrong X-Huerta-Token header: the page reads it from "
                             "/api/meta")
        return None


async def _forbidden(send: Send, input_name: str, reason: str) -> None:
    body = json.dumps({"error": {"input": input_name, "reason": reason}}).encode()
    await send({"type": "http.response.start", "status": 403,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})
