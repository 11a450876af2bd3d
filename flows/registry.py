"""Every kind of event the pipeline runs, by its ``[event] kind``, and every rules part's pages
and letters, by its name: the one place that lists them (each registers itself in its home:
:mod:`flows.kinds.swiss.kind`, :mod:`flows.kinds.correspondence.kind`,
:mod:`flows.kinds.team.kind`, :mod:`flows.kinds.series.kind`,
:mod:`flows.parts.national_junior.part`). The pipeline, the command line and the input
reference read it; nothing outside a kind's or a part's home names it."""

from __future__ import annotations

from flows.kinds.base import FlowKind
from flows.kinds.correspondence.kind import CORRESPONDENCE
from flows.kinds.series.kind import SERIES
from flows.kinds.swiss.kind import ROUND_ROBIN, SWISS
from flows.kinds.team.kind import TEAM_ROUND_ROBIN, TEAM_SWISS
from flows.parts.national_junior.part import NATIONAL_JUNIOR
from transforms.core.config import EventConfig
from transforms.kinds import KINDS, PARTS, EventKind

FLOW_KINDS: dict[EventKind, FlowKind] = {k.kind: k for k in (SWISS, ROUND_ROBIN, CORRESPONDENCE,
                                                                   TEAM_ROUND_ROBIN, TEAM_SWISS,
                                                                   SERIES)}
"""Every kind, by its ``[event] kind``."""
assert set(FLOW_KINDS) == set(KINDS), "every kind of the rulebook's registry runs in a flow"


def flow_kind_of(kind: EventKind | str) -> FlowKind:
    """The kind registered as ``kind`` (KeyError naming the registered ones when none is)."""
    try:
        return FLOW_KINDS[EventKind(kind)]
    except (KeyError, ValueError):
        raise KeyError(f"no kind of event {kind!r} (registered: "
                       f"{', '.join(k.value for k in FLOW_KINDS)})") from None


FLOW_PARTS: dict[str, object] = {p.name: p for p in (NATIONAL_JUNIOR,)}
"""Every rules part's pages and letters, by the name ``[entries] rules`` gives it (each of the
type of the kind it adds to: a Swiss part is a :class:`flows.kinds.swiss.parts.SwissPart`)."""
assert set(FLOW_PARTS) <= set(PARTS), "every part's pages belong to a part of the rulebook"


def rules_parts(cfg: EventConfig) -> tuple[object, ...]:
    """The pages and letters of the rules part ``cfg`` chooses (none when it chooses none, or
    its part adds no page)."""
    part = FLOW_PARTS.get(cfg.rules_part)
    return (part,) if part is not None else ()
