"""SPEC §5.4: look-alike nicknames across every file of a season: an error (`name-split`)
unless a roster decides."""

from __future__ import annotations

import pytest
from builders import Proto, check_findings, names, placed, seat_cell, sheet_name

from mafia_sheets.checks.names import differences, name_key


def table(*games: list[str], result: str = "Красные") -> Proto:
    proto = Proto()
    for number, players in enumerate(games, start=1):
        proto.add_game(number, players, result)
    return proto


def with_name(name: str, seat: int = 1, prefix: str = "Игрок") -> list[str]:
    players = names(prefix)
    players[seat - 1] = name
    return players


@pytest.mark.parametrize(
    ("main", "variant", "how_en"),
    [
        ("Кот", "Kот", "Latin letters in place of Cyrillic: K"),  # a Latin K
        ("Кот", "КOT", "letter case and Latin letters in place of Cyrillic: O, T"),
        ("Кот", "кот", "letter case"),
        ("Белый Кот", "БелыйКот", "spacing"),
        ("Ёжик", "Ежик", "«ё/е»"),
    ],
)
@pytest.mark.parametrize("lang", ["ru", "en"])
def test_less_common_spelling_is_reported_at_its_first_cell(
    main: str, variant: str, how_en: str, lang: str
) -> None:
    proto = table(
        with_name(main),
        with_name(main, 2),
        with_name(main, 3),
        with_name(variant, 4),
        with_name(variant, 5),
    )
    found = check_findings(proto, lang=lang)
    assert placed(found) == [
        ("name-split", "error", sheet_name("seats", lang), seat_cell(proto, 4, 4, "player"))
    ]
    assert found[0].value == variant
    assert f"“{main}”" in found[0].message("en") and f"«{main}»" in found[0].message("ru")
    assert found[0].message("en").endswith(how_en)


def test_across_the_files_of_a_season() -> None:
    march = table(with_name("Кот", 3), with_name("Кот", 3))
    april = table(with_name("Kот", 6))  # a Latin K, typed in another file
    found = check_findings(march, april)
    assert [(f.source, *p) for f, p in zip(found, placed(found), strict=True)] == [
        ("p2.xlsx", "name-split", "error", "Протокол", seat_cell(april, 1, 6, "player"))
    ]
    assert found[0].game == "1"


def test_on_a_tie_the_later_spelling_is_reported() -> None:
    proto = table(with_name("Кот", 2), with_name("кот", 7))
    found = check_findings(proto)
    assert placed(found) == [("name-split", "error", "Протокол", seat_cell(proto, 2, 7, "player"))]


def test_each_variant_is_reported_once() -> None:
    proto = table(
        with_name("Кот"),
        with_name("Кот"),
        with_name("Кот"),
        with_name("кот", 2),
        with_name("кот", 2),
        with_name("KOT", 3),
    )
    found = check_findings(proto)
    assert placed(found) == [
        ("name-split", "error", "Протокол", seat_cell(proto, 4, 2, "player")),
        ("name-split", "error", "Протокол", seat_cell(proto, 6, 3, "player")),
    ]
    assert {f.value for f in found} == {"кот", "KOT"}


def test_the_roster_spelling_is_the_one_meant() -> None:
    proto = table(with_name("Kот"), with_name("Kот"), with_name("Кот"))
    players = sorted({p for row in proto.seats for p in [row["player"]]} - {"Kот"})
    proto.players = [{"player": name} for name in players]
    found = [f for f in check_findings(proto) if f.code == "name-look-alike"]
    assert [(f.value, f.cell) for f in found] == [("Kот", seat_cell(proto, 1, 1, "player"))]
    assert "«Кот»" in found[0].message("ru")


def test_distinct_names_are_not_reported() -> None:
    proto = table(with_name("Кот"), with_name("Кит"), with_name("Кот 2"), with_name("Max"))
    assert check_findings(proto) == []


def test_name_key_folds_every_kind_of_look_alike() -> None:
    assert len({name_key(n) for n in ("Кот", "Kот", "КОТ", "кот", "К от", "KOT")}) == 1
    assert name_key("Ёжик") == name_key("ежик")
    assert name_key("Кот") != name_key("Кит")
    assert differences("Kот", "Кот") == [3]
    assert differences("кот", "Кот") == [0]
