"""Docs that cannot drift: every command and every finding code is in the README."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import click
import pytest

from mafia_sheets.checks import _load_all
from mafia_sheets.cli.commands import commands, main
from mafia_sheets.findings import CATALOG
from mafia_sheets.reading.columns import format_table
from mafia_sheets.text import Text

README = (Path(__file__).resolve().parent.parent / "README.md").read_text("utf-8")


@pytest.mark.parametrize("command", sorted(commands()))
def test_every_command_is_in_the_readme(command):
    assert f"mafia-sheets {command}" in README


def test_every_finding_code_is_in_the_coverage_table():
    _load_all()
    import mafia_sheets.reading.settings  # noqa: F401  (defines its codes on import)

    missing = [code for code in CATALOG if f"`{code}`" not in README]
    assert missing == []


def test_readme_commands_name_files_that_exist():
    root = Path(__file__).resolve().parent.parent
    assert "samples/tournament-ru.xlsx" in README and (root / "samples/tournament-ru.xlsx").exists()
    assert "python -m pytest" in README and "python -m pytest" in (root / ".ci/run").read_text()


def test_the_readme_format_table_is_the_schema():
    block = README.split("<!-- columns -->\n", 1)[1].split("\n<!-- /columns -->", 1)[0]
    assert block == format_table()


# ---- names the docs use must exist ------------------------------------------------------

ROOT = Path(__file__).resolve().parent.parent
DOCS = ("README.md", "benchmarks/README.md")
PATH = re.compile(r"\b(?:mafia_sheets|benchmarks|samples|templates|tests|docs)/[\w./-]*\w")
DOTTED = re.compile(r"(?<![\w/.])mafia_sheets(?:\.\w+)+")
ROLE = re.compile(r":(?:mod|func|class|meth|data|attr):`~?([\w.]+)`")


def docstrings() -> list[tuple[str, str, str]]:
    """(module, object, docstring) of every module, class and function of the package."""
    found = []
    for path in sorted((ROOT / "mafia_sheets").rglob("*.py")):
        parts = ["mafia_sheets", *path.relative_to(ROOT / "mafia_sheets").with_suffix("").parts]
        module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        tree = ast.parse(path.read_text("utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                doc = ast.get_docstring(node)
                if doc:
                    found.append((module, getattr(node, "name", module), doc))
    return found


def resolves(dotted: str) -> bool:
    """`mafia_sheets.report.engine.Rows.emit`: a module, then attributes of it."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            target: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for name in parts[cut:]:
            if not hasattr(target, name):
                return False
            target = getattr(target, name)
        return True
    return False


def targets(module: str, owner: str, name: str) -> list[str]:
    """What a Sphinx role's target may mean: `.engine` in `mafia_sheets.report.xlsx` is
    `mafia_sheets.report.engine`, `..model.Stats` one package up; a bare name is the
    module's own, its class's, its package's or the product's."""
    package = module.split(".")
    if not (ROOT / Path(*package) / "__init__.py").exists():
        package = package[:-1]
    if name.startswith("."):
        dots = len(name) - len(name.lstrip("."))
        return [".".join([*package[: len(package) - dots + 1], name.lstrip(".")])]
    if name.startswith("mafia_sheets"):
        return [name]
    places = (module, f"{module}.{owner}", ".".join(package), "mafia_sheets")
    return [f"{place}.{name}" for place in places]


def test_every_path_the_docs_name_exists():
    texts = [(doc, (ROOT / doc).read_text("utf-8")) for doc in DOCS]
    texts += [(f"{m}.{o}", d) for m, o, d in docstrings()]
    missing = sorted(
        f"{where}: {path}"
        for where, text in texts
        for path in PATH.findall(text)
        if not (ROOT / path).exists() and "*" not in path
    )
    assert missing == []


def test_every_module_the_docs_name_exists():
    texts = [(doc, (ROOT / doc).read_text("utf-8"), "", "") for doc in DOCS]
    texts += [(f"{m}.{o}", d, m, o) for m, o, d in docstrings()]
    named = {(where, (name,)) for where, text, _, _ in texts for name in DOTTED.findall(text)}
    named |= {
        (where, tuple(targets(module, owner, name)))
        for where, text, module, owner in texts
        if module
        for name in ROLE.findall(text)
    }
    missing = sorted(
        f"{where}: {names[0]}" for where, names in named if not any(map(resolves, names))
    )
    assert missing == []


