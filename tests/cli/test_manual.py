"""The manual (``docs/``, ``make docs``) says what the program does: the command line page is
the parsers' own help, the decisions page holds the coverage page's decision rows, the design
and style notes the source cites are in the repository, and the README stays a front page."""

from __future__ import annotations

import re
from pathlib import Path

from flows.devtools.cli_reference import COMMAND, cli_reference

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"


def test_the_command_line_page_is_what_the_parsers_print():
    assert (DOCS / "cli.md").read_text(encoding="utf-8") == cli_reference(), \
        f"docs/cli.md is out of date: run {COMMAND}"


def test_the_command_line_page_has_every_subcommand():
    from flows.cli.main import build_parser

    page = (DOCS / "cli.md").read_text(encoding="utf-8")
    usage = build_parser().format_usage()
    names = re.search(r"\{([^}]+)\}", usage).group(1).split(",")
    assert len(names) >= 13
    for name in names:
        assert f"## chessfed {name}\n" in page


def decision_rows(page: str) -> list[str]:
    """The table rows of ``page`` whose first cell records a decision."""
    return [line for line in page.splitlines()
            if line.startswith("| ") and "Decision" in line.split(" | ")[0]]


def test_the_decisions_page_holds_exactly_the_coverage_pages_decisions():
    coverage = decision_rows((DOCS / "coverage.md").read_text(encoding="utf-8"))
    decisions = decision_rows((DOCS / "decisions.md").read_text(encoding="utf-8"))
    assert len(coverage) > 40
    assert decisions == coverage


def test_every_section_the_source_cites_of_the_design_and_style_notes_is_there():
    design = (DOCS / "DESIGN.md").read_text(encoding="utf-8")
    style = (DOCS / "STYLE.md").read_text(encoding="utf-8")
    headings = {"DESIGN.md": re.findall(r"^#+ (.+)$", design, re.M),
                "STYLE.md": re.findall(r"^#+ (.+)$", style, re.M)}
    bullets = re.findall(r"^- ([^:]+):", design, re.M)
    rules = set(re.findall(r"^(\d+)\. ", style, re.M))
    cited = []
    for path in [*ROOT.glob("flows/**/*.py"), *ROOT.glob("transforms/**/*.py"),
                 *ROOT.glob("tests/*.py")]:
        text = path.read_text(encoding="utf-8")
        for note in ("DESIGN.md", "STYLE.md"):  # a citation may wrap onto the next line
            cited += [(path, note, " ".join(s.split()))
                      for s in re.findall(note.replace(".", r"\.") + r',?\s+"([^"]+)"', text)]
        for rule in re.findall(r"STYLE\.md rule (\d+)", text):
            assert rule in rules, f"{path}: STYLE.md has no rule {rule}"
    assert len(cited) > 10
    for path, note, section in cited:
        assert any(h.startswith(section) for h in headings[note]) or section in bullets, \
            f"{path.relative_to(ROOT)} cites {note} {section!r}, which docs/{note} does not have"


def test_the_readme_is_a_front_page_naming_the_test_command():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 200
    assert "make test" in readme and "make demo" in readme


def test_every_page_of_the_manual_is_in_its_navigation():
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    for page in DOCS.glob("*.md"):
        assert page.name in nav, f"docs/{page.name} is not in mkdocs.yml's nav"
