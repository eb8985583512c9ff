"""The layer between stdin and the SDK's dispatcher in ``pideck mcp``: it reads the lines itself,
answers every one the SDK would answer badly or not at all, and passes the rest on.

Why it exists (docs/mcp-and-hooks.md, "The MCP server"): the SDK's stdin reader parses with a
parser that refuses what ``JSON.parse`` takes (a lone surrogate escape, deep nesting) and answers
those with ``id: null``; it reads an id of the wrong type as a notification and never answers it;
its parameter errors say only "Invalid request parameters"; and when stdin closes it cancels the
calls still in flight, so writes already applied go unanswered. Here each line is parsed as the
session reader parses a line (``core/session/parse.py``), a request that is not a usable one is
answered with its own id where it has a usable one, and at the end of stdin the SDK is told only
once every request passed on has been answered.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import sys
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, BinaryIO, Callable, Iterator, TypeGuard

import anyio
import mcp.types as types
from mcp.shared.message import SessionMessage
from pydantic import BaseModel, ValidationError

from core.session.parse import MAX_DEPTH, TooDeep, loads_line

ALLOWED_BEFORE_INITIALIZE = frozenset({"initialize", "ping"})
"""What the SDK serves before the handshake is done: the handshake itself, and ping."""

_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")


@dataclass(frozen=True)
class Answer:
    """A line this layer answers itself; ``unreadable`` when it was no JSON-RPC message at all."""

    error: types.JSONRPCError
    unreadable: bool = False


@dataclass(frozen=True)
class Forward:
    """A message for the SDK (``request_id`` set when it owes an answer to it)."""

    message: types.JSONRPCMessage
    request_id: types.RequestId | None = None


@dataclass(frozen=True)
class Ignore:
    """A notification or response that cannot be taken: JSON-RPC never answers those."""

    why: str


def _error(request_id: types.RequestId | None, code: int, message: str, unreadable: bool = False) -> Answer:
    return Answer(types.JSONRPCError(jsonrpc="2.0", id=request_id, error=types.ErrorData(code=code, message=message)),
                  unreadable)


def usable_id(value: Any) -> TypeGuard[types.RequestId]:
    """A JSON-RPC id the answer can carry back: a string or an integer (JSON's true is a bool in
    Python, and bool is an int, so it is excluded by name). A string holding a lone surrogate
    cannot be written back as UTF-8, so it is not usable either."""
    if isinstance(value, str):
        return lone_surrogate_at(value, "") is None
    return isinstance(value, int) and not isinstance(value, bool)


def lone_surrogate_at(value: Any, path: str) -> str | None:
    """The path of the first string (or key) in ``value`` holding a lone surrogate: ``JSON.parse``
    takes ``"\\ud800"``, but it is no Unicode text, so it can be neither stored nor echoed."""
    if isinstance(value, str):
        return path if any("\ud800" <= c <= "\udfff" for c in value) else None
    if isinstance(value, dict):
        for key, item in value.items():
            found = lone_surrogate_at(key, f"{path}.{key!r}") or lone_surrogate_at(item, f"{path}.{key}")
            if found is not None:
                return found
    if isinstance(value, list):
        for n, item in enumerate(value):
            found = lone_surrogate_at(item, f"{path}[{n}]")
            if found is not None:
                return found
    return None


def _problems(exc: ValidationError, prefix: str) -> str:
    """pydantic's errors as ``params.name: Input should be a valid string``, one after another."""
    def where(loc: tuple[int | str, ...]) -> str:
        return (prefix + "".join(f".{p}" if isinstance(p, str) else f"[{p}]" for p in loc)).lstrip(".")

    return "; ".join(f"{where(e['loc'])}: {e['msg']}" for e in exc.errors())


