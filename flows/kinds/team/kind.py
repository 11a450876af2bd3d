"""The team kinds' registration with the pipeline: a league of team round robins in divisions,
and a team Swiss by FIDE C.04.6 (2026). Both are built by :func:`flows.kinds.team.flow.assemble`
(the rulebook :mod:`transforms.team.event` tells them apart by their table)."""

from __future__ import annotations

from flows.kinds.base import flow_kind
from flows.kinds.team.flow import assemble
from transforms.kinds import EventKind

TEAM_ROUND_ROBIN = flow_kind(
    EventKind.TEAM_ROUND_ROBIN, flow_name="team-round-robin-event", assemble=assemble,
    summary="a team league in divisions, each a team round robin (the FIDE Berger tables on "
            "teams), ranked by match or game points and FIDE's team tie-breaks")
"""A team league (:class:`transforms.kinds.EventKind.TEAM_ROUND_ROBIN`)."""

TEAM_SWISS = flow_kind(
    EventKind.TEAM_SWISS, flow_name="team-swiss-event", assemble=assemble,
    summary="a team Swiss by the FIDE Swiss Team Pairing System (C.04.6, 2026), each round "
            "paired from the last, ranked by match or game points and FIDE's team tie-breaks")
"""A team Swiss (:class:`transforms.kinds.EventKind.TEAM_SWISS`)."""