# ---- commands and options the README names must be accepted -----------------------------

# options in the README that belong to other programs (said beside them)
NOT_OURS = {"--check": "ruff format --check", "--hypothesis-seed": "pytest (hypothesis)"}
COMMAND_LINE = re.compile(r"(?<![\w*/-])mafia-sheets((?:[ \t]+(?!mafia-sheets)[^\s`|]+)*)")


def options_of(command: click.Command) -> set[str]:
    return {o for p in command.params for o in (*p.opts, *p.secondary_opts) if o.startswith("-")}


def test_every_command_line_in_the_readme_is_accepted():
    """`mafia-sheets rate cup.xlsx --lot-seed 2026`: the command exists and takes each
    option given after it."""
    wrong = []
    for line in COMMAND_LINE.findall(README):
        words = line.split()
        if not words or words[0] in ("--help", "--version", "-h"):
            continue
        command = commands().get(words[0])
        if command is None:
            wrong.append(f"no command {words[0]!r}: mafia-sheets{line}")
            continue
        given = {w.split("=")[0] for w in words[1:] if w.startswith("-") and w != "-"}
        unknown = given - options_of(command) - {"--help", "-h"}
        wrong += [f"mafia-sheets {words[0]} does not take {o}" for o in sorted(unknown)]
    assert wrong == []


def test_every_option_the_readme_names_is_one_of_the_commands():
    ours = set().union(*(options_of(c) for c in commands().values())) | {"--help", "--version"}
    named = set(re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", README))
    assert sorted(named - ours - set(NOT_OURS)) == []


def user_texts() -> list[tuple[str, str]]:
    """What a user reads: the README, every command's help, every catalogue text."""
    texts = [("README.md", README), ("mafia-sheets --help", main.get_help(click.Context(main)))]
    for name, command in commands().items():
        texts.append((f"mafia-sheets {name} --help", command.get_help(click.Context(command))))
    texts += [(f"text {t.ru[:40]!r}", f"{t.ru}\n{t.en}") for t in catalogue()]
    static = ROOT / "mafia_sheets" / "web" / "static"
    texts += [(path.name, path.read_text("utf-8")) for path in sorted(static.glob("*.*"))]
    return texts


def catalogue() -> list[Text]:
    """Every `Text(ru, en)` the package defines at module level (in dicts and tuples too)."""
    import pkgutil

    import mafia_sheets

    found: list[Text] = []
    for module in pkgutil.walk_packages(mafia_sheets.__path__, "mafia_sheets."):
        if module.name.endswith("__main__"):
            continue  # running it is the command
        loaded = importlib.import_module(module.name)
        for value in vars(loaded).values():
            if isinstance(value, Text):
                found.append(value)
            elif isinstance(value, dict | tuple | list):
                items = value.values() if isinstance(value, dict) else value
                found += [item for item in items if isinstance(item, Text)]
    return found


def test_no_user_facing_text_cites_a_document_the_user_does_not_have():
    """The product contract lives outside the repository: the README, the help and the
    messages stand alone (the regulation's own clause numbers are the user's document)."""
    cites = re.compile(r"\bSPEC\b|§\s*\d")
    assert [where for where, text in user_texts() if cites.search(text)] == []


def test_the_readme_layout_is_the_tree():
    """Every package and top-level module has its row, and every row names something."""
    block = README.split("<!-- layout -->\n", 1)[1].split("\n<!-- /layout -->", 1)[0]
    named = set(re.findall(r"^\| `([^`]+)` \|", block, re.M))
    package = ROOT / "mafia_sheets"
    tree = {
        f"mafia_sheets/{p.name}/" if p.is_dir() else f"mafia_sheets/{p.name}"
        for p in package.iterdir()
        if ((p.is_dir() and any(p.glob("*.py"))) or p.suffix == ".py") and p.name != "__init__.py"
    }
    tree |= {"mafia_sheets/rules/"}
    assert sorted(tree - named) == [], "add a row to the README's layout table"
    assert sorted(n for n in named if not (ROOT / n).exists()) == []
