"""Write the sample tournament in the other two layouts, next to the row-layout workbook.

* ``tournament-blank-ru.xlsx`` -- one sheet per game, as the paper protocol («бланк»);
* ``tournament-wide-ru.xlsx`` -- one row per game with ten seat columns.

Both hold the games of ``tournament-ru.xlsx`` (and copy its settings, roster, protests and
lot sheets); the tests rate each against ``tournament.expected.toml``, computed
independently of the package. Run after ``build_samples.py``:

    python samples/build_layouts.py
"""

from __future__ import annotations

import sys
from pathlib import Path

from mafia_sheets.model import Source
from mafia_sheets.reading.protocol import load_protocol
from mafia_sheets.template.layouts import games_of, write_games

HERE = Path(__file__).resolve().parent


def main() -> int:
    source = HERE / "tournament-ru.xlsx"
    protocol, findings = load_protocol(Source(source.name, source.read_bytes()))
    if findings:
        print(f"{source.name} has findings; run build_samples.py first")
        return 1
    for layout in ("blank", "wide"):
        target = HERE / f"tournament-{layout}-ru.xlsx"
        target.write_bytes(write_games(layout, games_of(protocol), "ru", protocol=protocol))
        print(f"wrote {target.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
