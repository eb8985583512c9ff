"""A paste is taken whole or refused whole (docs/tui.md#pastes).

A terminal marks a paste with ``ESC [200~`` and ``ESC [201~``. Textual's reader of the terminal
(``XTermParser``) takes an ESC inside a paste for the start of a key's sequence: the bytes after it
never reach the pasted text, and once the sequence runs long or stops making sense they are handed
on as typed keys. A colour code in a copied line (``ESC [31m``) thus became keys on the command
line, run by the Enter that followed it, and a one-line paste came out reordered.

``WholePasteParser`` leaves every other byte to Textual's reader and reads a paste itself, byte for
byte up to its end marker. A paste holding ESC or another control character (a tab and line ends
aside) is not given to any widget: the app is told ``PasteRefused`` and says why. The app's driver
makes its reader by the name ``XTermParser`` in its own module, so ``use_whole_pastes`` puts this
one there before the app starts (``tests/tui/test_tui_paste.py`` holds the driver to that).
"""

from __future__ import annotations

from typing import Generator

from textual import events
from textual._parser import ParseEOF, ParseError, Peek1, Read1, TokenCallback
from textual._xterm_parser import XTermParser
from textual.message import Message

START, END = "\x1b[200~", "\x1b[201~"
ALLOWED = frozenset("\t\n\r")
"""The control characters a paste may hold: its tabs and line ends."""
PASTE_REFUSED = ("Not pasted: it holds control characters ({controls}) that a terminal would run as keys. "
                 "Nothing was typed; copy the text without its colours or codes.")


class PasteRefused(Message):
    """A paste holding control characters (``controls``: each one, as ``ESC``, ``^A``, ``DEL``)."""

    def __init__(self, controls: tuple[str, ...]) -> None:
        super().__init__()
        self.controls = controls


def control_names(text: str) -> tuple[str, ...]:
    """The control characters of ``text`` other than tabs and line ends, each once, in order."""
    names: dict[str, None] = {}
    for ch in text:
        if ch not in ALLOWED and (ord(ch) < 32 or 127 <= ord(ch) < 160):
            names[_name(ch)] = None
    return tuple(names)


def _name(ch: str) -> str:
    code = ord(ch)
    if code == 27:
        return "ESC"
    if code == 127:
        return "DEL"
    return f"^{chr(code + 64)}" if code < 32 else f"U+{code:04X}"


class WholePasteParser(XTermParser):
    def parse(self, token_callback: TokenCallback) -> Generator[Read1 | Peek1, str, None]:
        while True:
            textual = super().parse(token_callback)  # (a fresh one after each paste: its state is its own)
            request = next(textual)
            seen = ""
            while seen != START:
                try:
                    character = yield request
                except ParseError as exc:  # a timeout or the end: Textual's reader decides what it means
                    try:
                        request = textual.throw(exc)
                    except StopIteration:
                        return
                    continue
                if isinstance(request, Read1):
                    seen = (seen + character)[-len(START):]
                try:
                    request = textual.send(character)
                except StopIteration:
                    return
            textual.close()
            pasted: list[str] = []
            while True:
                try:
                    character = yield self.read1()
                except ParseEOF:
                    return
                except ParseError:
                    continue
                if not character:
                    return
                pasted.append(character)
                if character == "~" and "".join(pasted[-len(END):]) == END:
                    break
            text = "".join(pasted[:-len(END)]).replace("\x00", "")
            controls = control_names(text)
            token_callback(PasteRefused(controls) if controls else events.Paste(text))


def use_whole_pastes() -> None:
    """Have the terminal drivers read the terminal with ``WholePasteParser``."""
    from textual.drivers import linux_driver

    linux_driver.XTermParser = WholePasteParser  # type: ignore[misc]
