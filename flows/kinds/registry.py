"""Every kind of event the pipeline runs, by its ``[event] kind``: the one place that lists
them (each registers itself in its home's ``kind.py``: :mod:`flows.kinds.swiss.kind`,
:mod:`flows.kinds.correspondence.kind`). The pipeline, the command line and the input
reference read it; nothing outside a kind's home names the kind."""

from __future__ import annotations

from flows.kinds.base import FlowKind
from flows.kinds.correspondence.kind import CORRESPONDENCE
from flows.kinds.swiss.kind import ROUND_ROBIN, SWISS
from transforms.kinds import KINDS, EventKind

FLOW_KINDS: dict[EventKind, FlowKind] = {k.kind: k for k in (SWISS, ROUND_ROBIN, CORRESPONDENCE)}
"""Every kind, by its ``[event] kind``."""
assert set(FLOW_KINDS) == set(KINDS), "every kind of the rulebook's registry runs in a flow"


def flow_kind_of(kind: EventKind | str) -> FlowKind:
    """The kind registered as ``kind`` (KeyError naming the registered ones when none is)."""
    try:
        return FLOW_KINDS[EventKind(kind)]
    except (KeyError, ValueError):
        raise KeyError(f"no kind of event {kind!r} (registered: "
                       f"{', '.join(k.value for k in FLOW_KINDS)})") from None
