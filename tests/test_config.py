"""event.toml: frozen typed config; every bad or missing key is an error naming file and key."""

from pathlib import Path

import pytest

from transforms.core.errors import ConfigError
from transforms.kinds import EventKind, parse_event_config

ROOT = Path(__file__).resolve().parent.parent

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
    for name in ("national-junior-2024", "golden-knights-2019"):
        path = ROOT / "inputs" / name / "event.toml"
        cfg = parse_event_config(path.read_text(), file=str(path))
        with pytest.raises(AttributeError):
            cfg.event.id = "changed"  # frozen
    nj = parse_event_config((ROOT / "inputs/national-junior-2024/event.toml").read_text())
    assert nj.event.kind is EventKind.SWISS
    assert nj.swiss.rounds == 11
    assert nj.swiss.tiebreaks == ("BH-C1", "BH", "SB", "DE", "WIN", "BWG")
    for cat in nj.swiss.categories:
        assert len(cat.prizes) == 20 and sum(cat.prizes) == 250000
        assert "demo assumption" in cat.prizes_note.lower()


def test_minimal_swiss_config_gets_defaults():
    cfg = parse_event_config(MINIMAL)
    assert cfg.swiss.tiebreak_edition == "fide-2024"
    assert cfg.swiss.category("open").name == "Open"


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