class Wire:
    """Judges each input line; ``params_type(method)`` is the model the SDK's handler for the
    method validates its params with (None for a method it does not serve)."""

    def __init__(self, params_type: Callable[[str], type[BaseModel] | None]) -> None:
        self._params_type = params_type
        self.initialized = False  # (set by the server loop once the handshake is answered)

    def judge(self, raw: bytes) -> Answer | Forward | Ignore:
        deep = False
        try:
            value = loads_line(raw)
        except TooDeep:
            deep = True
            try:
                value = _members(raw)
            except ValueError:
                return _error(None, types.PARSE_ERROR, f"Parse error: nested more than {MAX_DEPTH} levels deep",
                              unreadable=True)
        except ValueError:
            return _error(None, types.PARSE_ERROR, "Parse error", unreadable=True)
        if not isinstance(value, dict):  # a batch array too: MCP has no batches
            return _error(None, types.INVALID_REQUEST, "Invalid Request", unreadable=True)
        return self._judge_object(value, raw, deep)

    def _judge_object(self, value: dict[str, object], raw: bytes, deep: bool) -> Answer | Forward | Ignore:
        has_id = "id" in value
        request_id = value["id"] if has_id and usable_id(value["id"]) else None
        method = value.get("method")

        def invalid(why: str) -> Answer:
            return _error(request_id, types.INVALID_REQUEST, f"Invalid Request: {why}", unreadable=True)

        if "method" not in value:
            if has_id and ("result" in value or "error" in value):
                return self._response(value)
            return invalid('no "method"')
        if not isinstance(method, str):
            return invalid('"method" must be a string')
        if value.get("jsonrpc") != "2.0":
            return invalid('"jsonrpc" must be "2.0"') if has_id else Ignore('a notification without "jsonrpc": "2.0"')
        if has_id and request_id is None:
            return _error(None, types.INVALID_REQUEST, f"Invalid Request: the id of {method} must be a string or an "
                          f"integer, not {json_type(value['id'])}", unreadable=True)
        refusal = self._refusal(value, method, raw, deep)
        if refusal is not None:
            return _error(request_id, types.INVALID_PARAMS, refusal) if has_id else Ignore(refusal)
        if not has_id:
            try:
                return Forward(types.JSONRPCNotification.model_validate(value, by_name=False))
            except ValidationError as exc:
                return Ignore(f"{method}: {_problems(exc, '')}")
        try:
            return self._request(types.JSONRPCRequest.model_validate(value, by_name=False))
        except ValidationError as exc:
            return invalid(_problems(exc, ""))

    def _refusal(self, value: dict[str, object], method: str, raw: bytes, deep: bool) -> str | None:
        """Why a message's params cannot be taken, whatever its method: pideck's own reader skips a
        line nested beyond ``MAX_DEPTH`` (so an entry holding such params would be lost), and a
        lone surrogate is no text to store or echo."""
        if deep:
            return f"Invalid params for {method}: nested more than {MAX_DEPTH} levels deep"
        if _SURROGATE_ESCAPE.search(raw):
            at = lone_surrogate_at(value.get("params"), "params") or lone_surrogate_at(value, "")
            if at is not None:
                return f"Invalid params for {method}: {at} holds a lone surrogate (\\ud800-\\udfff), which is not text"
        return None

    def _request(self, request: types.JSONRPCRequest) -> Answer | Forward:
        # (the handshake has no handler of its own: the SDK checks it against this model)
        model = types.InitializeRequestParams if request.method == "initialize" else self._params_type(request.method)
        if model is not None:
            if not self.initialized and request.method not in ALLOWED_BEFORE_INITIALIZE:
                return _error(request.id, types.INVALID_PARAMS,
                              f"{request.method} before initialize: the client must send initialize first")
            try:
                model.model_validate({} if request.params is None else request.params, by_name=False)
            except ValidationError as exc:
                return _error(request.id, types.INVALID_PARAMS,
                              f"Invalid params for {request.method}: {_problems(exc, 'params')}")
        return Forward(request, request.id)

    def _response(self, value: dict[str, object]) -> Forward | Ignore:
        try:
            return Forward(types.jsonrpc_message_adapter.validate_python(value, by_name=False))
        except ValidationError as exc:
            return Ignore(f"a malformed response ({_problems(exc, '')})")


_NESTED_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')
_SPACE = re.compile(r"[ \t\r\n]*")


def _skip_space(text: str, at: int) -> int:
    return at + len(_SPACE.match(text, at).group())  # type: ignore[union-attr]  # ("*": always matches)


