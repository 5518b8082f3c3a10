"""The one module that touches xlsxwriter: every workbook the product writes goes through it.

The sheets say what a page shows (values, styles, widths, print setup) in the types below;
this module turns that into xlsxwriter calls. It alone relies on xlsxwriter's internals,
named in :data:`INTERNALS` and described by :class:`_Internals`, and only where they pay:

- :class:`Rows`, the row streamer. In constant-memory mode a finished row is plain XML
  appended to the worksheet's temporary file, so whole rows are rendered here with the
  markup xlsxwriter gives the same cells (the tests compare both paths byte for byte) and
  appended. xlsxwriter spends ~5 µs on every cell; a 10,000-game season has 1.6 million.
  A worksheet this cannot serve exactly (in-memory, rows with heights or comments of their
  own, an xlsxwriter whose internals differ) gets the same cells through the public API.
- deflate level 1 for the zip (xlsxwriter has no option): four times faster than zlib's
  default, the file ~40 % larger; a streamed sheet's rows are deflated as they are
  written, on a worker thread (:mod:`.deflate`), and the zip is put together from them;
- `fitToWidth` / `fitToHeight` written even when 1, so openpyxl reads a fit back as set.

Every text is stored as the text it is: never a formula, number or link, control
characters as their visible escapes (`\\x1b`), a text shaped like rich-text markup
(`<r>…</r>`) as that text.
"""

from __future__ import annotations

import array
import datetime as dt
import functools
import io
import logging
import math
import operator
import os
import pickle
import re
import threading
import zipfile
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from itertools import repeat
from typing import IO, Any, Protocol, cast

import xlsxwriter.workbook as _workbook_module
from xlsxwriter.chart import Chart as _XlsxChart
from xlsxwriter.format import Format
from xlsxwriter.utility import xl_cell_to_rowcol, xl_col_to_name
from xlsxwriter.workbook import Workbook
from xlsxwriter.worksheet import Worksheet

from .. import text as texts
from ..parallel import beside
from ..scratch import run_folder
from .deflate import DeflatedRows, Deflater, DeliveredRows, Package, SheetRows

log = logging.getLogger("mafia_sheets.report")

A4 = 9
MAX_ROWS = 1_048_576  # Excel's hard limit
Value = str | int | float | None
Cell = Value | bool | dt.date | dt.time | dt.timedelta

# ---- styles ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Style:
    """A cell format, as data: each distinct style becomes one xlsxwriter format per book."""

    bold: bool = False
    italic: bool = False
    font_size: float | None = None
    font_color: str | None = None
    bg_color: str | None = None
    pattern: int | None = None
    border: int | None = None
    bottom: int | None = None
    border_color: str | None = None
    align: str | None = None
    valign: str | None = None
    text_wrap: bool = False
    rotation: int | None = None
    num_format: str | None = None

    def options(self) -> dict[str, Any]:
        return {key: value for key, value in asdict(self).items() if value not in (None, False)}


@dataclass(frozen=True)
class Lane:
    """How one column of streamed rows is written: the style of its texts, of its numbers,
    and of a None cell (a styled blank; None writes nothing there)."""

    text: Style | None = None
    number: Style | None = None
    blank: Style | None = None


@dataclass
class Column:
    """One table column: header, width, the styles of its numbers and texts, its cells.

    `cells` hold final values: `str`, a number, or None for a blank.
    """

    header: str
    width: float
    number_format: Style | None = None
    text_format: Style | None = None
    cells: list[Any] = field(default_factory=list)


# ---- print setup and charts -----------------------------------------------------------------


@dataclass(frozen=True)
class Page:
    """A sheet's print setup (A4). `fit` is (pages wide, pages tall; 0 = as many as
    needed); `scale` a fixed print scale instead; ranges are 0-based and inclusive."""

    landscape: bool = False
    fit: tuple[int, int] | None = (1, 0)
    scale: int | None = None
    margins: tuple[float, float, float, float] | None = None  # left, right, top, bottom
    header: str = ""
    footer: str = ""
    header_margin: float = 0.3
    repeat_rows: tuple[int, int] | None = None
    repeat_columns: tuple[int, int] | None = None
    freeze: tuple[int, int] | None = None
    area: tuple[int, int, int, int] | None = None
    breaks: tuple[int, ...] = ()
    column_breaks: tuple[int, ...] = ()


# Column pixels (as :func:`pixels` counts them) that one landscape A4 page holds at 100 %
# within 0.4" margins: measured on LibreOffice's printout, which fits about three quarters
# of what the paper's width in pixels suggests; Excel fits more, so a block placed on a
# page by :func:`column_breaks` never runs over in either.
LANDSCAPE_PIXELS = 750


def pixels(width: float) -> int:
    """A column's width on screen and paper (11-pt Calibri, 96 dpi), as Excel computes it.

    >>> pixels(8.43), pixels(4.5)
    (64, 37)
    """
    return int(width * 7 + 5 + 0.5) if width >= 1 else int(width * 12 + 0.5)


def column_breaks(
    widths: Sequence[float], blocks: Sequence[tuple[int, int]], repeated: int, scale: int
) -> tuple[int, ...]:
    """The first column of each landscape page across after the first, at print `scale`
    (%): whole `blocks` (first, last column) to a page, the first `repeated` columns
    printed again on every page.

    >>> column_breaks([20] * 9, [(1, 4), (5, 8)], 1, 100)
    (5,)
    """
    room = LANDSCAPE_PIXELS * 100 / scale - sum(pixels(w) for w in widths[:repeated])
    breaks: list[int] = []
    used = float(sum(pixels(w) for w in widths[repeated : blocks[0][0]])) if blocks else 0.0
    for first, last in blocks:
        width = sum(pixels(w) for w in widths[first : last + 1])
        if used and used + width > room:
            breaks.append(first)
            used = 0.0
        used += width
    return tuple(breaks)


