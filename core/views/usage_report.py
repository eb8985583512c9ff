"""``pideck usage``'s report as text for an 80-column terminal (docs/usage-report.md): a table of
answers, tokens and cost, a bar per day, and what could not be priced.

Token counts are short (``1.6k``, ``48M``: a day's cache reads run to tens of millions); the JSON
has them whole. A cost is a dollar figure only for answers the table priced: a row none of whose
answers was priced says ``no price``, a row only some of whose answers were marks its cost ``*``,
and the line under the table names the models, so an unknown model never reads as $0.
"""

from __future__ import annotations

import unicodedata
from typing import Sequence, cast

from core.clock import ago
from core.sources.plan import cost_text
from core.untrusted import visible_controls
from core.usage.report import ReportJson, SumJson
from core.views.overview_table import short_count

WIDTH = 80
BAR = 46
"""The longest bar of the chart per day, in cells."""
EIGHTHS = " ▏▎▍▌▋▊▉"
NO_PRICE = "no price"
STATUS_WORDS = {"in_progress": "in progress"}


def cost_cell(share: SumJson) -> str:
    """``$0.0094``; ``$0.0094*`` when some of its answers had no price; ``no price`` when none had."""
    if share["cost"] is None:
        return NO_PRICE if share["answers"] else "—"
    return cost_text(share["cost"]) + ("*" if share["unpricedAnswers"] else "")


