"""What the servers tier's browser tests share: one headless Chromium for the session."""

from __future__ import annotations

import pytest

from tests.browser import Browser, require_browser


@pytest.fixture(scope="session")
def browser():
    """Debian's Chromium through its driver (skipped where it is not installed;
    ``CHESSFED_REQUIRE_BROWSER=1``: a failure)."""
    require_browser()
    b = Browser()
    try:
        yield b
    finally:
        b.close()