Range = tuple[str, int, int, int, int]  # sheet, first row, first col, last row, last col


@dataclass(frozen=True)
class Series:
    name: str | tuple[str, int, int]
    categories: Range
    values: Range
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Chart:
    """A native chart: its kind (`column`, `bar`, `line`), series and axes, as xlsxwriter
    takes them."""

    kind: str
    title: str
    series: tuple[Series, ...]
    x_axis: Mapping[str, Any] = field(default_factory=dict)
    y_axis: Mapping[str, Any] = field(default_factory=dict)
    legend: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Dropdown:
    """An inline list that warns (the reader accepts more spellings than a list holds)."""

    entries: tuple[str, ...]
    title: str
    message: str
    prompt: tuple[str, str] | None = None  # (title, text) shown on selecting a cell


# ---- the workbook --------------------------------------------------------------------------


class Book:
    """One workbook, written to bytes. `streamed`: constant-memory rows (the results);
    otherwise in memory (the templates: small, and cells may come in any order)."""

    def __init__(self, *, streamed: bool) -> None:
        self._buffer = io.BytesIO()
        options: dict[str, Any] = {
            "strings_to_formulas": False,
            "strings_to_numbers": False,
            "strings_to_urls": False,
        }
        if streamed:
            options |= {"constant_memory": True, "tmpdir": run_folder()}
        else:
            options["in_memory"] = True
        self._book = Workbook(self._buffer, options)
        self._formats: dict[Style, Format] = {}
        self._sheets: list[Sheet] = []
        self.inline: dict[str, str] = {}  # text → its escaped `<t>…</t>`, for every sheet
        # rows deflated while written, where this xlsxwriter stores as expected
        self._deflater = Deflater(1) if streamed and _rows_deflatable() else None
        self._rows: dict[bytes, SheetRows] = {}

    def number_styles(self, cells: Iterable[Style], conditional: Iterable[Style] = ()) -> None:
        """Style numbers given now, in this order (`conditional`: as conditional formats),
        not on first use: a sheet written in a forked child (:func:`write_sheets`) then
        names its styles by the numbers this book gives them."""
        for style in cells:
            _xf_index(cast(Format, self.format(style)))
        for style in conditional:
            cast(Any, self.format(style))._get_dxf_index()

    def format(self, style: Style | None) -> Format | None:
        if style is None:
            return None
        found = self._formats.get(style)
        if found is None:
            found = self._formats[style] = self._book.add_format(style.options())
        return found

    def sheet(self, name: str) -> Sheet:
        ws = self._book.add_worksheet(name, worksheet_class=_Worksheet)
        if self._deflater is not None:
            rows = self._deflater.stream()
            _write_rows_to(ws, rows)
            self._rows[rows.marker] = rows
        sheet = Sheet(self, ws, name)
        self._sheets.append(sheet)
        return sheet

    def first_sheet(self) -> Sheet:
        return self._sheets[0]

    @property
    def names(self) -> list[str]:
        return [sheet.name for sheet in self._sheets]

    def properties(self, title: str, subject: str) -> None:
        self._book.set_properties(
            {
                "title": texts.cell(title),
                "subject": subject,
                "keywords": "mafia, FIIM",
                "comments": "mafia-sheets",
            }
        )

    def chart(self, spec: Chart) -> _XlsxChart:
        chart = self._book.add_chart({"type": spec.kind})
        assert chart is not None  # a known kind
        for series in spec.series:
            chart.add_series(
                {
                    "name": list(series.name) if isinstance(series.name, tuple) else series.name,
                    "categories": list(series.categories),
                    "values": list(series.values),
                    **series.options,
                }
            )
        chart.set_title({"name": spec.title})
        chart.set_x_axis(dict(spec.x_axis))
        chart.set_y_axis(dict(spec.y_axis))
        chart.set_legend(dict(spec.legend))
        return chart

    def close(self) -> bytes:
        if self._deflater is None:
            with _zip_class(functools.partial(zipfile.ZipFile, compresslevel=1)):
                self._book.close()
            return self._buffer.getvalue()
        try:
            with _zip_class(functools.partial(Package, streams=self._rows, level=1)):
                self._book.close()
        finally:
            self._deflater.stop()
        return self._buffer.getvalue()


@contextmanager
def open_book(*, streamed: bool) -> Iterator[Book]:
    """A book that is closed (and its temporary rows removed) whatever happens."""
    book = Book(streamed=streamed)
    try:
        yield book
    finally:
        if not book._book.fileclosed:
            book.close()


# ---- sheets written on both cores ----------------------------------------------------------

# Cells the child's group must hold for a fork to pay: forking a process of some hundred
# megabytes costs milliseconds, a hundred thousand streamed cells some tens of them.
APART_AT = 100_000
Job = tuple[Callable[[Book], None], int]
"""A writer of sheets and its size, about the cells it writes (rows × columns)."""
_Tags = dict[int, int]  # id(sheet) → the index of the job that wrote it


def write_sheets(book: Book, jobs: Sequence[Job]) -> None:
    """Every job's sheets, in the order of the jobs.

    Where a child can be forked (:mod:`..parallel`) it writes a group of jobs holding
    about half the cells (:func:`balanced`) on the other core while this process writes
    the rest; each of the child's sheets comes back finished — its rows deflated, the
    worksheet as it stands — and takes its place here. Styles are numbered beforehand
    (:meth:`Book.number_styles`); a child that would number one anew, or that does not
    deliver, leaves its jobs to this process. The jobs run in the same order either way,
    so the workbook is the same whichever process wrote a sheet.
    """
    sizes = [size for _, size in jobs]
    apart = balanced(sizes)
    # rows on disk (nothing to send back), or too few cells for a fork to pay
    if book._deflater is None or sum(sizes[index] for index in apart) < APART_AT:
        for write, _ in jobs:
            write(book)
        return
    mine = [(index, job[0]) for index, job in enumerate(jobs) if index not in apart]
    theirs = [(index, job[0]) for index, job in enumerate(jobs) if index in apart]
    tags: _Tags = {}
    with beside(_written_apart, book, theirs) as child:
        _run(book, mine, tags)
        delivered = child.delivered()
    parcel = delivered[0] if delivered is not None else None
    if parcel is None:
        _run(book, theirs, tags)
    else:
        _adopt(book, parcel, tags)
    _order(book, tags)


