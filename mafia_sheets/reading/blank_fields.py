"""A game sheet's fields outside its seat grid, found by their labels wherever they sit.

A label is read with its value in its own cell (`Судья: Ветрова`, `ИГРА №3`), right of
it (past its merge, over blank cells) or below it (labels over values); a value is never
another label and never a cell another field has read. The result is written beside its
label or marked beside printed options («Красные ☐ Чёрные ☒»); the best move is three
seats in cells or in one cell, after its label or below it, with the first-night
victim's seat after «Игрок №», first of four numbers, or in its own field. A label whose
value cannot be placed is reported at its cell, never dropped. What a sheet says twice —
two results written, a result written and marked, a best move in the grid's «ЛХ» and on
its line — must say one thing: an error at both cells otherwise, never a silent choice.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

from .. import vocab
from ..findings import define
from ..text import LANGS, Text, cell_text
from .grid import mark, seats_in
from .labels import GAME, RESULT_DISPLAY, RESULT_WORDS, SEAT, is_title, label_of
from .page import Page
from .raw import GameSheet, Located
from .values import BAD, parse_seat_list, seat_number, whole_number

RESULT_MARKED_TWICE = define(
    "result-marked-twice",
    "error",
    Text(
        "Отмечено несколько результатов игры {game}: {found}",
        "Several results are marked for game {game}: {found}",
    ),
    Text("одна отметка: красные, чёрные или ничья", "one mark: red, black or draw"),
    Text("Оставьте отметку только у одного результата", "Keep the mark beside one result only"),
)
RESULT_WRITTEN_TWICE = define(
    "result-written-twice",
    "error",
    Text(
        "Результат игры записан несколько раз, и записи расходятся: {found}",
        "The game's result is written more than once, and the entries differ: {found}",
    ),
    Text(
        "один результат: красные, чёрные или ничья (повтор — тот же результат)",
        "one result: red, black or draw (a repeat saying the same)",
    ),
    Text(
        "Исправьте или удалите запись, которая неверна",
        "Fix or delete the entry that is wrong",
    ),
)
RESULT_MARK_AMBIGUOUS = define(
    "result-mark-ambiguous",
    "error",
    Text(
        "Отметка «{value}» стоит между «{before}» и «{after}»: неясно, к какому результату "
        "она относится",
        "The mark “{value}” sits between “{before}” and “{after}”: which result it "
        "belongs to is unclear",
    ),
    Text(
        "клетки для отметок с одной стороны от каждого результата (у всех справа или у всех слева)",
        "the boxes for the marks on one side of every result (all on the right or all on the left)",
    ),
    Text(
        "Оставьте клетку для отметки только с одной стороны от каждого результата",
        "Keep a box for the mark on one side of each result only",
    ),
)
BEST_MOVE_WRITTEN_TWICE = define(
    "best-move-written-twice",
    "error",
    Text(
        "Лучший ход места {seat} записан дважды и по-разному: «{value}» и «{other}» в {where}",
        "The best move of seat {seat} is written twice, differently: “{value}” and “{other}” "
        "at {where}",
    ),
    Text(
        "лучший ход — в одном месте: в столбце «ЛХ» или в строке «Лучший ход» (или одни и "
        "те же места в обоих)",
        "the best move in one place: the «ЛХ» column or the best-move line (or the same "
        "seats in both)",
    ),
    Text(
        "Оставьте лучший ход в одном месте или исправьте, чтобы оба называли одни и те же места",
        "Keep the best move in one place, or make both name the same seats",
    ),
)
BEST_MOVE_WITHOUT_VICTIM = define(
    "best-move-without-victim",
    "error",
    Text(
        "Лучший ход записан, но неизвестно, чей он", "A best move is recorded, but not whose it is"
    ),
    Text(
        "номер места убитого в первую ночь рядом с лучшим ходом или его выбывание (убит, Н1)",
        "the seat of the player killed on night 1 beside the best move, or their departure "
        "(killed, N1)",
    ),
    Text(
        "Впишите место первого убитого («Игрок №») или отметьте его выбывание",
        "Write the first-night victim's seat («Player #») or record their departure",
    ),
)
PROTEST_ON_SHEET = define(
    "protest-on-game-sheet",
    "warning",
    Text(
        "На бланке игры {game} записан протест: «{value}»",
        "A protest is written on the sheet of game {game}: “{value}”",
    ),
    Text(
        "протест со временем подачи и решением на листе «Протесты»",
        "the protest with its time and decision in the Protests sheet",
    ),
    Text(
        "Перенесите протест на лист «Протесты» (место, время, решение): бланк его не решает",
        "Copy the protest to the Protests sheet (seat, time, decision): the game sheet "
        "cannot decide it",
    ),
)

HEADER_FIELDS = (
    "tournament",
    "round",
    "date",
    "table",
    "game",
    "judge",
    "ended",
    "annulled",
    "departures",
    "club",
)
PHASE_FIELDS = ("kills", "votes", "disqualified")
_FIRST_WORD = ("table", "game", "round")  # `Стол № 2 Игра 3` in one cell: the table is 2


class Label(NamedTuple):
    """A label cell outside the seat grid: a game field's, a printed result option's, or
    the victim's («Игрок №» on the best-move line)."""

    r: int
    c: int
    kind: str  # field | result | victim | phase
    field: str = ""  # the game field it names (kind `field`)
    rest: str = ""  # the text after the label in its own cell (`Стол № 2` → `2`)
    outcome: str = ""  # red | black | draw (kind `result`)


