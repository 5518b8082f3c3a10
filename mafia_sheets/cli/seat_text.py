"""What `seat` prints besides the figures: progress on stderr."""

from __future__ import annotations

import sys
import time
from typing import TextIO

from ..seating.wording import LINES
from ..text import terminal


class Progress:
    """`[████░░░░] Рассаживаю… 40%` on stderr, once a run has taken a second; quiet when
    stderr is not a terminal."""

    WIDTH = 20

    def __init__(self, lang: str, stream: TextIO | None = None) -> None:
        self.lang = lang
        self.stream = stream or sys.stderr
        self.started = time.monotonic()
        self.shown = False
        self.live = self.stream.isatty()

    def __call__(self, fraction: float) -> None:
        if not self.live or time.monotonic() - self.started < 1.0:
            return
        filled = int(self.WIDTH * fraction)
        bar = "█" * filled + "░" * (self.WIDTH - filled)
        text = terminal(LINES["progress"](self.lang))
        self.stream.write(f"\r\x1b[2K[{bar}] {text} {int(100 * fraction)}%")
        self.stream.flush()
        self.shown = True

    def done(self) -> None:
        if self.shown:
            self.stream.write("\r\x1b[2K")
            self.stream.flush()
            self.shown = False