def balanced(sizes: Sequence[int]) -> frozenset[int]:
    """The jobs a child writes: the largest first, each to the lighter of two groups;
    the child's is the group of the largest job.

    >>> sorted(balanced([5, 40, 30, 2, 20]))  # 40 + 5 + 2 beside 30 + 20
    [0, 1, 3]
    """
    order = sorted(range(len(sizes)), key=lambda index: (-sizes[index], index))
    groups: tuple[list[int], list[int]] = ([], [])
    loads = [0, 0]
    for index in order:
        lighter = 0 if loads[0] <= loads[1] else 1
        groups[lighter].append(index)
        loads[lighter] += sizes[index]
    return frozenset(groups[0])


def _run(book: Book, jobs: Sequence[tuple[int, Callable[[Book], None]]], tags: _Tags) -> None:
    for index, write in jobs:
        before = len(book._sheets)
        write(book)
        tags.update((id(sheet), index) for sheet in book._sheets[before:])


Parcel = tuple[bytes, list[tuple[list[bytes], int, int]]]
"""The child's sheets: their worksheets pickled, with the job of each, and their rows
deflated (apart, so that the bulk is pickled once, by :mod:`..parallel`)."""


def _written_apart(book: Book, jobs: Sequence[tuple[int, Callable[[Book], None]]]) -> Parcel | None:
    """In the forked child: the jobs' sheets, finished; None when a style had to be
    numbered here (the parent would number it otherwise, so it writes them itself)."""
    numbered = _style_numbers(book)
    tags: _Tags = {}
    _run(book, jobs, tags)
    if _style_numbers(book) != numbered:
        return None
    sheets = [(tags[id(sheet)], sheet.ws) for sheet in book._sheets if id(sheet) in tags]
    rows = [_finished(ws) for _, ws in sheets]
    out = io.BytesIO()
    _Pickler(out, {id(thing): key for key, thing in _shared(book).items()}).dump(sheets)
    return out.getvalue(), rows


def _finished(ws: Worksheet) -> tuple[list[bytes], int, int]:
    """The deflated rows of a worksheet written apart, its last row stored, taken out."""
    inside = cast(Any, ws)
    rows = inside.row_data_fh
    if not isinstance(rows, DeflatedRows):
        raise RuntimeError("a sheet written apart keeps its rows deflated")
    inside._write_single_row()  # the last row, as the store writes it on closing …
    inside.previous_row = -1  # … where there is no row left to write
    inside.fh = inside.row_data_fh = None
    return rows.finish()


def _adopt(book: Book, parcel: Parcel, tags: _Tags) -> None:
    """The child's sheets added to this book (at its end; :func:`_order` places them)."""
    inside = cast(Any, book._book)
    assert book._deflater is not None
    state, deflated = parcel
    sheets = _Unpickler(io.BytesIO(state), _shared(book)).load()
    for (index, ws), rows in zip(sheets, deflated, strict=True):
        inside._check_sheetname(ws.name)  # as add_worksheet checks it
        ws.index = len(inside.worksheets_objs)
        inside.worksheets_objs.append(ws)
        inside.sheetnames[ws.name] = ws
        delivered = DeliveredRows(book._deflater.marker(), rows)
        ws.fh = ws.row_data_fh = book._rows[delivered.marker] = delivered
        inside.charts += [inserted[2] for inserted in ws.charts]  # (row, col, chart, …)
        sheet = Sheet(book, ws, ws.name)
        book._sheets.append(sheet)
        tags[id(sheet)] = index


def _order(book: Book, tags: _Tags) -> None:
    """The sheets in the order of the jobs that wrote them (a job's own in its order)."""
    book._sheets.sort(key=lambda sheet: tags.get(id(sheet), -1))
    inside = cast(Any, book._book)
    inside.worksheets_objs[:] = [sheet.ws for sheet in book._sheets]
    inside.sheetnames.clear()
    for index, ws in enumerate(inside.worksheets_objs):
        ws.index = index
        inside.sheetnames[ws.name] = ws


def _style_numbers(book: Book) -> list[tuple[int | None, int | None]]:
    return [(fmt.xf_index, fmt.dxf_index) for fmt in cast(Any, book._book).formats]


def _shared(book: Book) -> dict[tuple[str, int], object]:
    """What a worksheet shares with its workbook, by a name that holds in both processes:
    the workbook (a worksheet keeps its `add_format`), its tables and its formats."""
    inside = cast(Any, book._book)
    shared: dict[tuple[str, int], object] = {
        ("workbook", 0): inside,
        ("strings", 0): inside.str_table,
        ("meta", 0): inside.worksheet_meta,
        ("images", 0): inside.embedded_images,
    }
    shared.update((("format", index), fmt) for index, fmt in enumerate(inside.formats))
    return shared


class _Pickler(pickle.Pickler):
    """Pickles a worksheet, naming what it shares with its workbook instead of copying it."""

    def __init__(self, file: IO[bytes], names: dict[int, tuple[str, int]]) -> None:
        super().__init__(file, pickle.HIGHEST_PROTOCOL)
        self._names = names

    def persistent_id(self, obj: object) -> tuple[str, int] | None:
        return self._names.get(id(obj))


