"""Step 18 — no letter dropped without a word, no link made from a folder name that leaves the
site, no private file of a first run left open to the web.

A letter the run meant to make and could not (a header value the email library refuses) is
counted and shown: the manifest's mail report, the console line and exit status
(``flows.pipeline.run_index.outcome``), ``office/mail.html`` and ``chessfed mail``. (Input cells
are cleaned of line breaks and control characters when read, and event.toml refuses them, so
such a letter is a last line of defence; its tests make the letter by hand.)"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import re
from pathlib import Path

import pytest

from flows.mail.letters import Block, Letter
from flows.pipeline import mailing, outputs, run_index, tasks
from flows.site.pages import MAIL_PAGE, Publication, event_context
from transforms.core.errors import ConfigError
from transforms.kinds import parse_event_config

TOML = ('[event]\nid = "t"\nname = "T"\nkind = "swiss"\nstart = 2024-09-16\nend = 2024-09-20\n'
        'venue = "V"\norganiser = "O"\ncurrency = "INR"\ncontact = "c"\n'
        '[publish]\nsender = "r@x.example"\n'
        '[swiss]\nrounds = 5\ncategories = [{ id = "open", name = "Open" }]\n')


def letters() -> list[Letter]:
    return [Letter(key=k, to_name=n, to_email=f"{k}@x.example", subject="Round 5", lead="You won.",
                   blocks=(Block(lines=("Points 4.",)),), kind="player-round")
            for k, n in (("ann", "Ann"), ("bob", "Bob\u2028Bcc: all@x.example"), ("cy", "Cy"))]


@pytest.fixture
def composed(tmp_path):
    cfg = parse_event_config(TOML)
    pub = Publication(tmp_path / "t", ctx=event_context(cfg, dt.date(2024, 9, 20)))
    out, unmade = mailing.compose_letters(pub, cfg, letters(), {}, dt.date(2024, 9, 20))
    return cfg, pub, out, unmade


def test_a_letter_that_cannot_be_made_is_counted_with_its_reason(composed):
    _cfg, pub, out, unmade = composed
    assert [o.key for o in out] == ["ann", "cy"]
    assert [(u.key, u.kind, u.recipient) for u in unmade] == [("bob", "player-round", "bob@x.example")]
    assert "U+2028" in unmade[0].reason
    assert "outbox/bob.eml" not in pub.files
    report = mailing.unmade_report(unmade)
    assert report["not_made"] == 1 and report["not_made_letters"][0]["key"] == "bob"
    assert "@" not in json.dumps(report)  # the manifest names no address


def test_the_mail_page_lists_the_letter_not_made_and_never_says_every_message_went_out(composed):
    cfg, pub, out, unmade = composed
    (pub.out_dir).mkdir(parents=True)
    report = mailing.send_letters(pub, cfg, pub.out_dir, letters(), out, False, unmade)
    assert report["not_made"] == 1
    page = (pub.out_dir / MAIL_PAGE).read_text()
    assert "Not made: 1 letter" in page and "bob@x.example" in page and "U+2028" in page
    assert "every message went out" not in page
    clean = Publication(pub.out_dir, ctx=pub.ctx)
    mailing.send_letters(clean, cfg, pub.out_dir, letters()[:1], out[:1], False, [])
    assert "Nothing: every message went out." in (pub.out_dir / MAIL_PAGE).read_text()


def manifest(folder: Path, mail: dict) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "manifest.json").write_text(json.dumps({
        "name": "T", "as_of": "2024-09-20", "mail": mail,
        "publication": {"status": "current", "as_of": "2024-09-20"}}))


@pytest.mark.parametrize("mail, said", [
    ({"not_made": 2}, "2 letters could not be made"),
    ({"unknown": 1}, "1 letter of unknown fate"),
])
def test_letters_not_made_or_of_unknown_fate_are_on_the_console_and_in_the_exit_status(
        tmp_path, mail, said):
    manifest(tmp_path / "t", mail)
    done = run_index.outcome(tmp_path, "t", "ok")
    assert done.code == 4 and said in done.line, done.line
    assert run_index.exit_status(tmp_path, {"t": "ok"}) == 4
    manifest(tmp_path / "u", {"messages": 3})
    assert run_index.outcome(tmp_path, "u", "ok").code == 0


def test_chessfed_mail_lists_the_letters_not_made_and_exits_4(tmp_path, capsys):
    from flows.cli import mail as mail_cli

    (tmp_path / "inputs" / "t").mkdir(parents=True)
    (tmp_path / "inputs" / "t" / "event.toml").write_text(TOML)
    manifest(tmp_path / "outputs" / "t", mailing.unmade_report(
        [mailing.Unmade("bob", "player-round", "bob@x.example", "name 'Bob…' holds U+2028")]))
    args = argparse.Namespace(inputs=str(tmp_path / "inputs"), out=str(tmp_path / "outputs"),
                              only=None, retry=False, delivered=[], resend=[])
    assert mail_cli.main(args) == 4
    said = capsys.readouterr().out
    assert "1 not made" in said and "not made   bob" in said


# ----------------------------------------------------------------------------- links and folders

@pytest.mark.parametrize("name", ["javascript:alert(1)", "..\\x", "JaVaScRiPt:x", "a?b#c",
                                  "data:text/html,<b>x</b>", "//evil.example", "%2e%2e", "é vent"])
def test_a_folder_name_is_never_a_url_scheme_or_a_path_step_in_the_runs_index(tmp_path, name):
    html = run_index.site_index(tmp_path, [name], {name: "ok"}, {name: "An event"})
    hrefs = re.findall(r'href="([^"]*)"', html)
    mine = [h for h in hrefs if h.endswith("/index.html")]
    assert len(mine) == 1, hrefs
    href = mine[0]
    assert re.fullmatch(r"[A-Za-z0-9%._~-]+/index\.html", href), href  # one segment, no scheme
    assert ":" not in href and "\\" not in href and "?" not in href and "#" not in href
    from urllib.parse import unquote, urljoin

    assert unquote(href.removesuffix("/index.html")) == name  # the folder's own name
    assert urljoin("https://results.example/season/", href).startswith("https://results.example/season/")


def test_the_office_of_a_first_run_with_an_unusable_event_toml_is_denied_to_the_web(tmp_path):
    event, out = tmp_path / "inputs" / "x", tmp_path / "outputs" / "x"
    event.mkdir(parents=True)
    (event / "event.toml").write_text(TOML.replace('sender = "r@x.example"', 'sender = "a, b"'))
    with pytest.raises(ConfigError) as e:
        tasks.check_config(event)
    outputs.publish_config_error(event, out, e.value, dt.date(2024, 9, 20))
    assert (out / "office" / "validation.html").exists()
    assert (out / "office" / ".htaccess").read_text() == outputs.DENY
    assert (out / "outbox" / ".htaccess").read_text() == outputs.DENY
    assert "manifest.json" in (out / ".htaccess").read_text()


def test_the_last_good_inputs_are_kept_as_text_and_copies_of_an_earlier_version_still_read(tmp_path):
    """The copies of a good run's inputs (office/published-inputs/) are the input files byte
    for byte — not marked as CSV outputs are — so they are named ``.txt`` (a text editor, not a
    spreadsheet, opens them); copies kept without the suffix by an earlier version are read."""
    from flows.pipeline import last_good

    event = tmp_path / "inputs" / "t"
    event.mkdir(parents=True)
    (event / "event.toml").write_text(TOML)
    (event / "players.csv").write_text('player_id,name\n1,"=HYPERLINK(""http://x"",""y"")"\n')
    kept = last_good.snapshot(event, ["players.csv", "results.csv"])
    assert kept == {"office/published-inputs/event.toml.txt": TOML.encode(),
                    "office/published-inputs/players.csv.txt": (event / "players.csv").read_bytes()}
    out = tmp_path / "outputs" / "t"
    manifest(out, {})
    for rel, data in kept.items():
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        (out / rel).write_bytes(data)
    last = last_good.find(out)
    assert last is not None and last.suffix == ".txt"
    assert tasks.check_config(last.folder, last.suffix).event.id == "t"
    assert tasks.read_inputs.fn(last.folder, ["players.csv"], last.suffix)["players.csv"][0].height == 1
    for rel in kept:  # as an earlier version kept them
        (out / rel).rename(out / rel.removesuffix(".txt"))
    last = last_good.find(out)
    assert last is not None and last.suffix == ""
    assert tasks.check_config(last.folder, last.suffix).event.id == "t"
