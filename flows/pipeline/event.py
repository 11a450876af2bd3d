"""An event's flow, top to bottom (DESIGN.md "Orchestration"): the pipeline as the office's
Prefect history shows it — read the configuration and the inputs, the kind's build (its
rulebook's steps, then its pages), what the public may see (this run's publication or the
last good one), the PDFs, the messages, the outputs switched whole, the mail, the manifest —
each step a task run of its own (:mod:`flows.pipeline.tasks`), and the flow run's final state.
One flow per kind of event of the registry (:func:`kind_flow`)."""


from __future__ import annotations

import datetime as dt
import json
import time
from pathlib import Path
from typing import Any

from prefect import Flow, flow
from prefect.artifacts import create_markdown_artifact
from prefect.states import Completed, State
from prefect.utilities.annotations import quote

from flows.kinds.base import Build, FlowKind
from flows.mail.letters import Letter
from flows.pipeline import last_good, season_lists, season_members, unchanged, workers
from flows.pipeline.counted_in import series_naming
from flows.pipeline.mailing import by_kind, unmade_report
from flows.pipeline.manifest import (
    FILE,
    manifest_path,
)
from flows.pipeline.outputs import (
    DENIED,
    config_error_publication,
    discard_early_pdfs,
    early_pdfs,
    kept_groups,
    known_pairings,
    known_results,
    manifest_json,
    previous_render_hashes,
)
from flows.pipeline.progress import Steps
from flows.pipeline.tasks import (
    check_config,
    compose_task,
    mail_task,
    publish_task,
    read_config,
    read_inputs,
    read_season,
    read_sources,
    render_pdfs,
    write_outputs,
)
from flows.registry import flow_kind_of, rules_parts
from flows.site.pages import OFFICE, Publication
from transforms.core.config import EventConfig
from transforms.core.errors import ConfigError
from transforms.core.ingest import RawFile
from transforms.core.results import Source