@dataclass(frozen=True)
class BestMove:
    """The best move as written: the seats, the first seat's cell, the victim if named."""

    text: str
    cell: str
    victim: Located | None


# What a text is to this reader, found once per distinct text (a workbook of game sheets
# repeats its labels, nicknames and roles on every sheet). Bounded: cleared when full.
_KINDS: dict[str, Label | None] = {}
_KINDS_MAX = 65_536
_TITLE = Label(-1, -1, "title")


def _kind(text: str) -> Label | None:
    known = _KINDS.get(text, _UNSET)
    if known is not _UNSET:
        return known
    found: Label | None = None
    label = label_of(text)
    split = GAME.split(text)
    if is_title(text):  # «GAME PROTOCOL» names the form, not the game
        found = _TITLE
    elif label in RESULT_WORDS and len(label) > 1:  # a printed option is a word, not «К»
        found = Label(0, 0, "result", outcome=RESULT_WORDS[label])
    elif split is not None:
        found = Label(0, 0, "field", field=split[0], rest=split[1])
    elif SEAT.field(text) in ("player", "seat"):
        found = Label(0, 0, "victim")
    elif SEAT.field(text) == "when":  # «Круг», «Фаза» over a block of rounds
        found = Label(0, 0, "phase")
    if len(_KINDS) >= _KINDS_MAX:
        _KINDS.clear()
    _KINDS[text] = found
    return found


_UNSET = Label(-2, -2, "unset")


def find_labels(page: Page, holds: Callable[[int, int], bool], header: int = -1) -> list[Label]:
    """The label cells outside the seat grid (`holds` says which cells are inside it) —
    and in its `header` row those no grid column took — in reading order; a title is
    taken as layout."""
    grid = page.grid
    found: list[Label] = []
    for r, c, text in grid.texts:
        if holds(r, c) and (r != header or page.taken(r, c)):
            continue
        kind = _kind(text)
        if kind is None:
            continue
        if kind is _TITLE:
            if all(grid.blank(row, c) for row in range(r)):
                page.take(r, c)
            continue
        found.append(kind._replace(r=r, c=c))
        page.labels.add((r, c))
    return found


