"""Sentences built from results: the K formula with its numbers, the lot notice.

Values are exact fractions; they become text only here, rounded half up, and a rounded
value is marked with «≈» so a judge never mistakes it for the exact one.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal, localcontext
from fractions import Fraction

from ..model import KSummary, LotStatus, Tournament
from ..text import Plural, Text
from ..vocab import display_value
from .labels import TEXT

_SEASON = Text("{name} (сезон: {files})", "{name} (season: {files})")
_FILES = Plural(("файл", "файла", "файлов"), ("file", "files"))


def title(tournament: Tournament, lang: str) -> str:
    """The name printed on every output: a season of several files without a season
    name is the first file's name and the count.

    >>> title(Tournament("Кубок", files=3), "ru"), title(Tournament("Cup", files=2), "en")
    ('Кубок (сезон: 3 файла)', 'Cup (season: 2 files)')
    """
    if tournament.files <= 1:
        return tournament.name
    return _SEASON.format(name=tournament.name, files=_FILES(tournament.files, lang))(lang)


def half_up(value: Fraction, places: int) -> Decimal:
    """The one rounding of the product, for display only: half up, on the exact value."""
    with localcontext() as ctx:
        ctx.prec = 50
        exact = Decimal(value.numerator) / Decimal(value.denominator)
        return exact.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)


def decimal_text(value: Fraction, places: int = 4, lang: str = "en") -> tuple[str, bool]:
    """`Fraction(7, 5)` → `("1.4", True)`; `Fraction(4, 3)` → `("1.3333", False)`.

    The flag says whether the text is the exact value; trailing zeros are dropped. Russian
    text takes a decimal comma: `decimal_text(Fraction(7, 5), lang="ru")` → `("1,4", True)`.
    """
    rounded = half_up(value, places)
    text = format(rounded.normalize(), "f")
    if text in ("-0", ""):
        text = "0"
    return decimal_mark(text, lang), Fraction(rounded) == value


def decimal_mark(text: str, lang: str) -> str:
    """A number's text with the decimal separator of the language: `1.4` → `1,4` in Russian."""
    return text.replace(".", _DECIMAL_MARK(lang))


_DECIMAL_MARK = Text(",", ".")


def _approx(value: Fraction, lang: str) -> str:
    """`= 1.4` for an exact value, `≈ 1.3333` for a rounded one."""
    text, exact = decimal_text(value, lang=lang)
    return f"= {text}" if exact else f"≈ {text}"


def k_formula(k: KSummary, lang: str = "en") -> str:
    """Regulation 8.5 with this tournament's numbers.

    N = 10, n = 3 → `K = 1 + (10/2 − 3)/(10/2) = 1.4`; the formula is shown only when K
    is applied (otherwise there is no heavy side or the option is off).
    """
    if not k.applied:
        return ""
    half = f"{k.games}/2"
    return f"K = 1 + ({half} − {k.heavy_games})/({half}) {_approx(k.value, lang)}"


def heavy_win_text(win: Fraction, k: KSummary, lang: str = "en") -> str:
    """`2 × 1.4 = 2.8` (`2 × 1,4 = 2,8` in Russian): what each winner of a heavy game gets."""
    if not k.applied:
        return ""
    return (
        f"{decimal_text(win, lang=lang)[0]} × {decimal_text(k.value, lang=lang)[0]} "
        f"{_approx(win * k.value, lang)}"
    )


def k_reason(k: KSummary, lang: str) -> str:
    """Why K is not applied, in words; empty when it is."""
    if k.applied or not k.reason:
        return ""
    return TEXT[k.reason](lang) if k.reason in TEXT else k.reason


def k_line(k: KSummary, lang: str) -> str:
    """The one-line K statement printed above the standings."""
    if not k.applied:
        reason = k_reason(k, lang)
        head = _K_OFF(lang)
        return f"{head}: {reason}" if reason else head
    side = display_value("result", k.heavy_side, lang) if k.heavy_side else "—"
    return _K_ON(lang).format(
        side=side.lower(), n=k.heavy_games, games=k.games, formula=k_formula(k, lang)
    )


_K_OFF = Text("K не применяется", "K is not applied")
_K_ON = Text(
    "Коэффициент K: тяжёлая сторона — {side}, n = {n}, N = {games}; {formula}",
    "Coefficient K: heavy side {side}, n = {n}, N = {games}; {formula}",
)


def lot_status_text(lot: LotStatus, lang: str) -> str:
    """How the ties that survived every criterion were (or must be) broken."""
    key = {"sheet": "lot_sheet", "seed": "lot_seed_used", "open": "lot_open"}.get(lot.method)
    if lot.needed:
        key = "lot_open"
    return TEXT[key or "lot_none"](lang)


def lot_groups_text(lot: LotStatus) -> str:
    """`A, B; C, D`: each tied group, groups separated by semicolons."""
    return "; ".join(", ".join(group) for group in lot.groups)


def lot_line(lot: LotStatus, lang: str) -> str:
    """The lot notice printed above the standings; empty when no lot was involved."""
    if lot.method == "none" and not lot.needed:
        return ""
    groups = lot_groups_text(lot)
    if lot.needed:
        line = TEXT["lot_open"](lang)
    else:
        line = f"{TEXT['lot_status'](lang)}: {lot_status_text(lot, lang)}"
        if lot.method == "seed" and lot.seed is not None:
            line += f" ({lot.seed})"
    return f"{line} — {groups}" if groups else line
