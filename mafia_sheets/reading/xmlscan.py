"""XML parts read as a stream, in time linear in their bytes, whatever the bytes are.

:func:`regions` turns a part's chunks into regions that never split a tag (a region ends
just before a `<`, or inside text): every pattern a scanner runs over a region therefore
sees whole tags, and no pattern here or in the scanners can cross a `<` — each `<` is
looked at once, so time is linear in the bytes, never quadratic. Along the way it refuses
what no spreadsheet writer puts in an XML part and some reader would read differently: an
encoding other than UTF-8, a document type (entities), markup inside a tag, and a tag,
comment, CDATA section or processing instruction longer than `max_tag`. Comments and
processing instructions are taken out, a CDATA section becomes plain text.

:func:`attributes` reads one tag's attributes strictly (quoted values, no name twice, no
`<` in a value): what it accepts, every XML reader reads the same way.

The patterns here and in the scanners never give back what they took: a single character
class repeats possessively (`[^<]*+`), a group inside an atomic group (`(?>(?:…)*)`),
never as `(?:…)*+` — early CPython 3.11 releases (Debian 12's 3.11.2 among them) match
possessive repeats of a group wrongly (python/cpython#106052: a group that can backtrack,
or holds a lookahead, is refused or overrun), and later releases compile `(?:…)*+` into
that very atomic group. A house test keeps the rule.

Nothing here knows a format: `xlsxscan` and any other zip-of-XML scanner build on it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..text import Text
from .archive import Malformed

# Whitespace, `/` and `>` all end an element's name: mapped to a space, one count of
# `<c ` finds `<c r=…>`, `<c>`, `<c/>` and `<c\t…` alike (the offsets stay the same).
NAME_ENDS = bytes.maketrans(b"\t\n\r\f\v/>", b"       ")

# An attribute as every reader reads it: a name (maybe prefixed), `=`, a quoted value
# without `<`. Possessive quantifiers: a long name without `=` fails in one pass.
ATTR_NAME = rb"[A-Za-z_][\w.\-]*+(?>(?::[A-Za-z_][\w.\-]*+)?)"
ATTR_VALUE = rb"(?:\"[^\"<]*+\"|'[^'<]*+')"
ATTRIBUTE = rb"\s++" + ATTR_NAME + rb"\s*+=\s*+" + ATTR_VALUE
_ATTRIBUTES = re.compile(rb"(?>(?:" + ATTRIBUTE + rb")*)\s*+/?+")
_PAIR = re.compile(rb"\s++(" + ATTR_NAME + rb")\s*+=\s*+(?:\"([^\"<]*+)\"|'([^'<]*+)')")
# a whole tag with quoted values (which may hold `>`): whether the last tag is complete
_WHOLE_TAG = re.compile(rb"<(?>(?:[^<>\"']++|\"[^\"]*+\"|'[^']*+')*)>")
# what a start tag holds after its name, quote-aware (a quoted value may hold `>`)
TAG_BODY = rb"(?>(?:[^<>\"']++|\"[^\"<]*+\"|'[^'<]*+')*)"
# any prefix (without a colon: readers split a name at its first one)
ANY_PREFIX = rb"(?>(?:[^\s/>:<=\"'!?]*+:)?)"

_UTF8_BOM = b"\xef\xbb\xbf"
_OTHER_BOMS = (b"\xff\xfe", b"\xfe\xff", b"\x00\x00\xfe\xff")
_DECLARATION = re.compile(rb"<\?xml(" + rb"(?>(?:" + ATTRIBUTE + rb")*))\s*+\?>")
_UTF8_NAMES = (b"utf-8", b"utf8", b"us-ascii", b"ascii")
_ENTITY = re.compile(r"&(?:(lt|gt|amp|quot|apos)|#([0-9]{1,7})|#x([0-9A-Fa-f]{1,6}));")
_PREDEFINED = {"lt": "<", "gt": ">", "amp": "&", "quot": '"', "apos": "'"}


def _malformed(part: str, what: Text) -> Malformed:
    return Malformed(Text(f"в {part} {what.ru}", f"{part} holds {what.en}"))


class Markup:
    """How many comments, processing instructions and CDATA sections the parts of one
    archive may still hold. No spreadsheet writer puts more than a few in a workbook, and
    each costs the scan a step of its own (a 1 MB file of `<!---->` held it a minute): past
    the limit the archive is refused, counted in C as the chunks arrive."""

    def __init__(self, limit: int) -> None:
        self.limit, self.left = limit, limit

    def take(self, chunk: bytes, part: str) -> None:
        # `!` and `?` are rare in a spreadsheet's XML: looking for them alone is quick
        if b"!" in chunk:
            self.left -= chunk.count(b"<!")
        if b"?" in chunk:
            self.left -= chunk.count(b"<?")
        if self.left < 0:
            limit = f"{self.limit:,}"
            raise _malformed(
                part,
                Text(
                    f"больше {limit.replace(',', ' ')} комментариев, инструкций и разделов "
                    "CDATA (во всём файле)",
                    f"more than {limit} comments, processing instructions and CDATA "
                    "sections (in the whole file)",
                ),
            )


def regions(
    chunks: Iterator[bytes], part: str, max_tag: int, markup: Markup | None = None
) -> Iterator[bytes]:
    """The part's XML as regions that never split a tag (see the module's docstring);
    `markup`, when given, counts the part's comments and the like against its limit."""
    return _Regions(part, max_tag, markup).run(chunks)