def read_fields(page: Page, labels: list[Label], game: GameSheet) -> dict[str, object]:
    """Header fields, result, protest and the fields not counted onto `game`; returns the
    best move (attached once the departures are known) and the first-killed seat."""
    named: dict[str, object] = {}
    fields = [label for label in labels if label.kind == "field"]
    for label in fields:
        name = label.field
        if name == "round" and _heads_rounds(page, label, fields):
            page.take(label.r, label.c)  # «Round | Killed | Voted out»: the rounds' heading
        elif name in HEADER_FIELDS and name not in game.header:
            # `Тур 1` under `Тур` is its value, not a second label
            same = frozenset((o.r, o.c) for o in fields if o.field == name and o.rest)
            game.header[name] = _header_value(page, label, same)
            _more_in_cell(page, label, game)
        elif name == "first_killed" and "first_killed" not in named:
            page.take(label.r, label.c)
            own = (label.rest, page.grid.address(label.r, label.c))  # «Первый убитый: 4»
            found = own if _seat_like(label.rest) else value_near(page, label, _seat_like)
            if found is not None:
                named["first_killed"] = found
        elif name == "best_move" and "best_move" not in named:
            move = _best_move(page, label)
            if move is not None:
                named["best_move"] = move
        elif name == "protest":
            _protest(page, label)
    result = _result(page, labels, fields)
    if result is not None:
        game.header["result"] = result
    return named


def _heads_rounds(page: Page, label: Label, fields: list[Label]) -> bool:
    """«Round» over a column of round numbers beside kills or votes: the block's heading,
    not the tournament's round (`Тур`)."""
    if label.rest:
        return False
    beside = page.grid.right_end(label.r, label.c) + 1
    block = any(o.r == label.r and o.c == beside and o.field in ("kills", "votes") for o in fields)
    return block and whole_number(page.grid.value(label.r + 1, label.c)) in (0, 1)


def _more_in_cell(page: Page, label: Label, game: GameSheet) -> None:
    """`Стол № 2, Игра № 3` in one cell: each number field after the first read too."""
    if label.field not in _FIRST_WORD or not label.rest:
        return
    words = label.rest.split(maxsplit=1)
    while len(words) > 1:
        split = GAME.split(words[1].strip(" ,;"))
        if split is None or split[0] not in _FIRST_WORD or not split[1]:
            return
        name, rest = split
        if name not in game.header:
            game.header[name] = (rest.split()[0].strip(",;.:"), page.grid.address(label.r, label.c))
        words = rest.split(maxsplit=1)


def _header_value(
    page: Page, label: Label, through: frozenset[tuple[int, int]] = frozenset()
) -> Located:
    page.take(label.r, label.c)
    if label.rest:
        rest = label.rest.split()[0].strip(",;.:") if label.field in _FIRST_WORD else label.rest
        return rest, page.grid.address(label.r, label.c)
    found = value_near(page, label, _any if through else _any_value, through)
    if found is not None:
        return found
    # nothing typed yet: the cell a value belongs in, for a finding to point at
    grid = page.grid
    return "", grid.address(label.r, grid.right_end(label.r, label.c) + 1)


def value_near(
    page: Page,
    label: Label,
    accept: Callable[[object], bool],
    through: frozenset[tuple[int, int]] = frozenset(),
) -> Located | None:
    """The value of a label: in the cell right of it (past its merge), else below it
    (under the label's merge: labels over values), else further right over up to three
    blank cells; taken when found. `through`: label cells that may be the value (a result
    written as a printed option's word)."""
    grid = page.grid
    r, c = label.r, label.c
    start = grid.right_end(r, c) + 1
    if not grid.blank(r, start) and (r, start) not in page.labels and not page.taken(r, start):
        value = grid.value(r, start)  # the usual place, first: the cell beside the label
        if accept(value):
            page.take(r, start)
            return value, grid.address(r, start)
    below = grid.bottom_end(r, c) + 1
    places = [
        (r, start),
        *((below, column) for column in range(c, grid.right_end(r, c) + 1)),
        *((r, column) for column in range(start + 1, min(grid.width, start + 4))),
    ]
    for at in places:
        further = at[0] == r and at[1] > start
        if further and _blocked_right(page, r, start, at[1], through):
            break  # a text of its own beside the label: nothing further right is its value
        if grid.blank(*at) or (at not in through and _stopped(page, *at)):
            continue
        value = grid.value(*at)
        if accept(value):
            page.take(*at)
            return value, grid.address(*at)
    return None


