"""The series kind's registration with the pipeline: standings over other events of the season
(a circuit of monthly rapids, a grand prix, a club championship over a season), built by
:func:`flows.kinds.series.flow.assemble`."""

from __future__ import annotations

from flows.kinds.base import flow_kind
from flows.kinds.series.flow import assemble
from transforms.kinds import EventKind

SERIES = flow_kind(
    EventKind.SERIES, flow_name="series-event", assemble=assemble,
    summary="a series over other events of the season (a circuit, a grand prix): points per "
            "event, the best N counted, categories, tie-breaks and prizes",
    uses_last_run=True)
"""A series (:class:`transforms.kinds.EventKind.SERIES`)."""
