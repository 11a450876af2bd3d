"""DESIGN.md boundaries: transforms/ is the rulebook — pure functions, no I/O, no clock, no
environment, no prefect; every rule names its regulation in its docstring."""

import ast
from pathlib import Path

TRANSFORMS = Path(__file__).resolve().parent.parent / "transforms"
ALLOWED_IMPORTS = {"polars", "transforms", "__future__"}
STDLIB_OK = {"dataclasses", "datetime", "decimal", "enum", "typing", "types", "collections",
             "itertools", "functools", "math", "re", "random", "tomllib", "heapq", "bisect",
             "operator", "statistics", "string", "abc", "copy", "sys"}
FORBIDDEN_CALLS = {"open", "input", "print", "exec", "eval"}
FORBIDDEN_ATTRS = {("datetime", "now"), ("datetime", "today"), ("date", "today"),
                   ("time", "time"), ("os", "environ"), ("Path", "read_text"),
                   ("pl", "read_csv"), ("pl", "scan_csv"), ("pl", "read_parquet")}


def modules():
    return sorted(TRANSFORMS.rglob("*.py"))


def test_transforms_import_only_polars_the_standard_library_and_transforms():
    for path in modules():
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name.split(".")[0] for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module.split(".")[0]]
            for n in names:
                assert n in ALLOWED_IMPORTS | STDLIB_OK, f"{path.name} imports {n}"


def test_transforms_do_no_io_and_read_no_clock_or_environment():
    for path in modules():
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id not in FORBIDDEN_CALLS, f"{path.name}:{node.lineno} calls {node.func.id}"
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                assert (node.value.id, node.attr) not in FORBIDDEN_ATTRS, \
                    f"{path.name}:{node.lineno} uses {node.value.id}.{node.attr}"


def test_every_transforms_module_says_what_it_carries_out():
    for path in modules():
        doc = ast.get_docstring(ast.parse(path.read_text()))
        assert doc and len(doc) > 20, f"{path.name} has no module docstring"