def _blocked_right(
    page: Page, r: int, start: int, column: int, through: frozenset[tuple[int, int]]
) -> bool:
    """Something between the label and this cell that a value cannot reach past."""
    grid = page.grid
    for j in range(start, column):
        if not grid.blank(r, j) or ((r, j) not in through and _stopped(page, r, j)):
            return True
    return False


def _stopped(page: Page, r: int, c: int) -> bool:
    """A cell a value search must not pass or take: another label, or already read."""
    return (r, c) in page.labels or page.taken(r, c)


def _any(value: object) -> bool:
    return True


def _any_value(value: object) -> bool:
    return value.__class__ is not str or _kind(value) is None


def _seat_like(value: object) -> bool:
    return seats_in(value) is not None and not _blank(value)


def _protest(page: Page, label: Label) -> None:
    """A protest written on the sheet: a warning at it (the sheet cannot decide it)."""
    page.take(label.r, label.c)
    if label.rest:
        page.add(PROTEST_ON_SHEET, label.r, label.c, label.rest)
        return
    found = value_near(page, label, _any_value)
    if found is not None and not _blank(found[0]):
        r, c = page.grid.cell_of(found[1])
        page.add(PROTEST_ON_SHEET, r, c, found[0])


# ---- the result ---------------------------------------------------------------------------


def _result(page: Page, labels: list[Label], fields: list[Label]) -> Located | None:
    """The result: the printed option marked beside, else the word written beside the
    result's label (or a lone result word); options that turn out to be neither — a role
    «Мафия» typed outside the grid — are left to the cells not read. A result written
    twice (two labels, or a label and a mark) must say one thing: an error otherwise."""
    options = [
        label for label in labels if label.kind == "result" and not page.taken(label.r, label.c)
    ]
    written = [label for label in fields if label.field == "result"]
    marked = _marked(page, options) if len({o.outcome for o in options}) >= 2 else None
    if marked is not None:
        for label in written:
            page.take(label.r, label.c)
        # a result word in a label's own cell is a second result; other words there
        # (a hint printed after the label) are not
        own = [o for o in written if label_of(o.rest) in RESULT_WORDS]
        _one_result(page, [marked, *(_as_result(page, o) for o in own)])
        return marked
    if written:
        values = [_written_result(page, label, options) for label in written]
        typed = [value for value in values if not _blank(value[0])]
        if typed:
            _one_result(page, typed)
            return typed[0]
        for option in _printed_options(options):  # printed beside it, none marked yet
            page.take(option.r, option.c)
        return values[0]  # the label is there, its cell still empty
    if len(options) == 1:  # a result written on its own
        option = options[0]
        page.take(option.r, option.c)
        return RESULT_DISPLAY[option.outcome], page.grid.address(option.r, option.c)
    printed = _printed_options(options)
    if printed:  # printed options, none marked yet: the cell a mark belongs in
        for option in printed:
            page.take(option.r, option.c)
        first = printed[0]
        return "", page.grid.address(first.r, page.grid.right_end(first.r, first.c) + 1)
    return None


def _written_result(page: Page, written: Label, options: list[Label]) -> Located:
    """The value of one result label: a result word beside it is its value — unless it
    is one of several printed options."""
    near = [o for o in options if o.r in (written.r, written.r + 1) and not page.taken(o.r, o.c)]
    through = frozenset((o.r, o.c) for o in near) if len(near) == 1 else frozenset()
    value = _header_value(page, written, through)
    if _blank(value[0]):
        return value
    word = RESULT_WORDS.get(label_of(value[0]))
    return (RESULT_DISPLAY[word] if word else value[0]), value[1]