class _Unpickler(pickle.Unpickler):
    """The child's worksheets, sharing this workbook's objects where they shared theirs."""

    def __init__(self, file: IO[bytes], shared: dict[tuple[str, int], object]) -> None:
        super().__init__(file)
        self._shared = shared

    def persistent_load(self, pid: Any) -> object:
        return self._shared[tuple(pid)]


_ZIP_LOCK = threading.Lock()


@contextmanager
def _zip_class(factory: Callable[..., Any]) -> Iterator[None]:
    """xlsxwriter's zip made by `factory` (level 1, or the package of deflated rows),
    only while this book is stored (another xlsxwriter, whose module lacks the expected
    attribute, keeps its own)."""
    with _ZIP_LOCK:
        original = getattr(_workbook_module, "ZipFile", None)
        if original is not zipfile.ZipFile:
            yield
            return
        setattr(_workbook_module, "ZipFile", factory)  # noqa: B010 (not an exported name)
        try:
            yield
        finally:
            setattr(_workbook_module, "ZipFile", original)  # noqa: B010 (as above)


# What deflating rows as they are written relies on: the constant-memory row file (opened
# in add_worksheet, copied into the sheet's XML in _write_optimized_sheet_data) and the
# zip class the store makes.
ROW_FILE_INTERNALS = ("row_data_fh", "row_data_filename", "dim_rowmin", "fh")


def _rows_deflatable() -> bool:
    return getattr(_workbook_module, "ZipFile", None) is zipfile.ZipFile and hasattr(
        Worksheet, "_write_optimized_sheet_data"
    )


def _write_rows_to(ws: Worksheet, rows: DeflatedRows) -> None:
    """The sheet's rows go to `rows` instead of its temporary file."""
    inside = cast(Any, ws)
    if not all(hasattr(ws, name) for name in ROW_FILE_INTERNALS) or inside.fh is None:
        raise RuntimeError("xlsxwriter's constant-memory row file is not where expected")
    inside.row_data_fh.close()
    os.remove(inside.row_data_filename)
    inside.row_data_fh = inside.fh = rows


class _Worksheet(Worksheet):
    """States a fit to pages in full: xlsxwriter leaves out `fitToWidth="1"` and
    `fitToHeight="1"`, 1 being the default, and openpyxl reads an absent one as unset."""

    def _xml_empty_tag(self, tag: str, attributes: Any = ()) -> None:
        if tag == "pageSetup" and self.fit_page:
            named = {key for key, _ in attributes}
            attributes = [
                *attributes,
                *((key, 1) for key in ("fitToWidth", "fitToHeight") if key not in named),
            ]
        super()._xml_empty_tag(tag, attributes)

    def _write_optimized_sheet_data(self) -> None:
        """Deflated rows stay where they are: the sheet's XML holds their marker, and the
        package puts the rows there (xlsxwriter would copy its row file here)."""
        rows = self.row_data_fh
        if not isinstance(rows, DeflatedRows | DeliveredRows):
            super()._write_optimized_sheet_data()
        elif self.dim_rowmin is None:
            self._xml_empty_tag("sheetData")
        else:
            self._xml_start_tag("sheetData")
            self.fh.write(rows.marker.decode())
            self._xml_end_tag("sheetData")


# ---- a sheet -------------------------------------------------------------------------------


