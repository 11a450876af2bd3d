"""What a kind of event is to the pipeline (DESIGN.md "Event kinds and rules parts"): the
rulebook's registration of the kind (:class:`transforms.kinds.KindSpec`: its tables and input
files) and, on this side, the one function the event's flow calls — ``assemble``: the
rulebook's run, every page and file of the event's site and its letters, in memory — with
what the pipeline gives it (:class:`Build`). A kind's home (``flows/kinds/<kind>/kind.py``)
makes its :class:`FlowKind`; :mod:`flows.registry` lists them.

A kind imports nothing of the pipeline (``flows/pipeline/``): what it needs of the run — where
its outputs go, its step timer, what the last run left to take again — comes in the
:class:`Build`, so that the layers point one way (cli → pipeline → kinds → site | mail → io)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from flows.mail.letters import Letter
from flows.site.pages import Publication
from transforms.core.config import EventConfig
from transforms.core.ingest import RawFile
from transforms.core.results import Source
from transforms.kinds import KINDS, EventKind, KindSpec


class StepTimer(Protocol):
    """Times one step of an event (``with build.step("pairing") as info:``), adds it to the
    event's ``timings`` and tells it; the caller may put a ``detail`` in ``info``
    (:class:`flows.pipeline.progress.Steps`)."""

    timings: dict[str, Any]

    def __call__(self, name: str) -> AbstractContextManager[dict[str, str]]: ...


Parallel = Callable[[Callable[[Any], Any], Sequence[Any]], list[Any]]
"""How a build computes independent parts side by side (:attr:`Build.parallel`)."""


@dataclass(frozen=True)
class Build:
    """What the pipeline gives a kind's ``assemble`` for one build of one event."""

    out_dir: Path
    """The event's output folder (nothing is written there by ``assemble``: the pipeline
    writes what it returns)."""
    renderer: str
    """Where PDFs and parallel work run: ``local`` (the run's process pool), ``dask`` (the
    cluster the run executes on) or ``held`` (a held publication rebuilt: no early PDFs)."""
    step: StepTimer
    """The event's step timer."""
    notice: str = ""
    """Said on every web page (a held publication's: :mod:`flows.pipeline.last_good`)."""
    program: str = ""
    """What made this build (code, templates, libraries: ``flows.pipeline.unchanged.
    program_fingerprint``): a group of pages or a pairing of the last run is taken again only
    from a run of the same program."""
    on_pdf: Callable[[str, str], None] | None = None
    """Told of every PDF as soon as its HTML is made (the pipeline renders it early)."""
    kept_groups: Mapping[str, dict[str, Any]] = field(default_factory=dict)
    """The groups of pages the last run published (``Publication.group``), by name."""
    known_pairings: Mapping[str, Any] = field(default_factory=dict)
    """The audit's pairings the last run made, by their key."""
    parts: tuple[object, ...] = ()
    """The flows' side of the rules part the event chooses (its pages and letters, e.g.
    :class:`flows.kinds.swiss.parts.SwissPart`), from :mod:`flows.registry`: the kind takes
    those of its own type."""
    parallel: Parallel = lambda fn, items: [fn(x) for x in items]
    """``[fn(x) for x in items]`` computed in parallel by the run's worker processes (on a Dask
    worker: its renderer and the worker itself): for CPU-bound work whose parts are independent
    (the audit's rounds, a series' events read); ``fn`` and the items must pickle."""
    sources: tuple[Source, ...] = ()
    """The other events the event reads (a series' events: :attr:`transforms.kinds.KindSpec.
    sources`), as the pipeline read them."""
    known_results: Mapping[str, Any] = field(default_factory=dict)
    """The other events' results the last run of this program computed, by name
    (``{"digest", "as_of", "result"}``: :func:`transforms.core.results.result_record`)."""
    counted_in: tuple[tuple[str, str], ...] = ()
    """The events beside this one that count it (a series): (folder, name) of each; its
    players' pages link their page there (``ctx["counted_in"]``)."""
    season: Mapping[str, RawFile] = field(default_factory=dict)
    """The season's files beside the event folders (``members.csv``, the member registry), for
    a kind that reads other events; by name."""
    checksum_of: Callable[[Path], tuple[str, int]] | None = None
    """The sha256 and size of a file of the last run's outputs, from the checksums the run
    keeps by file (:class:`flows.pipeline.digests.Digests`): a kept group of pages is verified
    with it, not read (:attr:`flows.site.pages.Reuse.checksum_of`)."""

    def publication(self, cfg: EventConfig, as_of: dt.date, *, keep: bool = False) -> Publication:
        """An empty publication of the event (its page context, timings, early PDFs; with
        ``keep`` the last run's groups of pages to take again)."""
        from flows.site.pages import Reuse, event_context

        return Publication(self.out_dir, ctx={**event_context(cfg, as_of), "notice": self.notice,
                                              "counted_in": list(self.counted_in)},
                           timings=self.step.timings, on_pdf=self.on_pdf,
                           reuse=Reuse(kept_groups=dict(self.kept_groups) if keep else {},
                                       checksum_of=self.checksum_of))


Assemble = Callable[[EventConfig, dict[str, RawFile], dt.date, Build],
                    tuple[Publication, list[Letter]]]
"""A kind's build of an event: its configuration, its input files read as strings, the run
date and the :class:`Build` → its publication (every page and file, in memory) and letters."""


@dataclass(frozen=True)
class FlowKind:
    """One kind of event as the pipeline runs it."""

    spec: KindSpec
    """The rulebook's registration: tables, input files, rules parts."""
    flow_name: str
    """The name of its event flow in Prefect (``swiss-event``)."""
    assemble: Assemble
    """Its build of an event (:data:`Assemble`)."""
    summary: str
    """One line for the office: what events of this kind are (``chessfed new``, the input
    reference)."""
    uses_last_run: bool = False
    """Whether its build takes groups of pages and pairings from the last run (the pipeline
    then reads them for the :class:`Build`)."""

    @property
    def kind(self) -> EventKind:
        return self.spec.kind

    @property
    def inputs(self) -> list[str]:
        """Its input files, in the input reference's order."""
        return list(self.spec.schemas)


def flow_kind(kind: EventKind, *, flow_name: str, assemble: Assemble, summary: str,
              uses_last_run: bool = False) -> FlowKind:
    """The :class:`FlowKind` of ``kind`` with the rulebook's registration of it."""
    return FlowKind(KINDS[kind], flow_name, assemble, summary, uses_last_run)