def _as_result(page: Page, label: Label) -> Located:
    """A result written in its label's own cell (`Победили: мафия`)."""
    word = RESULT_WORDS.get(label_of(label.rest))
    return (RESULT_DISPLAY[word] if word else label.rest), page.grid.address(label.r, label.c)


def _one_result(page: Page, results: list[Located]) -> None:
    """Results written more than once: the same one each time, or an error at the first
    that differs (and the first result's cell)."""

    def meaning(value: object) -> str:
        return RESULT_WORDS.get(label_of(value), label_of(value) or cell_text(value))

    first = results[0]
    other = next((v for v in results[1:] if meaning(v[0]) != meaning(first[0])), None)
    if other is None:
        return
    listed = ", ".join(f"«{cell_text(value).strip()}» ({cell})" for value, cell in results)
    r, c = page.grid.cell_of(other[1])
    also = [(page.grid.name, first[1])] if first[1] != other[1] else []
    page.add(RESULT_WRITTEN_TWICE, r, c, other[0], also=also, found=listed)


def _printed_options(options: list[Label]) -> list[Label]:
    """Result words printed as options: each near another of a different outcome, in one
    row or one column (a role «Мафия» typed down a column is no option)."""
    return [
        option
        for option in options
        if any(
            other.outcome != option.outcome
            and (
                (other.r == option.r and abs(other.c - option.c) <= 4)
                or (other.c == option.c and abs(other.r - option.r) <= 2)
            )
            for other in options
        )
    ]


def _marked(page: Page, options: list[Label]) -> Located | None:
    """The option with a mark beside it: right (over a blank cell), else left, else
    below, else above — or only left where the form's boxes stand left of their words
    (:func:`_box_side`); None when no option is marked."""
    grid = page.grid
    layout = _box_side(page, options)
    sides = ("left", "below", "above") if layout == "left" else ("right", "left", "below", "above")
    for side in sides:
        marked = []
        for option in options:
            at = _mark_cell(page, option, side)
            if at is not None:
                marked.append((option.outcome, at))
        if marked:
            for option in options:
                page.take(option.r, option.c)
                _take_empty_boxes(page, option)
            for _, (r, c) in marked:
                page.take(r, c)
            if len({outcome for outcome, _ in marked}) > 1:
                names = Text(
                    *(
                        ", ".join(vocab.display_value("result", o, lang) for o, _ in marked)
                        for lang in LANGS
                    )
                )
                r, c = marked[1][1]
                page.add(RESULT_MARKED_TWICE, r, c, "", found=names)
            if layout == "both":
                _say_if_between(page, options, [at for _, at in marked])
            outcome, (r, c) = marked[0]
            return RESULT_DISPLAY[outcome], grid.address(r, c)
    return None


# An empty box printed for a mark: part of the form, not data.
_EMPTY_BOXES = frozenset({*"☐□◻▢❏❑❒○◯", "[ ]", "[]", "( )", "()"})


def _beside(page: Page, option: Label) -> dict[str, tuple[int, int]]:
    """The cells right and left of a printed option, where its box would be."""
    return {
        "left": (option.r, option.c - 1),
        "right": (option.r, page.grid.right_end(option.r, option.c) + 1),
    }


def _box(page: Page, at: tuple[int, int]) -> bool:
    """A box for a mark: marked, or printed empty."""
    r, c = at
    if c < 0 or at in page.labels or page.grid.blank(r, c):
        return False
    value = page.grid.value(r, c)
    return mark(value) or (isinstance(value, str) and value.strip() in _EMPTY_BOXES)


