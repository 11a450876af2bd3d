"""The house rules (DESIGN.md "Layout", STYLE.md "For this project"), checked on the source of
every module of every subpackage, so that they hold as the house grows:

- ``transforms/`` is the rulebook: it imports only polars, the standard library's pure modules
  and ``transforms.*``; it does no I/O, reads no clock and no environment, changes no
  interpreter setting and writes no frozen dataclass behind its back;
- every public rule function's docstring starts with the text it carries out;
- the import graph of ``flows/`` and ``transforms/`` has no cycle, and the layers of each point
  one way (``flows/``: cli → pipeline → kinds → mail → site → io; nothing imports devtools);
- no module outside a kind's home names that kind;
- the page and letter modules take from the rulebook only types, vocabularies and formatting
  helpers: the rulebook computes what they print before they run;
- no private name (``_name``) crosses a module, tests included;
- every CSV the flows write goes through ``flows.io.csv_text`` or ``neutral_cell``.
"""

from __future__ import annotations

import ast
import functools
import importlib
import importlib.util
import inspect
import re
import types
import typing
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TRANSFORMS = ROOT / "transforms"
PACKAGES = ("flows", "transforms", "tests")

ALLOWED_IMPORTS = {"polars", "transforms", "__future__", "chess"}
"""polars; python-chess (``chess``: the PGN standard's reader and the rules of chess, the
field's own library; pure — it reads the text the rulebook hands it, issue 48)."""
STDLIB_OK = {"dataclasses", "datetime", "decimal", "enum", "typing", "types", "collections",
             "itertools", "functools", "math", "re", "random", "tomllib", "heapq", "bisect",
             "operator", "statistics", "string", "abc", "copy", "contextlib", "hashlib",
             "unicodedata", "email", "xml", "fractions"}
"""The standard library's pure modules (fractions: exact series points; hashlib: a checksum of values, e.g. a pairing's key;
unicodedata: a character's category; email: parsing an address, ``email.utils``; xml: parsing a
document given as bytes, ``xml.etree.ElementTree.iterparse`` over them). Not ``os``, ``sys``, ``io``, ``pathlib``, ``time``,
``subprocess``, ``socket``, ``logging``: the flows do I/O, read the clock and the environment."""
FORBIDDEN_CALLS = {"open", "input", "print", "exec", "eval", "breakpoint", "__import__"}
FORBIDDEN_ATTRS = {("datetime", "now"), ("datetime", "today"), ("datetime", "utcnow"),
                   ("date", "today"), ("time", "time"), ("time", "perf_counter"),
                   ("os", "environ"), ("os", "getenv"), ("sys", "setrecursionlimit"),
                   ("object", "__setattr__")}
FORBIDDEN_METHODS = {"read_text", "write_text", "read_bytes", "write_bytes", "__dict__"}
"""Attribute names that mean file I/O or writing an object behind its frozen dataclass."""
POLARS_IO = re.compile(r"^(read|scan|write|sink)_")
REGULATION = re.compile(r"^(FIDE |GK rules? |NJ 2024 |National Junior |Team regulations |Series "
                        r"regulations |DESIGN\.md )")
"""How a rule's docstring starts: the text it carries out (STYLE.md rule 2). ``Team
regulations`` are a team competition's own, as its event.toml's ``[team]`` states them (a
league's or an Olympiad's: who may play, board order, forfeits); ``Series regulations`` a
series' own, as its event.toml's ``[series]`` states them (points, best N, identity)."""
TOOLS = {"transforms/core/money.py", "transforms/fide/dutch/matching.py", "transforms/core/steps.py"}
"""Modules of tools, not rules: formatting amounts, the weighted-matching solver, the step
timer's protocol."""


def sources(*packages: str) -> list[Path]:
    return sorted(p for pkg in packages for p in (ROOT / pkg).rglob("*.py")
                  if "data" not in p.relative_to(ROOT).parts)