class _Regions:
    def __init__(self, part: str, max_tag: int, markup: Markup | None) -> None:
        self.part, self.max_tag, self.markup = part, max_tag, markup
        self.carry = b""  # an unfinished tag or special, or the head before the prolog is read
        self.started = False

    def run(self, chunks: Iterator[bytes]) -> Iterator[bytes]:
        for chunk in chunks:
            if self.markup is not None:
                self.markup.take(chunk, self.part)
            buf = self.carry + chunk if self.carry else chunk
            self.carry = b""
            if not self.started:
                buf = self._prolog(buf)
                if not self.started:
                    self.carry = buf
                    continue
            yield from self._split(buf)
        if self.carry:
            if not self.started:  # a part of only a prolog, or of nothing
                self._prolog(self.carry, final=True)
            yield self.carry  # an unfinished tag at the very end: the reader will refuse it
            self.carry = b""

    def _prolog(self, buf: bytes, final: bool = False) -> bytes:
        """Check what the part begins with; returns the bytes after the XML declaration
        (the whole buffer while there are too few bytes to tell)."""
        if buf.startswith(_OTHER_BOMS) or b"\0" in buf[:64]:
            raise _malformed(self.part, Text("текст не в UTF-8", "text that is not UTF-8"))
        body = buf[3:] if buf.startswith(_UTF8_BOM) else buf
        head = body.lstrip()
        if not head.startswith(b"<?xml"):
            if len(head) >= 5 or final:  # no declaration: UTF-8 by definition
                self.started = True
            return body
        end = head.find(b"?>")
        if end == -1:
            if len(head) > self.max_tag:
                raise self._too_long()
            if final:
                raise _malformed(self.part, Text("оборванное начало", "a cut-off start"))
            return buf
        declaration = _DECLARATION.fullmatch(head, 0, end + 2)
        attrs = attributes(declaration.group(1)) if declaration else None
        encoding = (attrs or {}).get(b"encoding", b"utf-8").strip().lower()
        if attrs is None or encoding not in _UTF8_NAMES:
            raise _malformed(self.part, Text("текст не в UTF-8", "text that is not UTF-8"))
        self.started = True
        return head[end + 2 :]

    def _split(self, buf: bytes) -> Iterator[bytes]:
        """Yield `buf` but for an unfinished last tag (kept for the next chunk), with
        comments, CDATA sections and processing instructions resolved on the way.

        A tag within one chunk is bounded by the chunk (1 MB); one carried over from the
        last chunk is measured where it ends."""
        if buf.startswith(b"<") and not buf.startswith((b"<!", b"<?")):
            tag = _WHOLE_TAG.match(buf)
            if (tag.end() if tag else len(buf)) > self.max_tag:
                raise self._too_long()
        pos, bang, question = 0, _find(buf, b"<!", 0), _find(buf, b"<?", 0)
        while bang != -1 or question != -1:
            special = min(at for at in (bang, question) if at != -1)
            if special > pos:
                yield buf[pos:special]
            resolved = self._special(buf, pos, special)
            if resolved is None:  # unfinished: the rest waits for the next chunk
                self.carry = buf[special:]
                return
            pos, text = resolved
            if text:
                yield text
            # each next `<!` / `<?` is looked for once, from where the last one ended
            bang = _find(buf, b"<!", pos) if -1 < bang < pos else bang
            question = _find(buf, b"<?", pos) if -1 < question < pos else question
        last = buf.rfind(b"<", pos)
        if last != -1 and _WHOLE_TAG.match(buf, last) is None:
            if len(buf) - last > self.max_tag:
                raise self._too_long()
            self.carry = buf[last:]
            buf = buf[:last]
        if len(buf) > pos:
            yield buf[pos:] if pos else buf

    def _special(self, buf: bytes, start: int, at: int) -> tuple[int, bytes] | None:
        """Where a `<!…` or `<?…` construct at `at` ends and the text it stands for;
        None while it is not complete."""
        self._check_not_in_tag(buf, start, at)
        head = buf[at : at + 9]
        if head.startswith(b"<!--"):
            opener, closer, keep = 4, b"-->", False
        elif head.startswith(b"<![CDATA["):
            opener, closer, keep = 9, b"]]>", True
        elif head.startswith(b"<?"):
            opener, closer, keep = 2, b"?>", False
        elif len(head) < 9 and (b"<!--".startswith(head) or b"<![CDATA[".startswith(head)):
            return None  # too few bytes yet to tell which
        else:  # <!DOCTYPE, <!ENTITY or anything else: no spreadsheet part declares one
            raise _malformed(
                self.part,
                Text("объявление типа документа (<!…>)", "a document type declaration (<!…>)"),
            )
        end = buf.find(closer, at + opener)
        if end == -1:
            if len(buf) - at > self.max_tag:
                raise self._too_long()
            return None
        if end + len(closer) - at > self.max_tag:
            raise self._too_long()
        return end + len(closer), (b"_" if keep and end > at + opener else b"")

    def _check_not_in_tag(self, buf: bytes, start: int, at: int) -> None:
        """A `<!` or `<?` inside an open tag (in a quoted value) hides what follows from
        one reader and not from another."""
        previous = buf.rfind(b"<", start, at)
        if previous != -1:
            tag = _WHOLE_TAG.match(buf, previous)
            if tag is None or tag.end() > at:
                raise _malformed(self.part, Text("разметку внутри тега", "markup inside a tag"))

    def _too_long(self) -> Malformed:
        limit = f"{self.max_tag // 1024:,}"
        return _malformed(
            self.part,
            Text(
                f"тег длиннее {limit.replace(',', ' ')} КБ",
                f"a tag longer than {limit} KB",
            ),
        )


