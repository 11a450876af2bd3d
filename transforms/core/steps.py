"""How a caller times the steps of a rulebook function: the rulebook reads no clock, it only
marks its steps (``with step("pairing"): ...``) with the timer it is given."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any, Protocol


class StepTimer(Protocol):
    """What times a step for the caller: ``with step("pairing"): ...``."""

    def __call__(self, name: str) -> AbstractContextManager[Any]: ...


@contextmanager
def no_step(name: str) -> Iterator[None]:
    """No timing (the default)."""
    yield