class Sheet:
    """One worksheet, through typed calls. Rows go in order on a streamed book."""

    def __init__(self, book: Book, ws: Worksheet, name: str) -> None:
        self.book = book
        self.ws = ws
        self.name = name

    def write(self, row: int, col: int, value: Cell, style: Style | None = None) -> None:
        """A value by its type; None is a styled blank (nothing without a style)."""
        fmt = self.book.format(style)
        if value is None or value == "":
            if fmt is not None:
                self.ws.write_blank(row, col, None, fmt)
        elif isinstance(value, str):
            self.text(row, col, value, style)
        elif isinstance(value, bool):
            self.ws.write_boolean(row, col, value, fmt)
        elif isinstance(value, int | float):
            self.ws.write_number(row, col, value, fmt)
        elif isinstance(value, dt.datetime | dt.date | dt.time | dt.timedelta):
            self.ws.write_datetime(row, col, cast(dt.datetime, value), fmt)
        else:
            self.text(row, col, str(value), style)

    def text(self, row: int, col: int, value: str, style: Style | None = None) -> None:
        value = texts.cell(value)
        fmt = self.book.format(style)
        if value.startswith("<r>") and value.endswith("</r>"):
            # xlsxwriter would store it as raw rich-text XML: plain runs keep it text
            args: list[Any] = [value[:1], value[1:3], value[3:]]
            self.ws.write_rich_string(row, col, *args, *([fmt] if fmt is not None else []))
        else:
            self.ws.write_string(row, col, value, fmt)

    def number(self, row: int, col: int, value: float, style: Style | None = None) -> None:
        self.ws.write_number(row, col, value, self.book.format(style))

    def blank(self, row: int, col: int, style: Style) -> None:
        self.ws.write_blank(row, col, None, self.book.format(style))

    def merge(self, cells: tuple[int, int, int, int], value: str, style: Style | None) -> None:
        """Merged cells (first row, first col, last row, last col) holding `value`."""
        first_row, first_col, last_row, last_col = cells
        fmt = self.book.format(style)
        self.ws.merge_range(first_row, first_col, last_row, last_col, "", fmt)
        if value:
            self.text(first_row, first_col, value, style)

    def width(self, first: int, last: int, width: float, style: Style | None = None) -> None:
        """Columns first … last this wide; `style` is their cells' format where a cell has
        none of its own (a time column's `hh:mm`)."""
        self.ws.set_column(first, last, width, self.book.format(style))

    def height(self, row: int, points: float) -> None:
        self.ws.set_row(row, points)

    def autofilter(self, first_row: int, first_col: int, last_row: int, last_col: int) -> None:
        self.ws.autofilter(first_row, first_col, last_row, last_col)

    def blank_borders(self, cells: tuple[int, int, int, int], style: Style) -> None:
        """Blank cells of the range drawn in `style` (a conditional format): the cheapest
        cell is the one never written."""
        first_row, first_col, last_row, last_col = cells
        self.ws.conditional_format(
            first_row,
            first_col,
            last_row,
            last_col,
            {"type": "blanks", "format": self.book.format(style)},
        )

    def dropdown(self, target: str, spec: Dropdown) -> None:
        formula = '"' + ",".join(spec.entries) + '"'
        # Excel refuses to open a workbook whose inline list is longer than this
        if len(formula) > 255 + 2 or any("," in entry for entry in spec.entries):
            raise ValueError(f"dropdown {spec.entries} does not fit an inline list")
        options: dict[str, Any] = {
            "validate": "list",
            "source": list(spec.entries),
            "ignore_blank": True,
            "show_input": spec.prompt is not None,
            "show_error": True,
            "error_type": "warning",
            "error_title": spec.title,
            "error_message": spec.message,
        }
        if spec.prompt is not None:
            options |= {"input_title": spec.prompt[0], "input_message": spec.prompt[1]}
        self._validate(target, options)

    def whole_numbers(self, target: str, bounds: tuple[int, int | None], title: str) -> None:
        """Only whole numbers from bounds[0] (to bounds[1]) are accepted in `target`."""
        low, high = bounds
        options: dict[str, Any] = {
            "validate": "integer",
            "criteria": ">=" if high is None else "between",
            "ignore_blank": True,
            "error_type": "stop",
            "error_title": title,
            "error_message": f"≥ {low}" if high is None else f"{low}–{high}",
        }
        options |= {"value": low} if high is None else {"minimum": low, "maximum": high}
        self._validate(target, options)

    def _validate(self, target: str, options: dict[str, Any]) -> None:
        """One validation over `target`: a range (`C2:C200`) or cells and ranges apart
        (`B7 B8 B11`)."""
        parts = target.split()
        first, _, last = parts[0].partition(":")
        top = xl_cell_to_rowcol(first)
        bottom = xl_cell_to_rowcol(last) if last else top
        if len(parts) > 1:
            options = {**options, "multi_range": target}
        self.ws.data_validation(top[0], top[1], bottom[0], bottom[1], options)

    def chart(self, at: tuple[int, int], spec: Chart, scale: tuple[float, float]) -> None:
        self.ws.insert_chart(
            at[0], at[1], self.book.chart(spec), {"x_scale": scale[0], "y_scale": scale[1]}
        )

    def page(self, page: Page) -> None:
        """The print setup: A4, orientation, fit or scale, titles, panes, area, breaks."""
        ws = self.ws
        ws.set_paper(A4)
        ws.set_landscape() if page.landscape else ws.set_portrait()
        if page.scale is not None:
            ws.set_print_scale(page.scale)
        elif page.fit is not None:
            ws.fit_to_pages(*page.fit)
        if page.margins is not None:
            left, right, top, bottom = page.margins
            ws.set_margins(left=left, right=right, top=top, bottom=bottom)
        if page.header:
            ws.set_header(page.header, {"margin": page.header_margin})
        if page.footer:
            ws.set_footer(page.footer, {"margin": page.header_margin})
        if page.repeat_rows is not None:
            ws.repeat_rows(*page.repeat_rows)
        if page.repeat_columns is not None:
            ws.repeat_columns(*page.repeat_columns)
        if page.freeze is not None:
            ws.freeze_panes(*page.freeze)
        if page.area is not None:
            ws.print_area(*page.area)
        if page.breaks:
            ws.set_h_pagebreaks(list(page.breaks))
        if page.column_breaks:
            ws.set_v_pagebreaks(list(page.column_breaks))

    def activate(self) -> None:
        self.ws.activate()

    def rows(self, first_row: int, last_row: int, width: int) -> Rows:
        """The streamer for rows first_row … last_row of `width` columns."""
        return Rows(self, first_row, last_row, width)

    def table(self, first_row: int, columns: Sequence[Column], *, blanks: bool = True) -> int:
        """Cells of `columns` from `first_row` down, one row each; returns the rows written.

        A None cell is a blank in the column's text style (with `blanks`), else nothing.
        """
        count = len(columns[0].cells) if columns else 0
        if any(len(column.cells) != count for column in columns):
            raise ValueError("columns of different lengths")
        if not count:
            return 0
        lanes = [
            Lane(c.text_format, c.number_format, c.text_format if blanks else None) for c in columns
        ]
        stream = self.rows(first_row, first_row + count - 1, len(columns))
        for start in range(0, count, ROWS_PER_WRITE):
            stop = min(count, start + ROWS_PER_WRITE)
            rows = range(first_row + start, first_row + stop)
            stream.emit(stream.render(rows, [c.cells[start:stop] for c in columns], lanes))
        stream.close()
        return count


ROWS_PER_WRITE = 5_000  # rows rendered and joined before they go to the temp file

# ---- the row streamer ----------------------------------------------------------------------

INTERNALS = (
    "fh",
    "table",
    "previous_row",
    "row_info",
    "col_info",
    "comments",
    "default_row_height",
    "original_row_height",
    "excel_version",
    "xls_rowmax",
    "xls_colmax",
    "xls_strmax",
    "_write_single_row",
    "_check_dimensions",
    "_escape_control_characters",
    "_escape_data",
)