@functools.cache
def tree(path: Path) -> ast.Module:
    """The module's syntax tree, parsed once for every check that reads it (none changes it)."""
    return ast.parse(path.read_text(encoding="utf-8"))


def rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_every_subpackage_is_checked():
    found = {rel(p) for p in sources("transforms")}
    for expected in ("transforms/core/model.py", "transforms/fide/dutch/brackets.py",
                     "transforms/swiss/event.py", "transforms/national_junior/same_state.py",
                     "transforms/golden_knights/event.py"):
        assert expected in found


def test_transforms_import_only_polars_the_pure_standard_library_and_transforms():
    for path in sources("transforms"):
        for node in ast.walk(tree(path)):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name.split(".")[0] for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module.split(".")[0]]
            for n in names:
                assert n in ALLOWED_IMPORTS | STDLIB_OK, f"{rel(path)}:{node.lineno} imports {n}"


def test_transforms_do_no_io_read_no_clock_or_environment_and_change_no_global_state():
    for path in sources("transforms"):
        for node in ast.walk(tree(path)):
            where = f"{rel(path)}:{getattr(node, 'lineno', '?')}"
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id not in FORBIDDEN_CALLS, f"{where} calls {node.func.id}"
            if isinstance(node, ast.Attribute):
                assert node.attr not in FORBIDDEN_METHODS, f"{where} uses .{node.attr}"
                if isinstance(node.value, ast.Name):
                    assert (node.value.id, node.attr) not in FORBIDDEN_ATTRS, \
                        f"{where} uses {node.value.id}.{node.attr}"
                    assert not (node.value.id == "pl" and POLARS_IO.match(node.attr)), \
                        f"{where} uses pl.{node.attr}"
            if isinstance(node, ast.Global):
                raise AssertionError(f"{where} rebinds a global: {node.names}")


def test_every_module_says_what_it_carries_out():
    for path in sources("transforms", "flows"):
        doc = ast.get_docstring(tree(path))
        assert doc and len(doc) > 20, f"{rel(path)} has no module docstring"


def test_every_public_rule_function_names_its_regulation_first():
    missing = []
    for path in sources("transforms"):
        if rel(path) in TOOLS:
            continue
        for node in tree(path).body:
            if isinstance(node, ast.FunctionDef) and not node.name.startswith("_"):
                doc = ast.get_docstring(node) or ""
                if not REGULATION.match(doc):
                    missing.append(f"{rel(path)}:{node.lineno} {node.name}: {doc[:40]!r}")
    assert not missing, "docstrings that do not start with their regulation:\n" + "\n".join(missing)


def imports_of(path: Path, known: set[str], *, typing_only: bool = True) -> set[str]:
    """The project modules ``path`` imports (at the top or inside a function); without
    ``typing_only``, not those imported for the type checker alone (``if TYPE_CHECKING:``),
    which are never imported when the program runs."""
    out = set()
    skip: set[int] = set()
    if not typing_only:
        for node in ast.walk(tree(path)):
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                skip |= {id(n) for n in ast.walk(node)}
    for node in ast.walk(tree(path)):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            targets = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        else:
            continue
        out |= {t for t in targets if t in known}
    return out