def _members(raw: bytes) -> dict[str, object]:
    """The members of a JSON object line too deep to parse (a parser recurses once per level),
    with each object or array value left unread (an empty dict stands for it): enough to answer the
    message with its own id. Raises ValueError for a line that is no JSON object."""
    text = raw.decode("utf-8", "replace")
    decoder = json.JSONDecoder()
    at = _skip_space(text, 0)
    if text[at:at + 1] != "{":
        raise ValueError("not an object")
    members: dict[str, object] = {}
    at = _skip_space(text, at + 1)
    while text[at:at + 1] != "}":
        if text[at:at + 1] != '"':
            raise ValueError("a member without a name")
        key, at = json.decoder.scanstring(text, at + 1)  # type: ignore[attr-defined]
        at = _skip_space(text, at)
        if text[at:at + 1] != ":":
            raise ValueError("a name without a value")
        at = _skip_space(text, at + 1)
        if text[at:at + 1] in ("{", "["):
            members[key], at = {}, _end_of_nested(text, at)
        else:
            members[key], at = decoder.raw_decode(text, at)
        at = _skip_space(text, at)
        if text[at:at + 1] == ",":
            at = _skip_space(text, at + 1)
        elif text[at:at + 1] != "}":
            raise ValueError("members not separated")
    if text[at + 1:].strip(" \t\r\n"):
        raise ValueError("more after the object")
    return members


def _end_of_nested(text: str, start: int) -> int:
    """Where the object or array opening at ``start`` ends (skipping its strings), read flat."""
    depth = 0
    for token in _NESTED_TOKEN.finditer(text, start):
        mark = token.group()
        if mark in ("{", "["):
            depth += 1
        elif mark in ("}", "]"):
            depth -= 1
            if depth == 0:
                return token.end()
    raise ValueError("an object or array without its end")


def json_type(value: Any) -> str:
    """How ``JSON.parse`` would name a value's type, for the messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, float):
        return "a fraction" if not value.is_integer() else "a number written as a fraction"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, str):
        return "a string holding a lone surrogate"  # (the one string that is no usable id)
    return "an array" if isinstance(value, list) else type(value).__name__


def _key(request_id: types.RequestId) -> str:
    return f"{type(request_id).__name__}:{request_id}"  # (7 and "7" are two requests)


class Owed:
    """The requests passed to the SDK that it has not answered yet, counted on the way out: at the
    end of stdin the SDK is closed only when none is left (it cancels what is still running)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self._owed: Counter[str] = Counter()
        self._changed = anyio.Event()
        self._watched: dict[str, bool] = {}  # the requests waited for: was the answer a result?

    def expect(self, request_id: types.RequestId, watch: bool = False) -> None:
        self._owed[_key(request_id)] += 1
        if watch:
            self._watched[_key(request_id)] = False

    def settle(self, request_id: types.RequestId) -> None:
        """An answer went out for the id, or the client cancelled it (the SDK never answers a
        cancelled request)."""
        key = _key(request_id)
        if self._owed[key] > 0:
            self._owed[key] -= 1
        if self._owed[key] <= 0:
            del self._owed[key]
        self._changed.set()
        self._changed = anyio.Event()

    async def answered(self, request_id: types.RequestId) -> bool:
        """Wait for the answer to a request expected with ``watch``; True when it was a result."""
        while _key(request_id) in self._owed:
            await self._changed.wait()
        return self._watched.pop(_key(request_id), False)

    @property
    def count(self) -> int:
        """Requests read and not answered yet."""
        return sum(self._owed.values())

    async def all_answered(self) -> None:
        while self._owed:
            await self._changed.wait()

    # the write stream protocol the SDK's dispatcher uses
    async def send(self, item: SessionMessage) -> None:
        await self.inner.send(item)
        message = item.message
        if isinstance(message, (types.JSONRPCResponse, types.JSONRPCError)) and message.id is not None:
            if _key(message.id) in self._watched:
                self._watched[_key(message.id)] = isinstance(message, types.JSONRPCResponse)
            self.settle(message.id)

    async def aclose(self) -> None:
        await self.inner.aclose()

    async def __aenter__(self) -> Owed:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()


@contextmanager
def claimed_stdin() -> Iterator[BinaryIO]:
    """The process's stdin as a binary file of this layer's own, with fd 0 pointed at the null
    device while it serves (a child process or a stray read must not take the client's bytes, as
    the SDK's ``stdio_server`` does for its own reader); fd 0 is restored at the end."""
    try:
        private = fcntl.fcntl(0, fcntl.F_DUPFD_CLOEXEC, 3)
    except OSError:
        yield sys.stdin.buffer
        return
    null = os.open(os.devnull, os.O_RDONLY)
    try:
        os.dup2(null, 0)
    finally:
        os.close(null)
    try:
        # never closed: a reader thread may still be blocked on it when the serve is cancelled
        yield os.fdopen(private, "rb", closefd=False)
    finally:
        os.dup2(private, 0)
