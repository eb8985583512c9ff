"""The `/todos` overlay: the full list, plan, goals with feedback-loop texts and histories.

The overlay's text is Markdown (``DeckView.todo_overlay``, core/views/view.py). Textual's ``Markdown``
widget made one widget per block and per list item: about a thousand widgets for 40 todos, whose
styling and layout took 0.7-1.4 s before the overlay showed, while keys typed behind f2 waited or
went to a document not laid out yet (issue 19). ``TodosDocument`` draws the same document as one
widget: the Markdown is parsed with the parser Textual's widget uses (markdown-it, "gfm-like") and
laid out the way that widget's stylesheet lays it out (the same margins, bullets, indents, centred
title and theme colours), so the person sees the same overlay, opened in a few milliseconds.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from markdown_it import MarkdownIt
from markdown_it.token import Token
from rich.cells import cell_len
from rich.segment import Segment
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.content import Content, Span
from textual.css.styles import RulesMap
from textual.screen import ModalScreen
from textual.strip import Strip
from textual.style import Style
from textual.visual import RenderOptions, Visual
from textual.widget import Widget
from textual.widgets import Markdown, Static

from tui.text import clean

# The bullets of unordered lists by depth, as Textual's Markdown widget draws them.
BULLETS = tuple(Markdown.BULLETS)
_WHITESPACE = re.compile(r"\s+")
_BULLET_STYLE = ".todos-document--bullet"


@dataclass
class _Node:
    """One block of the document: a heading, a paragraph, a list, a list item, code or a rule."""

    kind: str
    level: int = 0  # a heading's level
    content: Content = field(default_factory=Content)
    children: list[_Node] = field(default_factory=list)
    ordered: bool = False  # a list's, or an item's kind of list
    bullet: str = ""  # an unordered item's bullet; an ordered item's number


def _inline(token: Token) -> Content:
    """An inline token as Content, the way Textual's Markdown blocks build it: whitespace folded,
    code spans, emphasis and strike as component-class styles. Text is never parsed as markup
    (Content(...) holds it literally), and raw HTML is kept as text instead of dropped."""
    parts: list[str] = []
    spans: list[Span] = []
    opened: list[tuple[str | None, int]] = []
    position = 0

    def add(text: str) -> None:
        nonlocal position
        parts.append(text)
        position += len(text)

    def close() -> None:
        if opened:
            style, start = opened.pop()
            if style and position > start:
                spans.append(Span(start, position, style))

    for child in token.children or ():
        kind = child.type
        if kind == "text":
            add(_WHITESPACE.sub(" ", child.content))
        elif kind == "hardbreak":
            add("\n")
        elif kind == "softbreak":
            add(" ")
        elif kind == "code_inline":
            start = position
            add(child.content)
            if position > start:
                spans.append(Span(start, position, ".todos-document--code"))
        elif kind in ("em_open", "strong_open", "s_open"):
            opened.append((f".todos-document--{kind[:-5]}", position))
        elif kind == "link_open":
            opened.append((None, position))  # the text stays; nothing in the overlay is a link
        elif kind == "image":
            add(f"🖼  ({child.attrs.get('alt', '')})" if child.attrs.get("alt") else "🖼  ")
        elif kind == "html_inline":
            add(child.content)
        elif kind.endswith("_close"):
            close()
    return Content("".join(parts), spans=spans)


def parse(source: str) -> list[_Node]:
    """The blocks of a Markdown document, nested as Textual's Markdown widget nests its widgets."""
    root = _Node("root")
    stack = [root]
    for token in MarkdownIt("gfm-like").parse(source):
        kind = token.type
        if kind == "heading_open":
            stack.append(_Node("heading", level=int(token.tag[1:])))
        elif kind == "paragraph_open":
            stack.append(_Node("paragraph"))
        elif kind in ("bullet_list_open", "ordered_list_open"):
            stack.append(_Node("list", ordered=kind == "ordered_list_open"))
        elif kind == "list_item_open":
            if token.info:  # an ordered item: its number
                stack.append(_Node("item", ordered=True, bullet=token.info))
            else:
                depth = sum(1 for node in stack if node.kind == "item" and not node.ordered)
                stack.append(_Node("item", bullet=BULLETS[depth % len(BULLETS)]))
        elif kind.endswith("_open"):  # quotes, tables and the like: their blocks one under another
            stack.append(_Node("group"))
        elif kind.endswith("_close"):
            if len(stack) > 1:
                node = stack.pop()
                stack[-1].children.append(node)
        elif kind == "inline":
            stack[-1].content = _inline(token)
        elif kind in ("fence", "code_block"):
            stack[-1].children.append(_Node("code", content=Content(token.content.rstrip())))
        elif kind == "hr":
            stack[-1].children.append(_Node("rule"))
        elif kind == "html_block":
            stack[-1].children.append(_Node("paragraph", content=Content(token.content.rstrip())))
    return root.children