def event_flow(event_dir: Path, out_dir: Path, as_of: dt.date | None, send_mail: bool,
               renderer: str, kind: FlowKind) -> State:
    """The body of an event's flow (:func:`kind_flow`: one flow per kind of
    :mod:`flows.registry`), each step a task run of its own; returns the flow run's final
    state (:func:`final_state`)."""
    started = time.perf_counter()
    step = Steps(event_dir.name)
    digests = unchanged.Digests.of_event(out_dir)  # kept for the next check (written whole)
    inputs_sha = unchanged.inputs_fingerprint(event_dir, digests)  # before reading: see unchanged.py
    digests.save()

    # read: event.toml, then the input files its kind and rules part ask for
    with step("read"):
        loaded = read_config(event_dir)
        names = (list(loaded.files) or kind.inputs) if isinstance(loaded, EventConfig) else kind.inputs
        # (with what the season gives them: the rating lists in force, tasks.EventFiles)
        raw = read_inputs(event_dir, names) if isinstance(loaded, EventConfig) else {}
        sources = read_sources(event_dir, out_dir, loaded) if isinstance(loaded, EventConfig) else ()
        season = read_season(event_dir, loaded) if isinstance(loaded, EventConfig) else {}
        counted_in = series_naming(event_dir)

    # build: the kind's rulebook steps (validate, standings, audit, pairing … or the
    # correspondence rules), then every page, file and letter, in memory
    cfg, error = (loaded, None) if isinstance(loaded, EventConfig) else (None, loaded)
    pub: Publication | None = None
    letters: list[Letter] = []
    if cfg is not None:
        date = unchanged.decide_run_date(as_of, cfg.event.as_of)
        pub, letters = kind.assemble(cfg, raw, date, build_for(kind, cfg, out_dir, renderer, step,
                                                               sources=sources, season=season,
                                                               counted_in=counted_in,
                                                               digests=digests))
    else:
        date = unchanged.run_date(event_dir, as_of) or unchanged.decide_run_date(as_of, None)

    # settle: what the public may see — this run's publication, or the last good one held
    pub, cfg, letters = settle(pub, cfg, letters, error, event_dir, out_dir, names, date, step)
    current = pub.outcome.publication.get("status") == "current"
    for file in (season_lists.RATINGS, season_lists.NATIONAL_RATINGS):
        taken = raw.get(file) if not (event_dir / file).exists() else None
        if taken is not None and current:
            # kept with the inputs: a later held publication is rebuilt from the same list entries
            pub.files[f"{last_good.INPUTS}{file}{last_good.KEPT}"] = season_lists.kept_copy(taken)
    if current and season_members.registry(event_dir)[0] is not None:
        for file in season_lists.PLAYER_FILES:  # as the registry filled it (rebuilt without it)
            if file in raw and (event_dir / file).exists():
                pub.files[f"{last_good.INPUTS}{file}{last_good.KEPT}"] = season_lists.kept_copy(raw[file])

    # pdfs: those whose HTML changed since the last run (some started while pages were built)
    with step("pdfs") as info:
        pdfs = render_pdfs(quote(pub.pdfs), previous_render_hashes(pub.out_dir), renderer,
                           str(pub.out_dir) if pub.on_pdf else "")
        rendered = sum(data is not None for data in pdfs.values())
        info["detail"] = f"{rendered} rendered, {len(pdfs) - rendered} unchanged"
    pub.timings["pdfs_rendered"] = rendered
    pdfs.update({rel: None for rel in pub.reuse.kept_pdfs if rel not in pdfs})  # kept with their pages
    pub.files.update({rel: data for rel, data in pdfs.items() if data is not None})

    # messages: every letter as its message in the outbox
    with step("messages") as info:
        outgoing, unmade = compose_task(quote(pub), cfg, quote(letters), quote(pdfs), date)
        info["detail"] = f"{len(outgoing)} messages" + (f", {len(unmade)} not made" if unmade else "")

    # write: the outputs staged whole, then switched in one step
    pub.files.update(DENIED)
    with step("write"):
        publish_task(quote(pub), cfg, event_dir, names, date, quote(pdfs),
                     {"messages": len(letters), "by_kind": by_kind(letters),
                      "state": "not sent yet", **unmade_report(unmade)})
    digests.save()  # the kept files hashed again while taken (the next check need not)

    # mail: after the switch, so the ledger of what went is the published one
    with step("mail"):
        mail_report = mail_task(quote(pub), cfg, event_dir, quote(letters), quote(outgoing),
                                send_mail, quote(unmade))

    # the manifest, with the timings and the rebuild key of a complete run
    step.finish(time.perf_counter() - started)
    key = None
    if cfg is not None:
        key = unchanged.completed_key(
            unchanged.rebuild_key(inputs_sha, date, send_mail,
                                  bool(cfg.publish.smtp_host) and send_mail),
            pub.out_dir, {o.key: o.digest for o in outgoing})
    text = manifest_json(pub, cfg, event_dir, names, date, pdfs, pub.out_dir, mail_report, key=key)
    write_outputs(pub.out_dir, {FILE: text})
    return final_state(out_dir, json.loads(text))


def kind_flow(kind: FlowKind) -> Flow:
    """The Prefect flow of one kind of event (named as the kind registers it, e.g.
    ``swiss-event``; each run named after the event folder): :func:`event_flow` with the
    kind's build."""
    def run_kind(event_dir: Path, out_dir: Path, as_of: dt.date | None = None,
                 send_mail: bool = True, renderer: str = "local") -> State:
        return event_flow(event_dir, out_dir, as_of, send_mail, renderer, kind)

    run_kind.__doc__ = f"Run one event folder of kind {kind.kind.value!r} ({kind.summary}) into out_dir."
    return flow(run_kind, name=kind.flow_name, flow_run_name="{event_dir.name}")