class _Internals(Protocol):
    """What the streamer reads and calls inside xlsxwriter's worksheet (3.0–3.3)."""

    fh: Any
    previous_row: int
    row_info: dict[int, Any]
    col_info: dict[int, Any]
    comments: dict[int, Any]
    default_row_height: float
    original_row_height: float
    excel_version: int
    xls_rowmax: int
    xls_colmax: int
    xls_strmax: int
    constant_memory: bool | int

    def _write_single_row(self, current_row_num: int = 0) -> None: ...
    def _check_dimensions(self, row: int, col: int) -> int: ...
    def _escape_control_characters(self, data: str) -> str: ...
    def _escape_data(self, data: str) -> str: ...


_WARNED: list[bool] = []


def internals_available(ws: object) -> bool:
    """Whether this xlsxwriter has the worksheet internals the streamer writes through;
    should another release lack them, rows go through the public API (correct, about 3×
    slower) and the log says so once."""
    missing = [name for name in INTERNALS if not hasattr(ws, name)]
    if missing and not _WARNED:
        _WARNED.append(True)
        log.warning(
            "mafia-sheets: this xlsxwriter lacks %s; results are written cell by cell (slower)",
            ", ".join(missing),
        )
    return not missing


def can_stream(ws: object, first_row: int, last_row: int, width: int) -> bool:
    """True when rows first_row … last_row can be appended as XML exactly."""
    if not getattr(ws, "constant_memory", False) or not internals_available(ws):
        return False
    inside = cast(_Internals, ws)
    return (
        first_row > inside.previous_row
        and last_row < inside.xls_rowmax
        and width <= inside.xls_colmax
        and inside.default_row_height == inside.original_row_height
        and inside.excel_version != 2010
        and not any(first_row <= row <= last_row for row in inside.row_info)
        and not any(first_row <= row <= last_row for row in inside.comments)
    )


@dataclass
class _Pending:
    """A row for the public API: its number, height and (column, value, style) cells."""

    row: int
    height: float | None
    cells: list[tuple[int, Value, Style | None]]


Rendered = bytes | _Pending


class Rows:
    """The one row streamer: rows are rendered a batch at a time (:meth:`render`, column by
    column) and emitted in increasing order (:meth:`emit`), as XML into the constant-memory
    sheet or, where that cannot be exact, through xlsxwriter's public cell calls."""

    def __init__(self, sheet: Sheet, first_row: int, last_row: int, width: int) -> None:
        self.sheet = sheet
        self.fast = can_stream(sheet.ws, first_row, last_row, width)
        self.first: int | None = None
        self.last = first_row
        self.used: set[int] = set()
        self._lanes: dict[tuple[Lane, int], _LaneXml] = {}
        if self.fast:
            cast(_Internals, sheet.ws)._write_single_row(first_row)  # pending rows go first

    def render(
        self,
        rows: Sequence[int],
        columns: Sequence[Sequence[Value]],
        lanes: Sequence[Lane],
        height: float | None = None,
    ) -> list[Rendered]:
        """Each row's XML (or its cells, for the public API); `columns[c][i]` is the cell
        of column c in row rows[i]. A row left with no cell and no height is ""."""
        if not self.fast:
            return [self._pending(i, row, columns, lanes, height) for i, row in enumerate(rows)]
        self._number_styles(columns, lanes)
        labels = _labels(rows)
        size = self._height(height)
        xmls = [self._lane_xml(lane, col) for col, lane in enumerate(lanes)]
        if len(xmls) != len(columns):
            raise ValueError("a lane for every column")
        parts: list[list[bytes]] = []
        # each row joined from its pieces at C speed: the row's open tag, then per column
        # the cell's reference and its tail (or the whole cell), then the close tag
        opened = f'"{size}>'.encode()
        pieces: list[Iterable[bytes]] = [repeat(b'<row r="'), labels, repeat(opened)]
        for col, (xml, values) in enumerate(zip(xmls, columns, strict=True)):
            cells, tails = xml.render(values, labels)
            if len(cells) != len(labels):
                raise ValueError("columns of different lengths")
            if xml.used:
                self.used.add(col)
            parts.append(cells)
            pieces += (repeat(xml.cell), labels, cells) if tails else (cells,)
        if not size and all(xml.missing for xml in xmls):
            return self._sparse(xmls, parts, labels)
        pieces.append(repeat(b"</row>"))
        return list(map(b"".join, zip(*pieces, strict=False)))  # the repeats never end

    def _sparse(
        self, xmls: list[_LaneXml], parts: list[list[bytes]], labels: list[bytes]
    ) -> list[Rendered]:
        """Rows whose every cell may be missing: a row left with no cell is not written."""
        whole = [
            [xml.cell + label + tail for label, tail in zip(labels, cells, strict=True)]
            if xml.tails
            else cells
            for xml, cells in zip(xmls, parts, strict=True)
        ]
        bodies = map(b"".join, zip(*whole, strict=True)) if whole else iter([b""] * len(labels))
        return [
            b'<row r="%b">%b</row>' % (label, body) if body else b""
            for label, body in zip(labels, bodies, strict=True)
        ]

    def _pending(
        self,
        index: int,
        row: int,
        columns: Sequence[Sequence[Value]],
        lanes: Sequence[Lane],
        height: float | None,
    ) -> _Pending:
        cells: list[tuple[int, Value, Style | None]] = []
        for col, (values, lane) in enumerate(zip(columns, lanes, strict=True)):
            value = values[index]
            if value is None:
                if lane.blank is not None:
                    cells.append((col, None, lane.blank))
            else:
                cells.append((col, value, lane.text if isinstance(value, str) else lane.number))
        return _Pending(row, height, cells)

    def _number_styles(self, columns: Sequence[Sequence[Value]], lanes: Sequence[Lane]) -> None:
        """Excel numbers formats in the order cells first use them: the styles are numbered
        here in that same order (row by row, then column by column), so that the workbook's
        styles come out as the public API would number them."""
        book = self.sheet.book
        firsts: list[tuple[int, int, Style]] = []
        for col, (values, lane) in enumerate(zip(columns, lanes, strict=True)):
            wanted = [  # only styles not numbered yet: after the first rows, none
                (test, style)
                for test, style in ((_is_text, lane.text), (_is_number, lane.number))
                if style is not None and _unnumbered(book.format(style))
            ]
            kinds = set(map(type, values)) if wanted else set()
            for test, style in wanted:
                present = str in kinds if test is _is_text else bool(kinds - {str, _NONE})
                at = _first(values, test) if present else None
                if at is not None:
                    firsts.append((at, col, style))
            blank = lane.blank
            if blank is not None and _unnumbered(book.format(blank)) and None in values:
                firsts.append((list(values).index(None), col, blank))
        for _, _, style in sorted(firsts, key=lambda first: first[:2]):
            fmt = book.format(style)
            assert fmt is not None
            _xf_index(fmt)

    def _height(self, height: float | None) -> str:
        """A row height as xlsxwriter writes it: whole pixels, shown in points."""
        if not height:
            return ""
        pixels = int(height * 4.0 / 3.0 + 0.5)
        return f' ht="{pixels * 0.75:.16g}" customHeight="1"'

    def _lane_xml(self, lane: Lane, col: int) -> _LaneXml:
        key = (lane, col)
        found = self._lanes.get(key)
        if found is None:
            ws = cast(_Internals, self.sheet.ws)
            styles = [self._style(s, col) for s in (lane.text, lane.number, lane.blank)]
            blank = styles[2] if lane.blank is not None else None
            texts = _Texts(ws, f'"{styles[0]} t="inlineStr"><is>', self.sheet.book.inline)
            found = self._lanes[key] = _LaneXml(xl_col_to_name(col), styles[1], texts, blank)
        return found

    def _style(self, style: Style | None, col: int) -> str:
        fmt = self.sheet.book.format(style)
        if fmt is None:  # a column format applies, as in xlsxwriter's _write_cell
            info = cast(_Internals, self.sheet.ws).col_info.get(col)
            fmt = getattr(info, "column_format", None)
        return "" if fmt is None else f' s="{_xf_index(fmt)}"'

    def emit(self, rendered: Sequence[Rendered]) -> None:
        """Rendered rows, in increasing row order, after every row emitted before."""
        if not rendered:
            return
        if self.fast:
            xml = cast(list[bytes], rendered)
            first = next((i for i, row in enumerate(xml) if row), None)
            if first is not None:
                last = next(i for i in range(len(xml) - 1, first - 1, -1) if xml[i])
                rows = [int(xml[i][8 : xml[i].index(b'"', 8)]) - 1 for i in (first, last)]
                self.first = rows[0] if self.first is None else self.first
                self.last = rows[1]
                fh = cast(_Internals, self.sheet.ws).fh
                if isinstance(fh, DeflatedRows):
                    fh.writelines(xml)  # rows joined once, as they go to the deflater
                else:  # xlsxwriter's own row file, a text file
                    fh.write(b"".join(xml).decode())
            return
        for pending in rendered:
            if isinstance(pending, _Pending):  # b"": no row
                self._write_pending(pending)

    def _write_pending(self, pending: _Pending) -> None:
        sheet = self.sheet
        if pending.height:
            sheet.height(pending.row, pending.height)
        for col, value, style in pending.cells:
            if value is None:
                if style is not None:
                    sheet.blank(pending.row, col, style)
            elif isinstance(value, str):
                sheet.text(pending.row, col, value, style)
            else:
                sheet.number(pending.row, col, value, style)

    def close(self) -> None:
        """The sheet's dimensions and last row, as after ordinary writes."""
        if self.fast and self.first is not None and self.used:
            ws = cast(_Internals, self.sheet.ws)
            ws._check_dimensions(self.first, min(self.used))
            ws._check_dimensions(self.last, max(self.used))
            ws.previous_row = self.last