def import_graph(*, typing_only: bool = True) -> dict[str, set[str]]:
    """Module -> the project modules it imports (``typing_only``: also those imported for the
    type checker alone: a layer is a layer for the types too)."""
    paths = {module_name(p): p for p in sources("flows", "transforms")}
    known = set(paths)
    # a package's __init__ holds only its docstring, so importing ``a.b.c`` does not make
    # ``a.b`` a dependency; ``from a.b import c`` names the module ``a.b.c``
    return {m: {d for d in imports_of(p, known, typing_only=typing_only)
                if d != m and not m.startswith(d + ".")}
            for m, p in paths.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = iter(range(10**9))

    def visit(v: str) -> None:
        index[v] = low[v] = next(counter)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


LAYERS = {
    "transforms.core": {"transforms.core"},
    "transforms.fide": {"transforms.core", "transforms.fide"},
    "transforms.swiss": {"transforms.core", "transforms.fide", "transforms.swiss"},
    "transforms.round_robin": {"transforms.core", "transforms.fide", "transforms.swiss",
                               "transforms.round_robin"},
    "transforms.golden_knights": {"transforms.core", "transforms.fide", "transforms.golden_knights"},
    "transforms.national_junior": {"transforms.core", "transforms.fide", "transforms.swiss",
                                   "transforms.season", "transforms.national_junior"},
    "transforms.team": {"transforms.core", "transforms.fide", "transforms.round_robin",
                        "transforms.team"},
    "transforms.season": {"transforms.core", "transforms.fide", "transforms.season"},
    "transforms.series": {"transforms.core", "transforms.fide", "transforms.season",
                          "transforms.series"},
}
"""The layers of the rulebook (DESIGN.md "Event kinds and rules parts"): ``core`` is the
vocabulary every kind shares and imports no regulation; FIDE's regulations build on it; each
kind (swiss, round_robin, correspondence) on those, and a rules part (the National Junior's) on
the kind it adds to. Only ``transforms.kinds``, the registry, knows them all."""


def layer_violations(graph: dict[str, set[str]]) -> list[str]:
    """Every import of a rulebook module that goes against :data:`LAYERS`."""
    wrong = []
    for module, deps in sorted(graph.items()):
        layer = next((k for k in LAYERS if module == k or module.startswith(k + ".")), None)
        if layer is None:
            continue
        wrong += [f"{module} imports {d}" for d in sorted(deps) if d.startswith("transforms.")
                  and not any(d == a or d.startswith(a + ".") for a in LAYERS[layer])]
    return wrong


def test_the_layers_point_one_way_core_imports_no_regulation():
    graph = import_graph()
    assert layer_violations(graph) == []
    packages = {".".join(m.split(".")[:2]) for m in graph if m.startswith("transforms.")}
    assert packages <= set(LAYERS) | {"transforms.kinds"}  # a new package names its layer


def test_the_layer_check_sees_core_or_a_kind_import_a_regulation_or_a_part():
    assert layer_violations({"transforms.core.config": {"transforms.national_junior.entries"},
                             "transforms.swiss.event": {"transforms.national_junior.same_state",
                                                        "transforms.fide.trf"},
                             "transforms.kinds": {"transforms.national_junior.part"}}) == [
        "transforms.core.config imports transforms.national_junior.entries",
        "transforms.swiss.event imports transforms.national_junior.same_state"]


FLOWS_LAYERS = {"flows.io": 0, "flows.site": 1, "flows.mail": 2, "flows.kinds": 3,
                "flows.parts": 4, "flows.registry": 5, "flows.pipeline": 6, "flows.verify": 6,
                "flows.cli": 7}
"""The layers of ``flows/`` (docs/architecture.md): a module imports only modules of its own
package and of lower layers — the command line (``cli``) the pipeline (the run and an event's
flow) and the engine checks (``verify``), the pipeline the registry, which lists the kinds of
event and the rules parts (each in its home: a kind's build, pages and letters; a part's pages
and letters, through the protocol of the kind it adds to), a kind the letters' and the pages'
machinery, those the I/O helpers. ``flows.devtools`` (benchmarks, demo makers:
not in the installed package) may import anything and nothing but itself imports it."""


def flows_layer_violations(graph: dict[str, set[str]]) -> list[str]:
    """Every import in ``flows/`` that goes against :data:`FLOWS_LAYERS`."""
    def package(module: str) -> str:
        return next((k for k in (*FLOWS_LAYERS, "flows.devtools")
                     if module == k or module.startswith(k + ".")), module)

    wrong = []
    for module, deps in sorted(graph.items()):
        mine = package(module)
        for d in sorted(x for x in deps if x.startswith("flows.")):
            theirs = package(d)
            if theirs == mine or mine == "flows.devtools":
                continue
            if theirs == "flows.devtools" or theirs not in FLOWS_LAYERS or mine not in FLOWS_LAYERS \
                    or FLOWS_LAYERS[theirs] >= FLOWS_LAYERS[mine]:
                wrong.append(f"{module} imports {d}")
    return wrong


def test_the_layers_of_flows_point_one_way():
    graph = import_graph()
    assert flows_layer_violations(graph) == []
    packages = {".".join(m.split(".")[:2]) for m in graph if m.startswith("flows.")}
    assert packages <= set(FLOWS_LAYERS) | {"flows.devtools"}  # a new package names its layer


def test_the_flows_layer_check_sees_a_lower_layer_import_a_higher_one_or_devtools():
    assert flows_layer_violations({
        "flows.mail.letters": {"flows.site.render", "flows.pipeline.last_good"},
        "flows.kinds.swiss.flow": {"flows.pipeline.tasks", "flows.kinds.base"},
        "flows.cli.main": {"flows.devtools.simulate", "flows.verify.generate"},
        "flows.pipeline.tasks": {"flows.verify.campaign"},
        "flows.devtools.bench": {"flows.cli.main"}}) == [
        "flows.cli.main imports flows.devtools.simulate",
        "flows.kinds.swiss.flow imports flows.pipeline.tasks",
        "flows.mail.letters imports flows.pipeline.last_good",
        "flows.pipeline.tasks imports flows.verify.campaign"]


KIND_HOMES = {"swiss": "flows.kinds.swiss", "correspondence": "flows.kinds.correspondence",
              "team": "flows.kinds.team", "series": "flows.kinds.series"}
"""Each kind's home in ``flows/``."""


def test_no_module_outside_a_kinds_home_names_that_kind():
    """A kind lives in its home (flows/kinds/<kind>/) and registers itself there: only the
    registry and the rules parts that add to a kind (flows/parts/<part>/) import a home, and no
    module of ``flows/`` outside the homes names a kind of
    :class:`transforms.kinds.EventKind` (the pipeline dispatches through the registry)."""
    graph = import_graph()
    found = [f"{m} imports {d}" for m, deps in sorted(graph.items()) for d in sorted(deps)
             for home in KIND_HOMES.values()
             if d.startswith(home + ".") and not m.startswith(home + ".")
             and m != "flows.registry" and not m.startswith("flows.parts.")]
    assert found == []
    named = [f"{rel(p)}:{n.lineno}" for p in sources("flows") for n in ast.walk(tree(p))
             if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)
             and n.value.id == "EventKind" and n.attr.isupper()
             and not any(module_name(p).startswith(h + ".") for h in KIND_HOMES.values())]
    assert named == []


