"""event.toml: frozen typed config; every bad or missing key is an error naming file and key."""

from pathlib import Path

import pytest

from transforms.core.errors import ConfigError
from transforms.kinds import EventKind, parse_event_config
from transforms.swiss.config import SwissConfig

ROOT = Path(__file__).resolve().parents[2]

MINIMAL = """
[event]
id = "x"
name = "X Open"
kind = "swiss"
start = 2024-09-16
end = 2024-09-24
venue = "V"
organiser = "O"
currency = "INR"
contact = "C"
[publish]
sender = "a@b.example"
[swiss]
rounds = 5
categories = [{ id = "open", name = "Open" }]
"""


def test_demo_configs_load_into_frozen_objects():
    for name in ("national-junior-2024", "golden-knights-2019", "club-open-2025",
                 "club-championship-2025"):
        path = ROOT / "inputs" / name / "event.toml"
        cfg = parse_event_config(path.read_text(), file=str(path))
        with pytest.raises(AttributeError):
            cfg.event.id = "changed"  # frozen
    nj = parse_event_config((ROOT / "inputs/national-junior-2024/event.toml").read_text())
    assert nj.event.kind is EventKind.SWISS
    assert nj.require(SwissConfig).rounds == 11
    assert nj.require(SwissConfig).tiebreaks == ("BH-C1", "BH", "SB", "DE", "WIN", "BWG")
    for cat in nj.require(SwissConfig).categories:
        assert len(cat.prizes) == 20 and sum(cat.prizes) == 250000
        assert "demo assumption" in cat.prizes_note.lower()


def test_minimal_swiss_config_gets_defaults():
    cfg = parse_event_config(MINIMAL)
    assert cfg.require(SwissConfig).tiebreak_edition == "fide-2024"
    assert cfg.require(SwissConfig).category("open").name == "Open"


@pytest.mark.parametrize("text, key", [
    (MINIMAL.replace('id = "x"\n', ""), "event.id"),
    (MINIMAL.replace("rounds = 5", 'rounds = "five"'), "swiss.rounds"),
    (MINIMAL.replace("rounds = 5", "rounds = 5\nround = 6"), "swiss.round"),
    (MINIMAL.replace('kind = "swiss"', 'kind = "knockout"'), "event.kind"),
    (MINIMAL.replace("end = 2024-09-24", "end = 2024-09-01"), "event.end"),
    (MINIMAL.replace("start = 2024-09-16", 'start = "16.9.2024"'), "event.start"),
    (MINIMAL + "\n[prizes]\nx = 1\n", "prizes"),
    (MINIMAL.replace("[swiss]", "[swiss]\ndutch_edition = '2019'"), "swiss.dutch_edition"),
    (MINIMAL.replace('{ id = "open", name = "Open" }', '{ id = "open" }'), "swiss.categories[0].name"),
    (MINIMAL.replace('sender = "a@b.example"', 'sender = "a@b.example"\nrecipients = [{ name = "CA", email = "ca" }]'),
     "publish.recipients[0].email"),
    (MINIMAL.replace('sender = "a@b.example"', 'sender = "a@b.example"\nrecipients = [{ name = "CA", email = "ca@b.example", role = "boss" }]'),
     "publish.recipients[0].role"),
    (MINIMAL.replace('sender = "a@b.example"', 'sender = "a@b.example"\nsmtp_tls = true\nsmtp_starttls = true'),
     "publish.smtp_tls"),
    (MINIMAL.replace('sender = "a@b.example"', 'sender = "a@b.example"\nsmtp_retries = 0'), "publish.smtp_retries"),
    (MINIMAL.replace('sender = "a@b.example"', 'sender = "a@b.example"\nsmtp_password = "x"'), "publish.smtp_password"),
])
def test_bad_or_missing_key_is_an_error_naming_the_key(text, key):
    with pytest.raises(ConfigError) as e:
        parse_event_config(text, file="inputs/x/event.toml")
    assert e.value.key == key
    assert "inputs/x/event.toml" in str(e.value)


def test_invalid_toml_names_the_file():
    with pytest.raises(ConfigError, match="not valid TOML"):
        parse_event_config("[event\nid=1", file="e.toml")


# ----------------------------------------------------------------------------- header values (Step 18)

ONE_LINE = {"\n": "U+000A", "\r": "U+000D", "\t": "U+0009", "\x00": "U+0000", "\x85": "U+0085",
            "\u2028": "U+2028", "\u2029": "U+2029", "\u202e": "U+202E", "\u2066": "U+2066"}


@pytest.mark.parametrize("brk", list(ONE_LINE), ids=list(ONE_LINE.values()))
@pytest.mark.parametrize("line, key", [
    ('sender = "a@b.example"', "publish.sender"),
    ('name = "X Open"', "event.name"),
    ('[publish]', "publish.subject_prefix"),
    ('categories = [{ id = "open", name = "Open" }]', "swiss.categories[0].name"),
])
def test_a_line_break_or_control_character_in_any_value_is_a_config_error_naming_the_key(
        brk, line, key):
    """Every event.toml string is one line of printable text: a line break, control or bidi
    character in the sender, the subject prefix or a name that reaches a letter's subject
    once left every letter unmade without a word; now the run says which key (Decision:
    refused, not cleaned — the file is the office's own)."""
    escaped = brk.encode("unicode_escape").decode().replace("\\x", "\\u00")
    new = {
        "publish.sender": f'sender = "a@b.example{escaped}"',
        "event.name": f'name = "X{escaped}Open"',
        "publish.subject_prefix": f'[publish]\nsubject_prefix = "[X]{escaped} "',
        "swiss.categories[0].name": f'categories = [{{ id = "open", name = "Op{escaped}en" }}]',
    }[key]
    with pytest.raises(ConfigError) as e:
        parse_event_config(MINIMAL.replace(line, new))
    assert e.value.key == key and ONE_LINE[brk] in e.value.reason


@pytest.mark.parametrize("sender", [
    "Results <a@b.example>, attacker@evil.example", "a@b.example; c@d.example",
    "Results <a@b.example> c@d.example", "a@b.example c@d.example", "", "not an address"])
def test_the_sender_is_one_address(sender):
    with pytest.raises(ConfigError) as e:
        parse_event_config(MINIMAL.replace('sender = "a@b.example"', f'sender = "{sender}"'))
    assert e.value.key == "publish.sender"


@pytest.mark.parametrize("sender", ["a@b.example", "Results <a@b.example>",
                                    '\\"Results, Open\\" <a@b.example>', "Ré Sults <a@b.example>"])
def test_a_sender_with_a_display_name_is_accepted(sender):
    cfg = parse_event_config(MINIMAL.replace('sender = "a@b.example"', f'sender = "{sender}"'))
    assert cfg.publish.sender == sender.replace('\\"', '"')