_NONE = type(None)


def _labels(rows: Sequence[int]) -> list[bytes]:
    """The Excel row numbers of 0-based rows, as the bytes of their text (one join, one
    encode and one split for them all).

    >>> _labels(range(4, 6)), _labels([0, 9]), _labels([])
    ([b'5', b'6'], [b'1', b'10'], [])
    """
    if isinstance(rows, range):
        numbers: Iterable[int] = range(rows.start + 1, rows.stop + 1, rows.step)
    else:
        numbers = map(operator.add, rows, repeat(1))
    return " ".join(map(str, numbers)).encode().split()


# xlsxwriter's rule for inline strings, kept here rather than imported from its private
# helpers: text with leading or trailing white space needs xml:space="preserve".
_EDGE_SPACE = re.compile(r"^\s|\s$")


class _LaneXml:
    """Renders one column's cells; each distinct value's markup is built once a stream
    (:class:`_Tails`), whichever batch first meets it."""

    def __init__(self, letter: str, number_style: str, texts: _Texts, blank: str | None) -> None:
        self.used = False
        self.tails = True  # what the last render gave: tails, or whole cells
        self.missing = False  # whether the last render left a cell out (None, no blank)
        self.cell = f'<c r="{letter}'.encode()
        self.text = texts
        self.number = f'"{number_style}><v>'
        self.blank = None if blank is None else f'"{blank}/>'.encode()
        self.known = _Tails(self)

    def render(self, values: Sequence[Value], rows: list[bytes]) -> tuple[list[bytes], bool]:
        """Each cell's markup (UTF-8) and whether it is a *tail* — what follows the cell's
        reference (`<c r="A7` + tail) — or (b"" for a cell not written) the whole cell;
        `rows` are the row labels. The lane's `tails` says the same.

        One lookup a cell: numbers are formatted as xlsxwriter formats them (`.16G`),
        each distinct one once, and a None without a blank style is b"" (no cell).
        """
        self.tails, self.missing = True, False
        if not len(values):
            return [], True
        known = self.known
        known.negative = False
        tails = list(map(known.__getitem__, values))
        if known.negative or (0 in known and _negative_zero(values)):
            self.tails = False  # 0.0 and -0.0 are one key: written apart, cell by cell
            cells = self._each(values, rows)
            self.missing = b"" in cells
            self.used = self.used or self.blank is not None or cells.count(b"") < len(cells)
            return cells, False
        if self.blank is not None or None not in known or b"" not in tails:
            self.used = True
            return tails, True
        self.tails, self.missing = False, True
        self.used = self.used or tails.count(b"") < len(tails)
        cell = self.cell
        return [
            cell + row + tail if tail else b"" for row, tail in zip(rows, tails, strict=True)
        ], False

    def _each(self, values: Sequence[Value], rows: list[bytes]) -> list[bytes]:
        """Cell by cell, each number formatted where it stands."""
        cell, text, number = self.cell, self.text, self.number
        return [
            (b"" if self.blank is None else cell + row + self.blank)
            if value is None
            else cell + row + text[value]
            if value.__class__ is str
            else cell + row + f"{number}{value:.16G}</v></c>".encode()
            for row, value in zip(rows, cast(Sequence[Any], values), strict=True)
        ]