@dataclass
class _Box:
    """Laid-out lines of a block with the margins its style gives it (they collapse between
    siblings, as in Textual's vertical layout)."""

    lines: list[Content]
    top: int = 0
    bottom: int = 0


def _wrap(content: Content, width: int) -> list[Content]:
    return content.wrap(max(1, width)) or [Content()]


def _stack(nodes: list[_Node], width: int, top_level: bool) -> _Box:
    lines: list[Content] = []
    box = _Box(lines)
    previous: _Box | None = None
    for node in nodes:
        child = _block(node, width, top_level)
        if previous is None:
            box.top = child.top
        else:
            lines.extend(Content() for _ in range(max(previous.bottom, child.top)))
        lines.extend(child.lines)
        previous = child
    box.bottom = previous.bottom if previous is not None else 0
    return box


def _inside(box: _Box) -> list[Content]:
    """A container's lines with its children's outer margins inside it (margins do not collapse
    through a container)."""
    return [*(Content() for _ in range(box.top)), *box.lines, *(Content() for _ in range(box.bottom))]


def _under(indent: int, line: Content) -> Content:
    """The blank cells under a bullet, before ``line``. They look the same in any style; they get
    one other than the style ``line`` starts with, so a screenshot keeps them apart from it as it
    kept Textual's bullet widget apart from the text beside it (an SVG viewer such as
    rsvg-convert drops the leading blanks of a run)."""
    starts_with_bullet = any(span.start == 0 and span.style == _BULLET_STYLE for span in line.spans)
    return Content(" " * indent) if starts_with_bullet else Content.styled(" " * indent, _BULLET_STYLE)


