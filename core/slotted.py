"""A base for value classes that every command loads (the todo model, the todo fold's results, a
Deck's changes): equality, a repr and ``replace`` worked out from the field names ``__slots__``
lists, as ``@dataclass`` would generate them.

Those classes are not dataclasses because importing ``dataclasses`` loads ``inspect`` (with ``ast``,
``dis`` and ``tokenize``), and each dataclass compiles its generated methods as its module loads:
together some 8 ms of every ``pideck gate``, which a harness runs at the end of every agent turn.
A class that no such command loads stays a dataclass.

Immutable values are NamedTuples (``core/primitives/host.py``), in modules without ``from __future__
import annotations``: typing turns a NamedTuple's string annotations into forward references, each
compiled, and the first ``compile()`` of a process costs some 1 ms (Python builds its syntax tree
types then). No headless command compiles anything (tests/cli/test_command_imports.py): in a module
whose annotations are strings, a value class is a ``Slotted`` one, and a type alias that names a
class not yet defined is for the type checker alone.
"""

from __future__ import annotations

TYPE_CHECKING = False  # (typing's own constant, without importing typing: mypy reads it the same)
if TYPE_CHECKING:
    from typing import Any, Self


class Slotted:
    """Subclasses list their fields in ``__slots__``, in order, and set each one in ``__init__``;
    ``replace`` calls ``__init__`` with every field by name, so its parameters are named after them.
    (A class between this one and the one made lists no fields of its own: ``__slots__ = ()``.)"""

    __slots__: tuple[str, ...] = ()

    def fields(self) -> dict[str, object]:
        """The fields by name, in order (the values themselves, not copies)."""
        return {name: getattr(self, name) for name in self.__slots__}

    def replace(self, **changes: Any) -> Self:
        """A new instance with the same fields but ``changes``, like ``dataclasses.replace``."""
        return type(self)(**{**self.fields(), **changes})

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Slotted) and other.__class__ is self.__class__:
            return tuple(self.fields().values()) == tuple(other.fields().values())
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # (mutable and compared by value: unhashable, as a dataclass is)

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={value!r}" for name, value in self.fields().items())
        return f"{type(self).__qualname__}({shown})"
