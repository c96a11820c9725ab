"""Read YAML keeping where every key and value stands, so errors can say file:line:column."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from pnpgen.errors import InputError
from pnpgen.data.model import Where

Path_ = tuple  # a key path into the document: ("pieces", 3, "count")


@dataclass
class Located:
    """A YAML document as plain Python data plus the position of each value and key."""

    path: Path
    data: Any
    value_marks: dict[Path_, tuple[int, int]] = field(default_factory=dict)
    key_marks: dict[Path_, tuple[int, int]] = field(default_factory=dict)

    def where(self, keypath: Path_, key: bool = False) -> Where:
        marks = self.key_marks if key else self.value_marks
        probe = tuple(keypath)
        while probe not in marks and probe:
            probe = probe[:-1]
        line, col = marks.get(probe, (None, None))
        return Where(self.path, line, col)

    def error(self, keypath: Path_, message: str, expected: str | None = None, key: bool = False) -> InputError:
        w = self.where(keypath, key=key)
        name = ".".join(str(k) for k in keypath) or None
        return InputError(message, path=w.path, line=w.line, column=w.column, key=name, expected=expected)


def load_yaml(path: Path) -> Located:
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except FileNotFoundError:
        raise InputError("file not found", path=path) from None
    except UnicodeDecodeError as e:
        raise InputError(f"not UTF-8 text (byte {e.start})", path=path, expected="a UTF-8 YAML file") from None
    loader = yaml.SafeLoader(text)
    try:
        node = loader.get_single_node()
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        raise InputError(
            f"YAML syntax error: {e.problem}" + _context(e),
            path=path,
            line=mark.line + 1 if mark else None,
            column=mark.column + 1 if mark else None,
            expected="valid YAML: 'key: value' pairs, consistent indentation, quoted text containing ': ' or '#'",
        ) from None
    finally:
        loader.dispose()
    doc = Located(path, None)
    doc.data = {} if node is None else _build(loader, node, (), doc)
    return doc


def _mark(node: yaml.Node) -> tuple[int, int]:
    return node.start_mark.line + 1, node.start_mark.column + 1


def _build(loader: yaml.SafeLoader, node: yaml.Node, keypath: Path_, doc: Located) -> Any:
    doc.value_marks[keypath] = _mark(node)
    if isinstance(node, yaml.MappingNode):
        out: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            key = loader.construct_object(key_node, deep=True)
            sub = keypath + (key,)
            if key in out:
                line, col = _mark(key_node)
                raise InputError("duplicate key", path=doc.path, line=line, column=col,
                                 key=".".join(str(k) for k in sub), expected="each key once per mapping")
            doc.key_marks[sub] = _mark(key_node)
            out[key] = _build(loader, value_node, sub, doc)
        return out
    if isinstance(node, yaml.SequenceNode):
        return [_build(loader, item, keypath + (i,), doc) for i, item in enumerate(node.value)]
    try:
        return loader.construct_object(node, deep=True)
    except yaml.constructor.ConstructorError as e:
        raise InputError(f"cannot read value: {e.problem}", path=doc.path, line=_mark(node)[0],
                         column=_mark(node)[1]) from None


def _context(e: yaml.MarkedYAMLError) -> str:
    """Where the construct that broke began, e.g. '(while parsing a flow sequence started at line 9)'."""
    if not e.context:
        return ""
    start = f" started at line {e.context_mark.line + 1}" if e.context_mark else ""
    return f" ({e.context}{start})"
