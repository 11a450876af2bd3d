"""The correspondence kind's registration with the pipeline."""

from __future__ import annotations

from flows.kinds.base import flow_kind
from flows.kinds.correspondence.flow import assemble
from transforms.kinds import EventKind

CORRESPONDENCE = flow_kind(
    EventKind.CORRESPONDENCE, flow_name="correspondence-event", assemble=assemble,
    summary="a correspondence event in stages of round-robin sections (entries, advancement, "
            "weighted points, prizes and awards)")
"""A correspondence event (:class:`transforms.kinds.EventKind.CORRESPONDENCE`)."""
