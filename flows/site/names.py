"""File names made from values of the input files: the one sanitiser every output path and
every letter key (``outbox/<key>.eml``) uses, whatever the validation let through.

A member id, an entry id, a section, a stage, a category id or an email address becomes a
part of a file name only through :func:`file_part`, so no value can name a file outside the
event's folder (``../``, ``/etc/x``, ``C:\\x``, a NUL), nor a file some system treats
specially (``.``, ``..``, a hidden ``.name``, Windows' ``CON``/``NUL``/``COM1``…, a trailing
dot), nor a name too long for the file system. ``flows/pipeline/tasks.py`` ``write_outputs`` refuses,
as the last guard, any path that would still resolve outside the event's folder.
"""

from __future__ import annotations

import hashlib

_KEEP = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-.")
RESERVED = frozenset({"CON", "PRN", "AUX", "NUL", *(f"COM{i}" for i in range(1, 10)),
                      *(f"LPT{i}" for i in range(1, 10))})
"""Device names Windows will not use as a file name, whatever the extension."""
MAX_PART = 40
"""Longest part :func:`file_part` returns (a letter key joins up to five parts and must stay
under the 240 characters of ``letters.KEY``, its file well under the 255 bytes of a name)."""


def file_part(text: str | None, *, lower: bool = False) -> str:
    """``text`` as one part of a file name (no ``/``): letters, digits, ``_``, ``-`` and inner
    dots kept, every other character (a leading or trailing dot included) written as ``~XX``
    per UTF-8 byte, so two different ids never share a file; ``lower`` (letter keys, which
    must not differ by case only) lower-cases first and writes the hex digits in lower case.

    Decision: an empty value is ``~``; a Windows device name (``CON``, ``nul.txt``, ``COM1``)
    gets a leading ``~``; a part longer than :data:`MAX_PART` keeps its first 22 characters,
    then ``~~`` and 16 hex digits of the SHA-256 of the value (``~`` is never kept as itself,
    so ``~~`` marks a shortened part and cannot come from another value)."""
    t = text or ""
    if lower:
        t = t.lower()
    out = []
    last = len(t) - 1
    for i, ch in enumerate(t):
        if ch in _KEEP and not (ch == "." and i in (0, last)):
            out.append(ch)
        else:
            out.append("".join(f"~{b:02X}" for b in ch.encode("utf-8", "surrogatepass")))
    part = "".join(out) or "~"
    if part.split(".")[0].upper() in RESERVED:
        part = "~" + part
    if len(part) > MAX_PART:
        digest = hashlib.sha256(t.encode("utf-8", "surrogatepass")).hexdigest()[:16]
        part = part[:MAX_PART - 18] + "~~" + digest
    return part.lower() if lower else part