def test_the_import_graph_has_no_cycle():
    """No module imports itself through others when the program runs (an import for the type
    checker alone, ``if TYPE_CHECKING:``, may close a loop: a protocol naming a type of the
    module that implements it)."""
    graph = import_graph(typing_only=False)
    assert "transforms.fide.dutch.brackets" in graph["transforms.fide.dutch.rules_2025"]
    assert cycles(graph) == []


def test_the_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_package_inits_hold_only_their_docstring():
    for path in sources("flows", "transforms"):
        if path.name == "__init__.py":
            body = tree(path).body
            assert len(body) == 1 and isinstance(body[0], ast.Expr), \
                f"{rel(path)}: importing a package must not load its modules"


def test_no_private_name_crosses_a_module():
    crossing = []
    for path in sources(*PACKAGES):
        t = tree(path)
        aliases = set()
        for node in ast.walk(t):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0 \
                    and node.module.split(".")[0] in PACKAGES:
                for a in node.names:
                    if a.name.startswith("_") and not a.name.startswith("__"):
                        crossing.append(f"{rel(path)}:{node.lineno} imports {node.module}.{a.name}")
                    aliases.add(a.asname or a.name)
            elif isinstance(node, ast.Import):
                aliases |= {(a.asname or a.name).split(".")[0] for a in node.names
                            if a.name.split(".")[0] in PACKAGES}
        for node in ast.walk(t):
            if (isinstance(node, ast.Attribute) and node.attr.startswith("_")
                    and not node.attr.startswith("__") and isinstance(node.value, ast.Name)
                    and node.value.id in aliases):
                crossing.append(f"{rel(path)}:{node.lineno} uses {node.value.id}.{node.attr}")
    assert not crossing, "\n".join(crossing)


