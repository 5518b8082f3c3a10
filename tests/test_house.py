"""The house rules, kept by the suite: functions a reader can hold, one-way imports.

- No function over 60 lines (from its `def` to its last line) and none over 6
  parameters (`self` and `cls` not counted; a dataclass's generated constructor is not
  a `def`). A command with many options gathers them into a frozen dataclass
  (`mafia_sheets/cli/common.py`, `gathered`).
- The modules import one another without a circle (imports inside functions and under
  `TYPE_CHECKING` count too), and `model.py` imports nothing from `rating/`.
"""

from __future__ import annotations

import ast
import itertools
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "mafia_sheets"
MAX_LINES = 60
MAX_PARAMETERS = 6

# The reading stage's functions over the limits while it is being rewritten: empty this as
# they are split; never add to it.
READING_ALLOWED: set[str] = set()
# Factories that build one frozen record from its fields, as its constructor would.
CONSTRUCTORS = {"findings.py::finding"}


def functions() -> list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        name = path.relative_to(PACKAGE).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                found.append((f"{name}::{node.name}", node))
    return found


def parameters(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    given = node.args
    named = [*given.posonlyargs, *given.args, *given.kwonlyargs]
    count = sum(1 for a in named if a.arg not in ("self", "cls"))
    return count + (given.vararg is not None) + (given.kwarg is not None)


def test_no_function_is_too_long_or_takes_too_many_parameters():
    over = sorted(
        f"{name} ({node.end_lineno - node.lineno + 1} lines, {parameters(node)} parameters)"
        for name, node in functions()
        if (node.end_lineno or 0) - node.lineno + 1 > MAX_LINES
        or (parameters(node) > MAX_PARAMETERS and name not in CONSTRUCTORS)
    )
    assert [line for line in over if line.split(" ")[0] not in READING_ALLOWED] == []


def test_the_allowlist_only_names_functions_still_over_the_limits():
    """Once a reading function is split it leaves the list (and the list never grows)."""
    sizes = {name: node for name, node in functions()}
    still = {
        name
        for name in READING_ALLOWED
        if name in sizes
        and (
            (sizes[name].end_lineno or 0) - sizes[name].lineno + 1 > MAX_LINES
            or parameters(sizes[name]) > MAX_PARAMETERS
        )
    }
    assert still == READING_ALLOWED


def modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = ["mafia_sheets", *path.relative_to(PACKAGE).with_suffix("").parts]
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """Every module of the package that `name` imports, wherever the import stands."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            prefix = ".".join([*base, node.module] if node.module else base)
            targets = [f"{prefix}.{alias.name}" for alias in node.names] + [prefix]
        for target in targets:
            while target not in known and "." in target:
                target = target.rsplit(".", 1)[0]
            if target in known and target != name:
                out.add(target)
    return out


def test_the_import_graph_has_no_circle():
    known = modules()
    graph = {name: imports(name, path, known) for name, path in known.items()}
    circles = []
    for start in graph:
        stack = [(start, (start,))]
        seen = set()
        while stack:
            at, trail = stack.pop()
            for nxt in graph[at]:
                if nxt == start:
                    circles.append(" → ".join((*trail, start)))
                elif nxt not in seen:
                    seen.add(nxt)
                    stack.append((nxt, (*trail, nxt)))
    assert circles == []


def test_the_records_import_nothing_from_the_rating():
    known = modules()
    found = imports("mafia_sheets.model", known["mafia_sheets.model"], known)
    assert not {name for name in found if name.startswith("mafia_sheets.rating")}


def test_only_the_engine_touches_xlsxwriter():
    """Every workbook the product writes goes through report/engine.py's typed face."""
    users = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = (
                [alias.name for alias in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom) and not node.level
                else []
            )
            if any(name.split(".")[0] == "xlsxwriter" for name in names):
                users.add(path.relative_to(PACKAGE).as_posix())
    assert users == {"report/engine.py"}


# ---- the language's path through the report ------------------------------------------

MAX_CLIMBS = 4


def _imported_names(module: str, tree: ast.Module, known: dict[str, Path]) -> dict[str, tuple]:
    """Each name a module imports from the package: name → (module, function)."""
    package = module.split(".")[:-1]
    names: dict[str, tuple] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package[: len(package) - node.level + 1]
            source = ".".join([*base, node.module] if node.module else base)
            for alias in node.names:
                names[alias.asname or alias.name] = (source, alias.name)
    return {name: target for name, target in names.items() if target[0] in known}


def _passes_lang(call: ast.Call) -> bool:
    given = [*call.args, *(keyword.value for keyword in call.keywords)]
    return any(isinstance(value, ast.Name) and value.id == "lang" for value in given)


def _defined(tree: ast.Module) -> dict[str, ast.FunctionDef]:
    """A module's functions and its classes' methods (as `Class.method`)."""
    found = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    for cls in (n for n in tree.body if isinstance(n, ast.ClassDef)):
        for node in cls.body:
            if isinstance(node, ast.FunctionDef):
                found[f"{cls.name}.{node.name}"] = node
    return found


def _callee(call: ast.Call, owner: str, local: dict, imported: dict) -> str | tuple | None:
    func = call.func
    if isinstance(func, ast.Name):
        return imported.get(func.id) or (func.id if func.id in local else None)
    if (
        isinstance(func, ast.Attribute)
        and isinstance(func.value, ast.Name)
        and func.value.id == "self"
        and "." in owner
    ):
        method = f"{owner.split('.')[0]}.{func.attr}"
        return method if method in local else None
    return None


def language_calls() -> dict[tuple, set[tuple]]:
    """(module, function) → the package's functions it hands its `lang` on to, by name."""
    known = modules()
    edges: dict[tuple, set[tuple]] = {}
    for module, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = _imported_names(module, tree, known)
        local = _defined(tree)
        for name, node in local.items():
            for call in ast.walk(node):
                if isinstance(call, ast.Call) and _passes_lang(call):
                    target = _callee(call, name, local, imported)
                    if isinstance(target, str):
                        target = (module, target)
                    if target is not None:
                        edges.setdefault((module, name), set()).add(target)
    return edges


def climbs(trail: tuple[str, ...]) -> int:
    """How often a path of modules goes back to one it has already left.

    >>> climbs(("xlsx", "sheets", "cells", "sheets", "labels", "sheets"))
    2
    """
    left: set[str] = set()
    count = 0
    for before, after in itertools.pairwise(trail):
        if after != before:
            left.add(before)
            count += after in left
    return count


def test_the_language_climbs_back_through_the_report_at_most_four_times():
    """From the results workbook's sheet writers down, the language is handed on module
    by module: a path that keeps coming back to a module it left is a converter living in
    the wrong place."""
    from mafia_sheets.report import xlsx

    edges = language_calls()
    writers = [write for write, _ in (*xlsx.SHEET_WRITERS, *xlsx.STATS_WRITERS)]
    entry = ("mafia_sheets.report.xlsx", "results_workbook")
    stack = [((w.__module__, w.__name__), (entry, (w.__module__, w.__name__))) for w in writers]
    worst: tuple[int, tuple[str, ...]] = (0, ())
    walked = 0
    while stack:
        at, path = stack.pop()
        walked += 1
        trail = tuple(module for module, _ in path)
        worst = max(worst, (climbs(trail), trail))
        stack += [(n, (*path, n)) for n in edges.get(at, ()) if n not in path]
    assert walked > 50  # the walk reaches the sheets' helpers and the converters
    assert worst[0] <= MAX_CLIMBS, " → ".join(worst[1])


# A possessive repeat of a group — `(?:…)*+`, `)++`, `)?+`, `){m,n}+` — in any string of the
# package: early CPython 3.11 releases match those wrongly (`reading/xmlscan.py` says how),
# so the scanners write `(?>(?:…)*)` instead, which every 3.11 matches alike.
POSSESSIVE_GROUP = re.compile(r"\)(?:[*+?]|\{[0-9,]*\})\+")


def pattern_strings() -> list[tuple[str, str]]:
    """Every string constant of the package but docstrings (which may name the form)."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        name = path.relative_to(PACKAGE).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef)
            and node.body
            and isinstance(node.body[0], ast.Expr)
        }
        for node in ast.walk(tree):
            if id(node) in docstrings:
                continue
            if isinstance(node, ast.Constant) and isinstance(node.value, str | bytes):
                text = node.value if isinstance(node.value, str) else node.value.decode("latin-1")
                found.append((f"{name}:{node.lineno}", text))
    return found


def test_no_pattern_repeats_a_group_possessively():
    strings = pattern_strings()
    assert any("(?>" in text for _, text in strings)  # the atomic groups are seen
    found = [where for where, text in strings if POSSESSIVE_GROUP.search(text)]
    assert found == []