def _box_side(page: Page, options: list[Label]) -> str:
    """Which side of its word the form prints each box: `right`, `left`, `both` (boxes
    on either side, the layout says nothing) or `unknown` (no box tells). Only a box
    beside one option tells; one between two options could be either's."""
    sides: dict[tuple[int, int], list[str]] = {}
    for option in options:
        for side, at in _beside(page, option).items():
            if _box(page, at):
                sides.setdefault(at, []).append(side)
    told = [found[0] for found in sides.values() if len(found) == 1]
    left, right = told.count("left"), told.count("right")
    if left != right:
        return "left" if left > right else "right"
    return "both" if left else "unknown"


def _take_empty_boxes(page: Page, option: Label) -> None:
    """The unmarked boxes beside an option are the form's, not data."""
    for at in _beside(page, option).values():
        if _box(page, at) and not mark(page.grid.value(*at)):
            page.take(*at)


def _say_if_between(page: Page, options: list[Label], marks: list[tuple[int, int]]) -> None:
    """A mark between two options, on a form whose boxes do not say which side is
    theirs: an error at the mark, never a silent choice."""
    for at in marks:
        before = next((o for o in options if _beside(page, o)["right"] == at), None)
        after = next((o for o in options if _beside(page, o)["left"] == at), None)
        if before is not None and after is not None:
            words = [page.grid.value(o.r, o.c) for o in (before, after)]
            page.add(
                RESULT_MARK_AMBIGUOUS, *at, page.grid.value(*at), before=words[0], after=words[1]
            )


def _mark_cell(page: Page, option: Label, side: str) -> tuple[int, int] | None:
    grid = page.grid
    r, c = option.r, option.c
    if side == "right":
        start = grid.right_end(r, c) + 1
        for column in range(start, start + 3):
            if (r, column) in page.labels:
                return None
            if not grid.blank(r, column):
                return (r, column) if mark(grid.value(r, column)) else None
        return None
    at = {"left": (r, c - 1), "below": (grid.bottom_end(r, c) + 1, c), "above": (r - 1, c)}[side]
    if at in page.labels or at[1] < 0 or at[0] < 0:
        return None
    return at if mark(grid.value(*at)) else None


# ---- the best move --------------------------------------------------------------------------


def _best_move(page: Page, label: Label) -> BestMove | None:
    """The seats after the label (in its cell, right of it, else under it) and the victim
    when a label such as «Игрок №» precedes a seat."""
    grid = page.grid
    page.take(label.r, label.c)
    seats: list[Located] = []
    if label.rest:
        seats = [(s, grid.address(label.r, label.c)) for s in label.rest.replace(",", " ").split()]
    found, victim = _seat_run(page, label.r, grid.right_end(label.r, label.c) + 1)
    seats += found
    if not seats and victim is None:
        found, victim = _seat_run(page, grid.bottom_end(label.r, label.c) + 1, label.c)
        seats += found
    if not seats:
        return None
    if victim is None and len(seats) == 4:  # the victim's seat first, then the three named
        victim, seats = seats[0], seats[1:]
    text = ", ".join(seat_text(v) for v, _ in seats)
    return BestMove(text, seats[0][1], victim)


def _seat_run(page: Page, r: int, start: int) -> tuple[list[Located], Located | None]:
    """Seat cells from (r, start) rightwards, over single blank cells, up to another label;
    a victim label («Игрок №») on the way makes the next seat the victim's."""
    grid = page.grid
    seats: list[Located] = []
    victim: Located | None = None
    expecting, blanks, j = False, 0, start
    while 0 <= r < grid.height and j < len(grid.cells[r]) and blanks < 2 and len(seats) < 4:
        at = (r, j)
        if grid.blank(r, j):
            after = (r, j + 1)
            if (
                seats
                and not expecting
                and not (after in page.labels and _is_victim_label(page, *after))
            ):
                break  # the seats end at a gap: what follows is something else (or «Игрок №»)
            blanks += 1
        elif at in page.labels and _is_victim_label(page, r, j):
            page.take(r, j)
            expecting, blanks = True, 0
        elif at in page.labels or page.taken(r, j) or not _seat_like(grid.value(r, j)):
            break
        else:
            blanks = 0
            page.take(r, j)
            value = grid.value(r, j)
            if expecting:
                victim, expecting = (value, grid.address(r, j)), False
            else:
                many = seats_in(value)
                if many is not None and len(many) > 1 and isinstance(value, str):
                    seats += [(s, grid.address(r, j)) for s in many]
                else:
                    seats.append((value, grid.address(r, j)))
        j = grid.right_end(r, j) + 1
    return seats, victim