def test_prefect_is_used_through_its_public_interface_only():
    """Issue 25: no Prefect internals anywhere in the project — no variable of the ``PREFECT`` + two underscores kind (the
    private ones Prefect sets for itself), no import of ``prefect.server`` (the server is started
    as a user starts it: ``prefect server start``), of a private module (``prefect._…``) or of
    a private name, no ``.fn`` of a task called to skip Prefect, and Prefect's settings only
    through its documented ``PREFECT_*`` settings."""
    found = []
    for path in sources("flows", "transforms", "tests"):
        text = path.read_text(encoding="utf-8")
        if "PREFECT" + "__" in text:
            found.append(f"{rel(path)}: a private PREFECT variable")
        for node in ast.walk(tree(path)):
            names = []
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("prefect"):
                names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names if a.name.startswith("prefect")]
            for name in names:
                parts = name.split(".")
                if parts[:2] == ["prefect", "server"] or any(p.startswith("_") for p in parts):
                    found.append(f"{rel(path)}:{node.lineno} imports {name}")
            if (isinstance(node, ast.Attribute) and node.attr == "fn" and path.parts[-2] != "tests"
                    and rel(path).startswith("flows/")):
                found.append(f"{rel(path)}:{node.lineno} calls a task's .fn")
    assert not found, "\n".join(found)


CSV_WRITE_METHODS = {"write_csv", "sink_csv", "to_csv"}
CSV_WRITER_CLASSES = {"writer", "DictWriter"}
CSV_HELPER = "flows/io.py"
"""Where the one CSV writer of the outputs is (``csv_text``, ``neutral_cell``)."""
INPUT_WRITERS = {
    "flows/cli/import_trf.py": "the demo inputs and import-trf's players.csv and results.csv: "
                                "input files the program reads back as they are written",
    "flows/pipeline/season_lists.py": "the entries an event took from the season's rating list, "
                                      "kept with its published inputs (read back as written)",
}
"""Modules under flows/ that write CSV files that are inputs, not outputs (flows/devtools too:
benchmarks and generators of inputs)."""


def csv_writes_without_helper(source: str) -> list[int]:
    """The lines of ``source`` that write a CSV around :func:`flows.io.csv_text`: a polars
    ``write_csv`` (or ``sink_csv``, a pandas ``to_csv``), or a ``csv.writer``/``DictWriter``
    made in a function that never calls ``neutral_cell``."""
    t = ast.parse(source)
    from_csv = {a.asname or a.name for node in ast.walk(t) if isinstance(node, ast.ImportFrom)
                and node.module == "csv" for a in node.names if a.name in CSV_WRITER_CLASSES}
    lines = []

    def visit(node: ast.AST, neutral: bool) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            neutral = any((isinstance(n, ast.Name) and n.id == "neutral_cell")
                          or (isinstance(n, ast.Attribute) and n.attr == "neutral_cell")
                          for n in ast.walk(node))
        if isinstance(node, ast.Attribute) and node.attr in CSV_WRITE_METHODS:
            lines.append(node.lineno)
        if isinstance(node, ast.Call) and not neutral and (
                (isinstance(node.func, ast.Attribute) and node.func.attr in CSV_WRITER_CLASSES
                 and isinstance(node.func.value, ast.Name) and node.func.value.id == "csv")
                or (isinstance(node.func, ast.Name) and node.func.id in from_csv)):
            lines.append(node.lineno)
        for child in ast.iter_child_nodes(node):
            visit(child, neutral)

    visit(t, False)
    return sorted(set(lines))