def build_for(kind: FlowKind, cfg: EventConfig, out_dir: Path, renderer: str, step: Steps,
              notice: str = "", sources: tuple[Source, ...] = (),
              season: dict[str, RawFile] | None = None,
              counted_in: tuple[tuple[str, str], ...] = (),
              digests: unchanged.Digests | None = None) -> Build:
    """What a kind's build of the event gets from the run (:class:`flows.kinds.base.Build`):
    its step timer, the PDFs rendered as soon as their HTML is made (:func:`early_pdfs`), the
    pages and letters of the rules part the event chooses (:func:`flows.registry.rules_parts`),
    and, for a kind that takes them, the groups of pages and the audit's pairings the last run
    of this program made (:func:`kept_groups`, :func:`known_pairings`); ``sources``: the other
    events it reads (:func:`flows.pipeline.tasks.read_sources`), ``season`` the season's files
    (:func:`flows.pipeline.tasks.read_season`), ``counted_in`` the events that count it
    (:func:`flows.pipeline.counted_in.series_naming`); ``digests``: the checksums kept for the
    event's outputs, with which the last run's groups are verified without reading them."""
    program = unchanged.program_fingerprint()
    return Build(out_dir, renderer, step, notice, program, early_pdfs(out_dir, renderer),
                 kept_groups(out_dir, program) if kind.uses_last_run else {},
                 known_pairings(out_dir) if kind.uses_last_run else {}, rules_parts(cfg),
                 lambda fn, items: workers.parallel_map(fn, list(items), renderer), sources,
                 known_results(out_dir, program) if sources else {}, counted_in, season or {},
                 digests.sized if digests is not None and kind.uses_last_run else None)


STATE_NAMES = {0: "Completed", 1: "Rejected rows", 3: "Held", 4: "Letters pending"}
"""The name of an event flow run's final state by its outcome (:data:`flows.pipeline.run_index.EXIT_CODES`;
3 is "Partial" for a first publication in part)."""


def final_state(out_dir: Path, manifest: dict[str, Any]) -> State:
    """The event flow run's final state, what an operator sees first in Prefect's UI: Completed
    when published clean, else a Completed state named for what needs the office
    (:data:`STATE_NAMES`: rows rejected, the last good publication held, letters pending or
    failed), its message the console's line; its result the path of the event's manifest (not
    the manifest: Prefect walks a flow's returned value, and a 3,000-player event's manifest,
    which lists every file, cost 0.5 s there). The event's summary goes to a markdown artifact
    (:func:`summary_markdown`, key ``chessfed-<event folder>``)."""
    from flows.pipeline.run_index import outcome

    done = outcome(out_dir.parent, out_dir.name, "ok")
    name = STATE_NAMES.get(done.code, "Completed")
    if done.code == 3 and (manifest.get(last_good.KEY) or {}).get("status") != "held":
        name = "Partial"
    create_markdown_artifact(markdown=summary_markdown(manifest, done.line), key=artifact_key(
        out_dir.name), description=f"{manifest.get('name', out_dir.name)}: what this run published")
    return Completed(name=name, message=done.line, data=str(manifest_path(out_dir)))


def artifact_key(folder: str) -> str:
    """An artifact key from an event folder's name (Prefect's keys: lower-case letters, digits
    and dashes)."""
    return "chessfed-" + "".join(c if c.isalnum() else "-" for c in folder.lower()).strip("-")


