"""``pideck tool NAME [JSON]``: one model tool call, its parameters read strictly."""

from __future__ import annotations

import argparse
import sys

from core.cli.common import EXIT_OK, EXIT_USAGE, EXIT_WARNING, UsageError, check_text, emit, open_deck

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def read_params(raw: str | None) -> Any:
    """The tool's parameters: JSON from the argument or, for ``-``, from stdin (decoded as strict
    UTF-8). Raises UsageError for anything else, and for JSON nested beyond what a session line may
    hold (docs/session-format.md#what-a-bad-line-costs)."""
    import json

    from core.session.parse import MAX_DEPTH, too_deep

    if raw is None:
        return {}
    text = read_stdin() if raw == "-" else check_text(raw, "the JSON argument")
    if too_deep(text.encode("utf-8", "surrogatepass")):
        raise UsageError(f"the JSON parameters are nested more than {MAX_DEPTH} levels deep")
    try:
        return json.loads(text, parse_constant=_not_json)
    except json.JSONDecodeError as exc:
        raise UsageError(f"malformed JSON parameters: {exc}") from None
    except RecursionError:  # (too_deep lets only what Python's parser can take through)
        raise UsageError(f"the JSON parameters are nested more than {MAX_DEPTH} levels deep") from None


def read_stdin() -> str:
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:  # a text stream without bytes underneath (tests hand one in)
        return check_text(sys.stdin.read(), "stdin")
    data = stream.read()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UsageError(f"stdin is not valid UTF-8 (byte {exc.start}: {exc.reason})") from None


def _not_json(name: str) -> Any:
    """Python's json accepts NaN and Infinity; JSON (and JSON.parse) does not."""
    import json

    raise json.JSONDecodeError(f"{name} is not valid JSON", name, 0)


def run(args: argparse.Namespace) -> int:
    """The tool's text on stdout, exit 0, even for the tool's own error texts (upstream returns
    them as ordinary results); a write the session refused is exit 1 with the hint on stderr."""
    from core.primitives.dispatch import UnknownTool

    try:
        params = read_params(args.params)
    except UsageError as exc:
        print(f"pideck tool: {exc}", file=sys.stderr)
        return EXIT_USAGE
    deck = open_deck(args, for_agent=True).deck
    try:
        result = deck.call_tool(args.name, params)
    except UnknownTool as exc:
        from core.cli.main import nearest_word
        from core.deck.registry import TOOLS

        nearest = nearest_word(args.name, [t.name for t in TOOLS])
        print(f"pideck tool: {exc}" + (f" Did you mean {nearest!r}?" if nearest else ""), file=sys.stderr)
        return EXIT_USAGE
    if result.refused:
        emit(result.text, sys.stderr)
        return EXIT_WARNING
    emit(result.text)
    if result.rejected:
        _say_what_does_not_fit(args.name, params, [p["id"] for p in deck.handoff.packets()])
    return EXIT_OK


def _say_what_does_not_fit(name: str, params: Any, packet_ids: list[str]) -> None:
    """Beside upstream's text (which says only that the input is invalid), what does not fit, on
    stderr: stdout stays the tool's result byte for byte."""
    from core.deck.registry import tool
    from core.deck.tool_schema import what_does_not_fit

    found = tool(name)
    for problem in what_does_not_fit(found, params, packet_ids) if found is not None else []:
        emit(f"pideck tool: {problem}", sys.stderr)