def _is_victim_label(page: Page, r: int, c: int) -> bool:
    kind = _kind(str(page.grid.value(r, c)))
    return kind is not None and (kind.kind == "victim" or kind.field == "first_killed")


def attach_best_move(page: Page, game: GameSheet, move: object, named: object) -> None:
    """Put the best move on its maker's seat row: the victim named beside it, else the
    first-killed field, else the player the departures show killed on night 1, else the
    one row whose own «ЛХ» holds a best move."""
    assert isinstance(move, BestMove)
    victim = move.victim
    if victim is None or _blank(victim[0]):
        victim = named if isinstance(named, tuple) else None
    if victim is None or _blank(victim[0]):
        victim = first_night_victim(game) or _grid_maker(game)
    where = victim[1] if victim is not None and victim[1] else move.cell
    r, c = page.grid.cell_of(where)
    seat = seat_number(victim[0]) if victim is not None else None
    for row in game.seats if seat is not None else ():
        if seat_number(row.get("seat", ("", ""))[0]) == seat:
            _put_best_move(page, row, move)
            return
    page.add(BEST_MOVE_WITHOUT_VICTIM, r, c, victim[0] if victim is not None else move.text)


def _put_best_move(page: Page, row: dict[str, Located], move: BestMove) -> None:
    """The best move onto its maker's row. One the grid's own «ЛХ» column already holds
    there must name the same seats: two different ones are an error at both cells (the
    line's is kept, and the error blocks the rating), never a silent choice."""
    own = row.get("best_move")
    if own is not None and not _blank(own[0]) and not _same_seats(own[0], move.text):
        r, c = page.grid.cell_of(move.cell)
        page.add(
            BEST_MOVE_WRITTEN_TWICE,
            r,
            c,
            move.text,
            also=[(page.grid.name, own[1])] if own[1] and own[1] != move.cell else [],
            seat=cell_text(row.get("seat", ("", ""))[0]),
            other=cell_text(own[0]).strip(),
            where=own[1],
        )
    row["best_move"] = (move.text, move.cell)


def _same_seats(one: object, other: object) -> bool:
    """Two best moves naming the same seats, in any order («5 7 2» and «2, 5, 7»)."""
    first, second = parse_seat_list(one), parse_seat_list(other)
    if first is BAD or second is BAD or not isinstance(first, tuple):
        return False
    return isinstance(second, tuple) and sorted(first) == sorted(second)


def _grid_maker(game: GameSheet) -> Located | None:
    """The one seat whose row in the grid holds a best move of its own («ЛХ»): the maker
    of the best move written on the line too."""
    makers = [row["seat"] for row in game.seats if not _blank(row.get("best_move", ("", ""))[0])]
    return makers[0] if len(makers) == 1 else None


def first_night_victim(game: GameSheet) -> Located | None:
    killed = vocab.value_lookup("left")
    for row in game.seats:
        left = killed.get(vocab.fold(row.get("left", ("", ""))[0]))
        if left == "killed" and vocab.parse_phase(str(row.get("when", ("", ""))[0])) == 2:
            return row["seat"]
    return None


# ---- small helpers --------------------------------------------------------------------------


def seat_text(value: object) -> str:
    """A seat as text: Excel gives the number 3 back as 3.0."""
    return cell_text(value).strip()


def _blank(value: object) -> bool:
    return value is None or value == "" or (isinstance(value, str) and not value.strip())
