"""What a template reads: the piece and the deck (noting each field read, so a face is known to
stay the same when a field it never read changes), and what it read that is not there, told in
the designer's words."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import jinja2

from pnpgen.errors import suggest
from pnpgen.faces.tracks import XY, Box, Space, TrackSvg


class PieceView(Mapping):
    """A piece's fields for templates: ``piece.name`` and ``piece["name"]`` both work, and field
    names such as ``copy`` or ``count`` are not shadowed by dict methods."""

    def __init__(self, values: dict[str, Any], reads: set[str] | None = None):
        self._values = values
        self._reads = reads if reads is not None else set()
        self._last: str | None = None  # the field read last: what ``colour(piece.edge)`` was handed

    def __getitem__(self, key: str) -> Any:
        self._reads.add(key)
        self._last = key
        return self._values[key]

    def __getattr__(self, key: str) -> Any:
        if key.startswith("_"):
            raise AttributeError(key)
        try:
            return self[key]
        except KeyError:
            raise AttributeError(key) from None

    def __iter__(self):
        self._reads.update(self._values)  # a template that loops over the fields reads them all
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)


def last_empty_read(view: PieceView) -> str | None:
    """The field the template read last when its value is empty (not given, or blank): the one an
    open colour's grey was asked for by (``colour(piece.edge)`` reads ``edge`` just before the call)."""
    value = view._values.get(view._last) if view._last is not None else 0
    return view._last if value is None or (isinstance(value, str) and not value.strip()) else None


def has_field(view: PieceView, name: str) -> bool:
    """Whether the piece has a field ``name`` (not marked as read): ``piece.items`` is then the
    field, not the Mapping method of that name (faces/budget.py, FaceEnvironment.getattr)."""
    return name in view._values


class DeckView(dict):
    """The deck's fields for templates, a plain mapping that notes which were read (``count``
    above all: a face that does not show the deck's total is remembered across count edits)."""

    def __init__(self, values: dict[str, Any], reads: set[str]):
        super().__init__(values)
        self._reads = reads

    def __getitem__(self, key: Any) -> Any:
        self._reads.add(key)
        return super().__getitem__(key)

    def get(self, key: Any, default: Any = None) -> Any:
        self._reads.add(key)
        return super().get(key, default)

    def __iter__(self):
        self._reads.update(self.keys())
        return super().__iter__()

    def items(self):  # type: ignore[override]
        self._reads.update(self.keys())
        return super().items()

    def values(self):  # type: ignore[override]
        self._reads.update(self.keys())
        return super().values()


class MissingField(jinja2.UndefinedError):
    """A template read a field the piece does not have (``piece.titel``)."""


_NOTHING = object()  # Jinja passes no ``obj`` for an undefined variable


class FaceUndefined(jinja2.StrictUndefined):
    """Jinja's StrictUndefined, its error saying in the designer's words what was not there: a
    field of the piece (``MissingField``), or what the object read from is (a box, a point, a
    track, a mapping with its keys), never a Python class name such as ``PieceView object``."""

    __slots__ = ()
    # range(piece.lanterns), "%x" and list[i] ask for an index: the error says which field is missing,
    # not "'FaceUndefined' object cannot be interpreted as an integer"
    __index__ = jinja2.StrictUndefined._fail_with_undefined_error

    def __init__(self, hint: str | None = None, obj: Any = _NOTHING, name: Any = None,
                 exc: type[jinja2.TemplateRuntimeError] = jinja2.UndefinedError) -> None:
        if obj is _NOTHING:
            super().__init__(hint, name=name, exc=exc)
            return
        if hint is None:
            hint, exc = missing(obj, name), MissingField if isinstance(obj, PieceView) else exc
        super().__init__(hint, obj, name, exc)


def missing(obj: Any, name: Any) -> str:
    """What a template tried to read and from what, in designer words: ``obj.name`` or ``obj[name]``."""
    what = f"{name!r}"
    if isinstance(obj, PieceView):
        return f"the piece has no field {what}{suggest(str(name), obj._values)}"  # (not iter(obj): that reads them all)
    if isinstance(obj, TrackSvg):
        return f"a track has no {what} (it gives spaces and inner)"
    if isinstance(obj, Space):
        return f"a track space has no {what} (it has value, x, y, w, h, mark, side, centre)"
    if isinstance(obj, (Box, XY)):
        return f"{'a box' if isinstance(obj, Box) else 'a point'} has no {what} (it has {', '.join(obj._fields)})"
    if isinstance(obj, Mapping):
        keys = [str(k) for k in obj][:12]
        return f"no key {what} (its keys: {', '.join(keys)})" if keys else f"no key {what} in an empty mapping"
    if isinstance(obj, jinja2.environment.TemplateModule):  # {% import … as m %}: its macros
        names = sorted(k for k in vars(obj) if not k.startswith("_"))
        return f"the imported template has no macro {what}{suggest(str(name), names)} (it has {', '.join(names)})"
    if isinstance(obj, str):
        return f"a text has no {what}"
    if obj is None:
        return f"an empty value has no {what}"
    if isinstance(obj, (int, float)):
        return f"a number has no {what}"
    if isinstance(obj, (list, tuple)):
        return f"a list has no {what} (take an item by its place, from 0: [0])"
    return f"{what} is not there"