def _find(buf: bytes, marker: bytes, pos: int) -> int:
    # `!` and `?` are rare in a spreadsheet's XML: looking for them alone is quick
    return buf.find(marker, pos) if buf.find(marker[1:], pos) != -1 else -1


# ---- one tag's attributes ------------------------------------------------------------


def attributes(body: bytes) -> dict[bytes, bytes] | None:
    """A tag's attributes (the bytes after its name), raw name → raw value; None unless
    they are a strict list — quoted values, no `<` in one, no name twice."""
    if _ATTRIBUTES.fullmatch(body) is None:
        return None
    found: dict[bytes, bytes] = {}
    for name, double, single in _PAIR.findall(body):
        if name in found:
            return None
        found[name] = double if double or not single else single
    return found


def local(name: bytes) -> bytes:
    """`r:id` → `id`: readers match names after the first colon."""
    return name.split(b":", 1)[-1]


def text_of(value: bytes) -> str | None:
    """An attribute value as text: UTF-8, the XML entities decoded; None for an `&` that
    starts no XML entity (the reader would refuse the file)."""
    text = value.decode("utf-8", "replace")
    if "&" not in text:
        return text
    parts, at = [], 0
    for entity in _ENTITY.finditer(text):
        if "&" in text[at : entity.start()]:
            return None
        name, decimal, hexadecimal = entity.groups()
        code = int(decimal or hexadecimal or "0", 10 if decimal else 16)
        if not name and not 0 < code <= 0x10FFFF:
            return None
        parts += [text[at : entity.start()], _PREDEFINED[name] if name else chr(code)]
        at = entity.end()
    if "&" in text[at:]:
        return None
    return "".join(parts) + text[at:]


def tag_pattern(prefix: bytes, name: bytes) -> re.Pattern[bytes]:
    """Start tags of local `name` under `prefix` (a regex; ANY_PREFIX for any), with the
    attributes (quote-aware) as the group."""
    return re.compile(b"<" + prefix + re.escape(name) + rb"(?=[\s/>])(" + TAG_BODY + rb")>")