class _Tails(dict[Any, bytes]):
    """A lane's values → the rest of their cells' markup, built on first use: a number as
    xlsxwriter formats it (`.16G`, NaN and infinities refused as it refuses them), a text
    from the lane's table, None as the blank (or b"": no cell). Equal numbers share one
    key and one text (1, 1.0 and True); -0.0 is never kept — it would answer for 0 —
    but said by `negative`."""

    def __init__(self, lane: _LaneXml) -> None:
        super().__init__()
        self.lane = lane
        self.negative = False

    def __missing__(self, value: Any) -> bytes:
        lane = self.lane
        if value is None:
            tail = b"" if lane.blank is None else lane.blank
        elif value.__class__ is str:
            tail = lane.text[value]
        elif not math.isfinite(value):
            raise TypeError(f"NAN/INF not supported in write_number(): {value}")
        elif value == 0 and math.copysign(1.0, value) < 0:
            self.negative = True
            return b""
        else:
            tail = f"{lane.number}{value:.16G}</v></c>".encode()
        self[value] = tail
        return tail


class _Texts(dict[str, bytes]):
    """text → the rest of its cell's markup (UTF-8), built on first use (hits are dict
    lookups)."""

    def __init__(self, ws: _Internals, head: str, inline: dict[str, str]) -> None:
        super().__init__()
        self.ws = ws
        self.head = head
        self.inline = inline  # the book's: a name in many columns is escaped once

    def __missing__(self, value: str) -> bytes:
        inner = self.inline.get(value)
        if inner is None:
            inner = self.inline[value] = _inline_text(self.ws, value)
        markup = self[value] = f"{self.head}{inner}</is></c>".encode()
        return markup


def _is_text(value: Value) -> bool:
    return value.__class__ is str


def _is_number(value: Value) -> bool:
    return value is not None and value.__class__ is not str


def _first(values: Sequence[Value], wanted: Callable[[Value], bool]) -> int | None:
    return next((index for index, value in enumerate(values) if wanted(value)), None)


_MINUS_ZERO = array.array("d", [-0.0]).tobytes()


def _negative_zero(values: Sequence[Value]) -> bool:
    """Whether any value is -0.0: looked for in the doubles' bytes, in C where the values
    are all numbers.

    >>> _negative_zero([1, 0.0, 2.5]), _negative_zero([None, -0.0]), _negative_zero(["0"])
    (False, True, False)
    """
    try:
        packed = array.array("d", cast(Sequence[float], values)).tobytes()
    except TypeError:  # texts or blanks among them
        packed = array.array("d", [v for v in values if v.__class__ is float]).tobytes()
    at = packed.find(_MINUS_ZERO)
    while at >= 0 and at % 8:  # a match across two doubles is none
        at = packed.find(_MINUS_ZERO, at + 1)
    return at >= 0


def _inline_text(ws: _Internals, value: str) -> str:
    """`<t>…</t>` of an inline string, escaped as xlsxwriter escapes it.

    Unlike xlsxwriter, a text that happens to look like rich-text markup (`<r>…</r>`)
    is escaped too: a nickname is never markup. Control characters are shown as their
    visible escapes (`\\x1b`), as the sheet's ordinary path shows them.
    """
    value = texts.cell(value)
    if len(value) > ws.xls_strmax // 2 and texts.utf16_length(value) > ws.xls_strmax:
        value = _utf16_truncate(value, ws.xls_strmax)
    value = ws._escape_control_characters(value)
    preserve = ' xml:space="preserve"' if _EDGE_SPACE.search(value) else ""
    return f"<t{preserve}>{ws._escape_data(value)}</t>"


def _utf16_truncate(value: str, limit: int) -> str:
    """The longest start of `value` within `limit` UTF-16 units, never half a character."""
    length = 0
    for index, char in enumerate(value):
        length += 2 if ord(char) > 0xFFFF else 1
        if length > limit:
            return value[:index]
    return value


def _unnumbered(fmt: Format | None) -> bool:
    """A format whose style number is not given yet (xlsxwriter gives it on first use)."""
    return fmt is not None and fmt.xf_index is None


def _xf_index(fmt: Format) -> int:
    """The style number a format gets in the workbook (given on first use)."""
    index: int = fmt._get_xf_index()  # type: ignore[no-untyped-call]
    return index


def cell_name(row: int, col: int) -> str:
    """`A1` of a 0-based row and column."""
    return f"{xl_col_to_name(col)}{row + 1}"


def cell_position(ref: str) -> tuple[int, int]:
    """The 0-based (row, column) of `A1`."""
    row, col = xl_cell_to_rowcol(ref)
    return row, col