def _block(node: _Node, width: int, top_level: bool) -> _Box:
    kind = node.kind
    if kind == "heading":
        style = f".todos-document--h{min(node.level, 6)}"
        lines = [line.stylize(style) for line in _wrap(node.content, width)]
        if node.level == 1:  # centred as a block, as content-align centres the widget's lines
            shape = max(line.cell_length for line in lines)
            lines = [Content(" " * max(0, (width - shape) // 2)) + line for line in lines]
        return _Box(lines, 2 if node.level <= 2 else 1, 1)
    if kind == "paragraph":
        return _Box(_wrap(node.content, width), 0, 1 if top_level else 0)
    if kind == "list":
        symbols = [child.bullet for child in node.children]
        if node.ordered:
            try:
                start = int(symbols[0]) if symbols else 1
            except ValueError:
                start = 1
            numbers = [f"{n}. " for n in range(start, start + len(symbols))]
            size = max((len(n) for n in numbers), default=0)
            symbols = [n.rjust(size + 1) for n in numbers]
        lines = []
        for symbol, item in zip(symbols, node.children):
            bullet = Content.styled(symbol, _BULLET_STYLE)
            indent = cell_len(symbol)
            inner = _inside(_stack(item.children, width - indent, False)) or [Content()]
            lines.append(bullet + inner[0])
            lines.extend(_under(indent, line) + line for line in inner[1:])
        return _Box(lines, 0, 1 if top_level else 0)
    if kind == "code":
        return _Box([line.stylize(".todos-document--code") for line in node.content.split("\n")], 1, 1)
    if kind == "rule":
        return _Box([Content(), Content.styled("─" * max(1, width), ".todos-document--rule")], 0, 1)
    return _Box(_inside(_stack(node.children, width, False)))


class _Document(Visual):
    """The laid-out document: lines for the last width asked, drawn with the widget's styles."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.blocks = parse(source)
        self._width = -1
        self._lines: list[Content] = []

    def lines(self, width: int) -> list[Content]:
        if width != self._width:
            self._width, self._lines = width, _inside(_stack(self.blocks, width, True))
        return self._lines

    def render_strips(self, width: int, height: int | None, style: Style, options: RenderOptions) -> list[Strip]:
        lines = self.lines(width)[:height] if height is not None else self.lines(width)
        pad = style.rich_style
        return [Strip([Segment(text, part.rich_style) for text, part in
                       line.render(style, end="", parse_style=options.get_style) if text]).crop_extend(0, width, pad)
                for line in lines]

    def get_optimal_width(self, rules: RulesMap, container_width: int) -> int:
        return container_width

    def get_height(self, rules: RulesMap, width: int) -> int:
        return len(self.lines(width))


class TodosDocument(Widget):
    """The overlay's Markdown drawn in one widget, looking as Textual's Markdown widget does."""

    COMPONENT_CLASSES = {
        "todos-document--h1", "todos-document--h2", "todos-document--h3", "todos-document--h4",
        "todos-document--h5", "todos-document--h6", "todos-document--bullet", "todos-document--code",
        "todos-document--em", "todos-document--strong", "todos-document--s", "todos-document--rule",
    }
    # The values of textual/widgets/_markdown.py's stylesheet (Markdown, MarkdownH1-6, MarkdownBullet).
    DEFAULT_CSS = """
    TodosDocument {
        width: 1fr;
        height: auto;
        padding: 0 2 0 2;
        color: $foreground;
        & > .todos-document--h1 {
            color: $markdown-h1-color; background: $markdown-h1-background; text-style: $markdown-h1-text-style;
        }
        & > .todos-document--h2 {
            color: $markdown-h2-color; background: $markdown-h2-background; text-style: $markdown-h2-text-style;
        }
        & > .todos-document--h3 {
            color: $markdown-h3-color; background: $markdown-h3-background; text-style: $markdown-h3-text-style;
        }
        & > .todos-document--h4 {
            color: $markdown-h4-color; background: $markdown-h4-background; text-style: $markdown-h4-text-style;
        }
        & > .todos-document--h5 {
            color: $markdown-h5-color; background: $markdown-h5-background; text-style: $markdown-h5-text-style;
        }
        & > .todos-document--h6 {
            color: $markdown-h6-color; background: $markdown-h6-background; text-style: $markdown-h6-text-style;
        }
        & > .todos-document--bullet { color: $text-primary; }
        &:light > .todos-document--bullet { color: $text-secondary; }
        &:dark > .todos-document--code { background: $warning 10%; color: $text-warning 95%; }
        &:light > .todos-document--code { background: $error 5%; color: $text-error 95%; }
        &:ansi > .todos-document--code { background: ansi_default; }
        & > .todos-document--em { text-style: italic; }
        & > .todos-document--strong { text-style: bold; }
        & > .todos-document--s { text-style: strike; }
        & > .todos-document--rule { color: $secondary; }
    }
    """

    def __init__(self, source: str, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._document = _Document(source)

    @property
    def source(self) -> str:
        """The Markdown shown."""
        return self._document.source

    def update(self, source: str) -> None:
        self._document = _Document(source)
        self.refresh(layout=True)

    def render(self) -> Visual:
        return self._document


class TodosScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,f2", "dismiss", "Close")]

    def __init__(self, markdown: str) -> None:
        super().__init__()
        self.markdown = markdown

    def compose(self) -> ComposeResult:
        with Vertical(id="todos-box", classes="dialog"):
            # A focused scroller: arrows, page up/down, home and end scroll the list from the keyboard.
            with VerticalScroll(id="todos-scroll"):
                # The values in the Markdown are escaped (core/untrusted.py markdown_literal) and the
                # document is drawn from Content, never Rich markup; control characters made visible first.
                yield TodosDocument(clean(self.markdown, multiline=True), id="todos-md")
            yield Static("↑↓ pgup pgdn home end scroll · esc closes · /todos export saves it",
                         classes="dialog-hint")

    def on_mount(self) -> None:
        self.query_one("#todos-box").border_title = "Todos"
        self.query_one("#todos-scroll").focus()

    def show(self, markdown: str) -> None:
        """The agent wrote while the overlay is open: show the new list in place."""
        if markdown != self.markdown:
            self.markdown = markdown
            self.query_one(TodosDocument).update(clean(markdown, multiline=True))