def test_every_csv_the_flows_write_goes_through_the_formula_neutraliser():
    """OWASP "CSV Injection": every CSV a run or a command writes is made by
    ``flows.io.csv_text`` (frames) or with ``flows.io.neutral_cell`` on every cell (the
    ``csv`` module's writers), so that no cell from the inputs opens as a formula."""
    found = [f"{rel(path)}:{line}" for path in sources("flows")
             if not rel(path).startswith("flows/devtools/")
             and rel(path) not in (CSV_HELPER, *INPUT_WRITERS)
             for line in csv_writes_without_helper(path.read_text(encoding="utf-8"))]
    assert not found, "CSV written without flows.io.csv_text/neutral_cell:\n" + "\n".join(found)
    assert csv_writes_without_helper((ROOT / "flows/cli/import_trf.py").read_text()) != []


def test_the_csv_check_sees_a_frame_written_and_a_writer_without_neutral_cell():
    source = '''
import csv
from csv import DictWriter as W
def a(frame):
    return frame.write_csv()
def b(out):
    csv.writer(out).writerow(["=1+1"])
def c(out, rows):
    w = W(out, fieldnames=["k"])
    w.writerows({"k": neutral_cell(r)} for r in rows)
def d(out):
    W(out, fieldnames=["k"])
def e(frame):
    return csv_text(frame)
'''
    assert csv_writes_without_helper(source) == [5, 7, 12]


PAGE_MODULES = ("flows/kinds/*/pages.py", "flows/kinds/*/players.py", "flows/kinds/*/ratings.py",
                "flows/kinds/*/site.py", "flows/kinds/*/sections.py", "flows/kinds/*/members.py",
                "flows/kinds/*/awards.py", "flows/kinds/*/links.py", "flows/kinds/*/letters.py",
                "flows/kinds/*/common.py", "flows/kinds/norms.py", "flows/parts/*/pages.py",
                "flows/parts/*/letters.py")
"""The page and letter modules of the kinds and the rules parts (and what a kind's pages
share, ``common.py``): they format what the rulebook computed."""
FORMATTING_MODULES = {"transforms.core.model": "the vocabulary (result codes, kinds, colours, "
                                               "titles) and its spellings",
                      "transforms.core.money": "amounts as the regulations write them"}
"""Modules of the rulebook a page may use whole: nothing in them decides a rule."""
FORMATTING_NAMES = {("transforms.fide.tiebreaks", "parse_code"):
                    "a configured tie-break code read into its parts, to name it in words",
                    ("transforms.fide.norms", "points_text"):
                    "a score in half points written as a norm report writes it (6½)"}
"""Functions of the rulebook a page may call, each with why it is no rule."""


def page_import_violations(source: str, reexports: dict[str, dict[str, str]]) -> list[str]:
    """What a page or letter module takes from the rulebook beyond types, vocabularies and
    formatting: a module of it (``from transforms.swiss import scorecard``, ``import
    transforms.x``: every rule in reach), or a function that is neither in
    :data:`FORMATTING_MODULES` nor :data:`FORMATTING_NAMES`. Classes (configuration, the run's
    result dataclasses, enums), type aliases and values (UPPER_CASE constants, schemas) are
    types and vocabularies. ``reexports``: flows module -> name -> the rulebook module it
    imports it from, so that a rule passed on by a flows module counts as taken."""
    wrong = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            wrong += [f"{node.lineno}: import {a.name}" for a in node.names
                      if a.name.split(".")[0] == "transforms"]
            continue
        if not (isinstance(node, ast.ImportFrom) and node.module and node.level == 0):
            continue
        for a in node.names:
            module = node.module
            if module.startswith("flows."):
                module = reexports.get(module, {}).get(a.name, "")
            if not module.startswith("transforms") or module in FORMATTING_MODULES \
                    or (module, a.name) in FORMATTING_NAMES:
                continue
            obj = getattr(importlib.import_module(module), a.name, None)
            if obj is None and importlib.util.find_spec(f"{module}.{a.name}") is not None:
                obj = importlib.import_module(f"{module}.{a.name}")
            if isinstance(obj, types.ModuleType):
                wrong.append(f"{node.lineno}: {module}.{a.name} (a module of the rulebook)")
            elif callable(obj) and not inspect.isclass(obj) and typing.get_origin(obj) is None:
                wrong.append(f"{node.lineno}: {module}.{a.name} (a rule function)")
    return wrong