def summary_markdown(manifest: dict[str, Any], line: str) -> str:
    """What one event's run published, held back and mailed, for the office reading Prefect's
    UI (the event's flow run's artifact). Names no address (the manifest's notes carry none)."""
    shown = manifest.get(last_good.KEY) or {}
    mail_report = manifest.get("mail") or {}
    outputs = manifest.get("outputs") or []
    public = [o for o in outputs if not str(o["path"]).startswith((OFFICE, "outbox/"))]
    rows = [f"# {manifest.get('name', '')} — as of {manifest.get('as_of', '')}", "",
            f"**{line}**", "", "| | |", "|---|---|",
            f"| Publication | {shown.get('status', '')} |",
            f"| Shown | {shown.get('state', '')} (as of {shown.get('as_of', '')}) |",
            f"| Files | {len(public)} public, {len(outputs) - len(public)} for the office |",
            f"| PDFs rendered | {manifest.get('timings', {}).get('pdfs_rendered', 0)} |",
            f"| Letters | {mail_report.get('messages', 0)} "
            f"({', '.join(f'{k} {v}' for k, v in (mail_report.get('by_kind') or {}).items())}) |",
            *(f"| Mail: {k.replace('_', ' ')} | {mail_report[k]} |"
              for k in ("sent", "not_sent_again", "pending", "failed", "reason", "would_send")
              if mail_report.get(k) not in (None, "", 0))]
    withheld = shown.get("withheld") or []
    if withheld:
        rows += ["", "## Held back", "", *(f"- {w}" for w in withheld)]
    notes = manifest.get("notes") or []
    if notes:
        rows += ["", "## Notes", "", *(f"- {n}" for n in notes)]
    return "\n".join(rows) + "\n"


def settle(pub: Publication | None, cfg: EventConfig | None, letters: list[Letter],
           error: ConfigError | None, event_dir: Path, out_dir: Path, names: list[str],
           date: dt.date, step: Steps) -> tuple[Publication, EventConfig, list[Letter]]:
    """DESIGN.md "Publishing on a bad day" — what this run publishes (:mod:`flows.pipeline.last_good`):
    everything, when nothing of its inputs is withheld (and the inputs are kept as the last
    good ones); else the last good publication rebuilt and marked, with this run's office
    pages, and only the office's letters; else (a first publication) what could be published,
    without the bulletin's letters. ``pub`` is None when event.toml cannot be used
    (``error``)."""
    if pub is not None and not pub.outcome.withheld:
        pub.files.update(last_good.snapshot(event_dir, names))
        pub.outcome.publication = last_good.record("current", date, pub.outcome.state)
        return pub, cfg, letters  # type: ignore[return-value]
    current = pub if pub is not None else config_error_publication(event_dir, out_dir, error, date)
    withheld = current.outcome.withheld
    office = [x for x in letters if x.kind in last_good.OFFICE_KINDS]
    last = last_good.find(out_dir)
    if last is None:  # a first publication: what can be published is
        assert pub is not None and cfg is not None  # (no event.toml: publish_config_error)
        last_good.held_page(pub, withheld, date, None, pub.outcome.findings)
        pub.outcome.publication = last_good.record("partial", date, pub.outcome.state, withheld)
        return pub, cfg, [x for x in letters if x.kind != "bulletin"] + last_good.letters(
            cfg, withheld, pub.outcome.findings, date, None)
    discard_early_pdfs(out_dir)  # the public PDFs are the last good ones
    good_cfg = check_config(last.folder, last.suffix)
    good_raw = read_inputs(last.folder, list(good_cfg.files) or names, last.suffix)
    good_kind = flow_kind_of(good_cfg.event.kind)  # the kind of the publication held
    good, _ = good_kind.assemble(good_cfg, good_raw, last.as_of, build_for(
        good_kind, good_cfg, out_dir, "held", step, notice=last_good.held_notice(last),
        sources=read_sources(event_dir, out_dir, good_cfg), season=read_season(event_dir, good_cfg),
        counted_in=series_naming(event_dir)))
    held = last_good.hold(good, current, last, withheld, date, current.outcome.findings)
    held.outcome.publication = last_good.record("held", last.as_of, last.state, withheld,
                                        since=last.since or date.isoformat())
    mail_cfg = cfg or good_cfg
    return held, mail_cfg, office + last_good.letters(mail_cfg, withheld, current.outcome.findings, date,
                                                      last)
