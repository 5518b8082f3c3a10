"""`mafia-sheets serve`: the local drag-and-drop page."""

from __future__ import annotations

from dataclasses import dataclass

import click

from ..errors import MafiaSheetsError
from .common import DEBUG, LANG, Run, gathered


@dataclass(frozen=True)
class ServeOptions:
    host: str
    port: int
    lang: str
    debug: bool


@click.command()
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Адрес / address to listen on (loopback by default).",
)
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True)
@LANG
@DEBUG
@gathered(ServeOptions)
def serve(options: ServeOptions) -> None:
    """Страница для перетаскивания протоколов / the drag-and-drop page.

    Откройте напечатанный адрес в браузере / open the printed address in a browser.
    """
    from ..web.app import run_server

    try:
        run_server(options.host, options.port)
    except MafiaSheetsError as error:
        Run(options.lang, options.debug).fail(error)