def flows_reexports() -> dict[str, dict[str, str]]:
    """Every flows module's names imported from the rulebook (name -> its module)."""
    return {module_name(p): {a.asname or a.name: n.module for n in ast.walk(tree(p))
                             if isinstance(n, ast.ImportFrom) and n.module and n.level == 0
                             and n.module.startswith("transforms") for a in n.names}
            for p in sources("flows")}


def test_pages_and_letters_format_what_the_rulebook_computed_and_call_no_rule():
    """Issue "Step 19" (the rulebook finishes before the pages): everything a page, PDF or
    letter prints — standings, tie-break details and separations, crosstables, round by round
    progress, rating changes of every round, statistics by state association, prize splits,
    stage records, the TRFs and the FIDE rating report's check — is computed by the rulebook
    into the run's typed results (``SwissRun``/``CategoryRun``, ``GKResult``) before the
    pages are made. So the page and letter modules (:data:`PAGE_MODULES`) take from
    ``transforms`` only what decides nothing: types (the configuration's and the results'
    classes, enums), vocabularies (constants), the vocabulary and money modules
    (:data:`FORMATTING_MODULES`) and the formatting helpers of :data:`FORMATTING_NAMES` —
    never a module of the rulebook (every rule in reach) nor a rule function, directly or
    passed on by another flows module. A rule called from a page would run again on every
    page built, could change the run behind the kept groups' keys, and would put a rule
    where the coverage tables do not look for it."""
    paths = sorted({p for pattern in PAGE_MODULES for p in ROOT.glob(pattern)})
    assert {rel(p) for p in paths} >= {"flows/kinds/swiss/pages.py", "flows/kinds/swiss/letters.py",
                                       "flows/kinds/correspondence/awards.py",
                                       "flows/parts/national_junior/pages.py"}
    reexports = flows_reexports()
    found = [f"{rel(p)}:{w}" for p in paths
             for w in page_import_violations(p.read_text(encoding="utf-8"), reexports)]
    assert not found, "pages and letters that take a rule from the rulebook:\n" + "\n".join(found)


def test_the_page_import_check_sees_a_rule_a_module_and_a_rule_passed_on():
    source = '''
from transforms.core.model import Kind
from transforms.core.money import amount_text
from transforms.swiss.event import SwissRun, tiebreak_detail
from transforms.swiss.progress import EQUAL_AFTER_ALL
from transforms.swiss import scorecard as sc
import transforms.swiss.statistics
from flows.kinds.swiss.flow import write_trf
from flows.kinds.swiss.common import COLOUR
'''
    assert page_import_violations(source, {"flows.kinds.swiss.flow": {"write_trf": "transforms.fide.trf"}}) == [
        "4: transforms.swiss.event.tiebreak_detail (a rule function)",
        "6: transforms.swiss.scorecard (a module of the rulebook)",
        "7: import transforms.swiss.statistics",
        "8: transforms.fide.trf.write_trf (a rule function)"]


def test_the_run_waits_for_the_event_task_runs_prefect_names():
    """The run's end waits until Prefect has recorded each event's task run, found by its name
    (flows/cli/main.py ``wait_for_task_runs``): one template names it on both sides."""
    from flows.pipeline.events import run_event
    from flows.pipeline.run_index import EVENT_TASK_RUN, event_task_run

    assert run_event.task_run_name == EVENT_TASK_RUN
    assert event_task_run("national-junior-2024") == "event-national-junior-2024"