def bar(value: int, largest: int, width: int = BAR) -> str:
    """A bar of block characters, ``width`` cells for ``largest``, eighths of a cell at its end."""
    if largest <= 0 or value <= 0:
        return ""
    eighths = max(1, round(value * width * 8 / largest))
    return "█" * (eighths // 8) + (EIGHTHS[eighths % 8] if eighths % 8 else "")


def cells(text: str) -> int:
    """The terminal cells ``text`` takes (wide East Asian characters two, combining marks none)."""
    return sum(0 if unicodedata.combining(ch) else 2 if unicodedata.east_asian_width(ch) in "WF" else 1
               for ch in text)


def fit(text: str, width: int) -> str:
    """``text`` on one line in at most ``width`` cells, cut with ``…``."""
    text = visible_controls(text)
    if cells(text) <= width:
        return text
    out, used = "", 0
    for ch in text:
        if used + cells(ch) > width - 1:
            break
        out, used = out + ch, used + cells(ch)
    return out + "…"


def table(headers: Sequence[str], rows: Sequence[Sequence[str]], *, left: int = 1, flex: int | None = None) -> list[str]:
    """Rows of cells under their headers, two spaces apart: the first ``left`` columns aligned
    left, the others right; column ``flex`` (text from the log) cut so that a line fits WIDTH."""
    widths = [max(cells(r[i]) for r in (headers, *rows)) for i in range(len(headers))]
    if flex is not None:
        room = WIDTH - (sum(widths) - widths[flex]) - 2 * (len(widths) - 1)
        widths[flex] = max(cells(headers[flex]), min(widths[flex], room))
    lines = []
    for row in (headers, *rows):
        out = []
        for i, (cell, w) in enumerate(zip(row, widths)):
            cell = fit(cell, w) if i == flex else cell
            pad = " " * (w - cells(cell))
            out.append(cell + pad if i < left else pad + cell)
        lines.append("  ".join(out).rstrip())
    return lines


TOKEN_HEADERS = ("ANSWERS", "INPUT", "OUTPUT", "CACHE R", "CACHE W", "TOTAL", "COST")


def token_cells(share: SumJson) -> list[str]:
    t = share["tokens"]
    return [str(share["answers"]), *(short_count(t[k]) for k in ("input", "output", "cacheRead", "cacheWrite", "total")),
            cost_cell(share)]


def short_cells(share: SumJson) -> list[str]:
    return [str(share["answers"]), short_count(share["tokens"]["total"]), cost_cell(share)]


def span(report: ReportJson) -> str:
    """``, 2026-11-30 to 2026-12-01``, ``, since 2026-11-30``, ``, until ...``; "" for all days."""
    since, until = report["since"], report["until"]
    if since and until:
        return f", {since} to {until}" if since != until else f", {since}"
    return f", since {since}" if since else f", until {until}" if until else ""


def title(report: ReportJson) -> list[str]:
    """What the report is of: the first line short, the directory (or the conversation's path) on
    the next (a path is as long as it is)."""
    if report["by"] == "item":
        return [fit(f"Usage by plan item of {report['agent']} {short_id(report['id'])}: {report['name']}", WIDTH),
                visible_controls(report["session"])]
    n = report["conversations"]
    return [f"Usage by {report['by']}: {n} conversation{'' if n == 1 else 's'}{span(report)}",
            f"of {visible_controls(report['session'])}" if "session" in report
            else "of every directory" if report["scope"] is None else f"of {visible_controls(report['scope'])}"]


def usage_text(report: ReportJson) -> str:
    """The report as the terminal shows it (at most WIDTH cells a line, but for a path)."""
    by, rows, total = report["by"], report["rows"], report["total"]
    if not total["answers"]:
        where = visible_controls(report.get("session") or report["scope"] or "every directory")
        return f"No usage of {where}{span(report)}: no answer said its tokens."
    lines = [*title(report), ""]
    if by == "day":
        body = [[r["day"], *token_cells(cast("SumJson", r))] for r in rows]
        lines += table(("DAY", *TOKEN_HEADERS), [*body, ["TOTAL", *token_cells(total)]])
        largest = max(r["tokens"]["total"] for r in rows)
        lines += ["", "Tokens per day"]
        counts = [short_count(r["tokens"]["total"]) for r in rows]
        room = max(len(c) for c in counts)
        lines += [f"{r['day']}  {bar(r['tokens']['total'], largest).ljust(BAR)}  {c.rjust(room)}"
                  for r, c in zip(rows, counts)]
    elif by == "agent":
        body = [[r["agent"], str(r["conversations"]), *token_cells(cast("SumJson", r))] for r in rows]
        lines += table(("AGENT", "CONV.", *TOKEN_HEADERS), [*body, ["TOTAL", str(report["conversations"]),
                                                                    *token_cells(total)]])
    elif by == "conversation":
        body = [[r["agent"], short_id(r["id"]), r["name"], *short_cells(cast("SumJson", r))] for r in rows]
        lines += table(("AGENT", "ID", "NAME", "ANSWERS", "TOKENS", "COST"),
                       [*body, ["TOTAL", "", "", *short_cells(total)]], left=3, flex=2)
    else:
        body = [[f"#{r['id']} {r['content']}" if r["id"] else r["content"],
                 "deleted" if r["deleted"] else STATUS_WORDS.get(r["status"], r["status"]),
                 ago(0, r["inProgressMs"], short=True).removesuffix(" ago"), *short_cells(cast("SumJson", r))]
                for r in rows]
        unplanned = report["unplanned"]
        body.append(["unplanned", "", "", *short_cells(unplanned)])
        lines += table(("ITEM", "STATUS", "IN PROGRESS", "ANSWERS", "TOKENS", "COST"),
                       [*body, ["TOTAL", "", "", *short_cells(total)]], left=2, flex=0)
    if total["unpricedAnswers"]:
        n = total["unpricedAnswers"]
        models = ", ".join(visible_controls(m) for m in report["unpriced"]) or "a model not named"
        import textwrap

        lines += ["", f"* {n} answer{'' if n == 1 else 's'} without a price: "
                  + ("its tokens count, its cost does not." if n == 1 else "their tokens count, their cost does not."),
                  *textwrap.wrap(f"No price for {models}.", WIDTH, initial_indent="  ", subsequent_indent="  ")]
    return "\n".join(lines)


def short_id(session_id: str) -> str:
    from core.sources.in_database import short_id as first_part

    return visible_controls(first_part(session_id))
