"""The one error the server answers bad input with: a 4xx status and a JSON body naming the
input and the reason, `{"error": {"input": ..., "reason": ...}}`, which the page shows as is."""

from __future__ import annotations

from typing import Any


class WebError(Exception):
    """Bad input (or a request the game's state refuses): `status` is the HTTP status (4xx),
    `input` names what was wrong (a field, the record, the action) and `reason` says why."""

    def __init__(self, status: int, input: str, reason: str) -> None:
        super().__init__(f"{input}: {reason}")
        self.status = status
        self.input = input
        self.reason = reason

    def body(self) -> dict[str, Any]:
        """The JSON body of the error response."""
        return {"error": {"input": self.input, "reason": self.reason}}
