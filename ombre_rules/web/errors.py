"""The one error the web layer raises for a bad request: an HTTP status and a message for the person."""
from __future__ import annotations


class WebError(Exception):
    """A request the server refuses, with the status to answer and a message that says why."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
