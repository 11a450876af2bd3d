"""`chessfed run` as an unattended job sees it: an unknown `--only` event is an error, and the
exit status says clean (0), published with rejected input rows (1) or failed (2)
(flows/cli/main.py `_run`, flows/pipeline/events.py `exit_status`)."""

from __future__ import annotations

from pathlib import Path

from flows.cli.main import main
from flows.pipeline.run_index import exit_status

ROOT = Path(__file__).resolve().parents[2]


def test_an_unknown_only_event_is_an_error_naming_the_known_ones(capsys):
    assert main(["run", str(ROOT / "inputs"), "--only", "no-such-event", "--out", "/nonexistent"]) == 2
    err = capsys.readouterr().err
    assert "no event folder no-such-event" in err and "national-junior-2024" in err


def test_inputs_that_are_not_a_folder_are_an_error(capsys, tmp_path):
    assert main(["run", str(tmp_path / "missing")]) == 2
    assert "is not a folder" in capsys.readouterr().err


def write_validation(out: Path, event: str, severities: list[str]) -> None:
    d = out / event / "office"
    d.mkdir(parents=True)
    rows = "".join(f"players.csv,{i + 2},name,x,{s},why\n" for i, s in enumerate(severities))
    (d / "validation.csv").write_text("file,line,column,value,severity,reason\n" + rows)


def test_exit_status_is_0_clean_1_rejected_rows_2_failure(tmp_path):
    write_validation(tmp_path, "a", ["warning"])
    write_validation(tmp_path, "b", [])
    assert exit_status(tmp_path, {"a": "ok", "b": "ok"}) == 0
    write_validation(tmp_path, "c", ["warning", "error"])
    assert exit_status(tmp_path, {"a": "ok", "c": "ok"}) == 1
    assert exit_status(tmp_path, {"a": "ok", "c": "ok", "d": "error: boom"}) == 2


def test_the_projects_prefect_settings_apply_from_any_folder_and_the_environment_wins():
    from flows.cli.main import PROJECT, prefect_settings

    env: dict[str, str] = {"PREFECT_API_URL": "http://127.0.0.1:4200/api", "PREFECT_HOME": "/srv/prefect"}
    added = prefect_settings(env)
    assert added == {"PREFECT_SERVER_ANALYTICS_ENABLED": "false",
                     "PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS": "180",
                     "PREFECT_SERVER_DATABASE_TIMEOUT": "60",
                     "PREFECT_SERVER_DATABASE_CONNECTION_TIMEOUT": "30",
                     "PREFECT_CLIENT_MAX_RETRIES": "10",
                     "PREFECT_LOGGING_LEVEL": "INFO",
                     "PREFECT_LOGGING_EXTRA_LOGGERS": "chessfed",
                     "PREFECT_LOGGING_TO_API_WHEN_MISSING_FLOW": "ignore",
                     "PREFECT_LOGGING_HANDLERS_CONSOLE_LEVEL": "WARNING"}
    assert env["PREFECT_HOME"] == "/srv/prefect" and env["PREFECT_API_URL"].endswith(":4200/api")
    fresh: dict[str, str] = {}
    prefect_settings(fresh)
    assert fresh["PREFECT_HOME"] == str(PROJECT / ".prefect")
    loud: dict[str, str] = {"PREFECT_LOGGING_HANDLERS_CONSOLE_LEVEL": "WARNING"}
    prefect_settings(loud, verbose=True)
    assert loud["PREFECT_LOGGING_HANDLERS_CONSOLE_LEVEL"] == "INFO"  # -v: Prefect's lines too


def test_prefect_toml_says_what_the_command_line_sets():
    """The settings a worker of ``chessfed deploy`` reads (prefect.toml, in the project's folder)
    and those ``chessfed`` sets from any folder agree: INFO logs, chessfed's own to the API."""
    import tomllib

    from flows.cli.main import PROJECT, prefect_settings

    toml = tomllib.loads((PROJECT / "prefect.toml").read_text())
    env: dict[str, str] = {}
    prefect_settings(env)
    assert toml["logging"]["level"] == env["PREFECT_LOGGING_LEVEL"] == "INFO"
    assert toml["logging"]["extra_loggers"] == env["PREFECT_LOGGING_EXTRA_LOGGERS"] == "chessfed"
    assert toml["logging"]["to_api"]["when_missing_flow"] == env["PREFECT_LOGGING_TO_API_WHEN_MISSING_FLOW"]
    assert toml["server"]["database"]["timeout"] == float(env["PREFECT_SERVER_DATABASE_TIMEOUT"])


def test_flow_runs_on_the_runs_own_server_send_no_heartbeats_and_the_offices_keep_them():
    # The run's own server ends with the run: a heartbeat thread would only cost up to a
    # second at the end of each flow run (flows/cli/main.py own_server_settings).
    from prefect.settings import get_current_settings

    from flows.cli.main import OwnServer, own_server_settings

    configured = get_current_settings().flows.heartbeat_frequency
    assert configured is not None  # Prefect's default: heartbeats on
    with own_server_settings(OwnServer(proc=None, err=None, url="http://127.0.0.1:1/api")):
        assert get_current_settings().flows.heartbeat_frequency is None
    assert get_current_settings().flows.heartbeat_frequency == configured
    with own_server_settings(None):  # the office's server (PREFECT_API_URL): as configured
        assert get_current_settings().flows.heartbeat_frequency == configured


def test_the_progress_lines_go_to_the_standard_error_of_the_moment():
    """``chessfed run`` called in a process whose standard error is replaced later (a test's
    capture, a notebook) writes its progress to the one of the moment, never to a closed one
    it kept from its start (under pytest-xdist that was a "Logging error" in a later test)."""
    import io
    import logging
    import sys

    from flows.cli.main import ProgressHandler

    handler = ProgressHandler()
    handler.setFormatter(logging.Formatter("%(message)s"))
    log = logging.getLogger("chessfed.test-progress")
    log.addHandler(handler)
    log.propagate = False
    first, second = io.StringIO(), io.StringIO()
    saved = sys.stderr
    try:
        sys.stderr = first
        log.warning("one")
        first.close()
        sys.stderr = second
        log.warning("two")
    finally:
        sys.stderr = saved
        log.removeHandler(handler)
    assert second.getvalue() == "two\n"
