"""The Swiss kind's registration with the pipeline (and the round robin's: the same files,
flow, pages and letters, its rounds paired by the FIDE Berger tables instead of the Dutch
system)."""

from __future__ import annotations

from flows.kinds.base import flow_kind
from flows.kinds.swiss.flow import assemble
from transforms.kinds import EventKind

SWISS = flow_kind(
    EventKind.SWISS, flow_name="swiss-event", assemble=assemble, uses_last_run=True,
    summary="a FIDE Swiss over the board (the Dutch system, C.04.3), in one or more categories")
"""Any FIDE Swiss (:class:`transforms.kinds.EventKind.SWISS`)."""

ROUND_ROBIN = flow_kind(
    EventKind.ROUND_ROBIN, flow_name="round-robin-event", assemble=assemble, uses_last_run=True,
    summary="a round robin over the board, single or double (the FIDE Berger tables, C.05 Annex 1)")
"""A round robin (:class:`transforms.kinds.EventKind.ROUND_ROBIN`)."""
