"""Docs that cannot drift: every command and every finding code is in the README."""

from __future__ import annotations

from pathlib import Path

import pytest

from mafia_sheets.checks import _load_all
from mafia_sheets.cli.commands import main
from mafia_sheets.findings import CATALOG
from mafia_sheets.reading.columns import format_table

README = (Path(__file__).resolve().parent.parent / "README.md").read_text("utf-8")


@pytest.mark.parametrize("command", sorted(main.commands))
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
