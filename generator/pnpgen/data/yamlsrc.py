"""Read YAML keeping where every key and value stands, so errors can say file:line:column."""

from __future__ import annotations

import hashlib
import marshal
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from pnpgen import resources, usercache
from pnpgen.data.textfile import not_utf8
from pnpgen.data.yamlhint import explain, quoted
from pnpgen.data.yamlpieces import KEY, Cut, cut
from pnpgen.errors import InputError, Where
from pnpgen.patterns import LaterPattern, later
from pnpgen.safetext import LOST_TEXT, REPLACEMENT, clipped, control_char

if TYPE_CHECKING:
    import yaml

Path_ = tuple  # a key path into the document: ("pieces", 3, "count")


@dataclass
class Located:
    """A YAML document as plain Python data plus the position of each value and key."""

    path: Path
    data: Any
    value_marks: dict[Path_, tuple[int, int]] = field(default_factory=dict)
    key_marks: dict[Path_, tuple[int, int]] = field(default_factory=dict)
    lists: set[Path_] = field(default_factory=set)  # the key paths that hold a list
    # plain values as written, by key path, where YAML reads them as something else: the words it
    # reads as true or false (true, yes, No, off…), so a text field holding one says what the
    # designer wrote, not "False"; numbers Python writes otherwise (+2, 007, 1.50), so a text
    # field prints them as written, not 2, 7, 1.5
    words: dict[Path_, str] = field(default_factory=dict)

    def where(self, keypath: Path_, key: bool = False) -> Where:
        line, col = self.mark(keypath, key)
        return Where(self.path, line, col)

    def mark(self, keypath: Path_, key: bool = False) -> tuple[int | None, int | None]:
        """The (line, column) ``where`` says, without making the Where (a thousand pieces' fields)."""
        marks = self.key_marks if key else self.value_marks
        probe = tuple(keypath)
        while probe not in marks and probe:
            probe = probe[:-1]
        line, col = marks.get(probe, (None, None))
        return line, col

    def error(self, keypath: Path_, message: str, expected: str | None = None, key: bool = False) -> InputError:
        w = self.where(keypath, key=key)
        return InputError(message, path=w.path, line=w.line, column=w.column, key=keyname(keypath, self.lists),
                          expected=expected)


def keyname(keypath: Path_, lists: set[Path_]) -> str | None:
    """A key path as the designer counts: ``pieces.2.title`` is the title of the second piece
    (list entries from 1, as "piece 2" says), mapping keys by name."""
    parts = [str(k + 1) if keypath[:i] in lists and isinstance(k, int) else clipped(str(k)) for i, k in enumerate(keypath)]
    return ".".join(parts) or None


MAX_BYTES = 4_000_000  # a YAML file; the largest real deck is a few kB
MAX_VALUES = 200_000  # values aliases may add to a document beyond those written
MAX_WRITTEN = 500_000  # values in a document, aliases expanded: 10,000 pieces of 24 fields
MAX_DEPTH = 50  # nesting of mappings and lists; real files nest 6 deep
SLOW_ERRORS = 200_000  # characters up to which a broken file is read again by PyYAML for its clearer error
_STANDARD = "tag:yaml.org,2002:"
TAGS = {_STANDARD + t for t in ("str", "int", "float", "bool", "null", "timestamp", "seq", "map")}
MERGE = _STANDARD + "merge"


@cache
def _yaml() -> ModuleType:
    """PyYAML, imported when a text is first parsed, not as this module loads: a build whose files
    this machine's cache holds (``load_yaml``) parses none, and the import was some 10 ms of every
    start of pnpgen (issue 22's poker deck)."""
    import yaml

    return yaml


@cache
def _loaders() -> tuple[type, type]:
    """The loader of a file and of a spreadsheet cell's one value (``_ValueLoader``), made as
    PyYAML is first needed (``_yaml``)."""
    import yaml

    class _Loader(yaml.SafeLoader):
        """The safe loader, refusing nesting deeper than MAX_DEPTH while it composes (PyYAML
        composes recursively, so a 5000-deep file would otherwise end in a RecursionError)."""

        depth = 0

        def compose_node(self, parent, index):
            self.depth += 1
            try:
                if self.depth > MAX_DEPTH:
                    mark = self.peek_event().start_mark
                    raise _TooDeep(mark)
                return super().compose_node(parent, index)
            finally:
                self.depth -= 1

    class _ValueLoader(_Loader):
        """One value, as a spreadsheet cell holds it: no aliases (``&a [*a]`` would hold itself)."""

        def compose_node(self, parent, index):
            if self.check_event(yaml.AliasEvent):
                raise yaml.YAMLError("an alias in a single value")
            return super().compose_node(parent, index)

    return _Loader, _ValueLoader


def _yaml12_tree(node: yaml.Node, value: Any) -> Any:
    """``yaml12`` applied to every scalar of a list or mapping value (a cell's ``[1:30, 2]``)."""
    yaml = _yaml()
    if isinstance(node, yaml.SequenceNode) and isinstance(value, list):
        return [_yaml12_tree(n, v) for n, v in zip(node.value, value)]
    if isinstance(node, yaml.MappingNode) and isinstance(value, dict):
        keys = list(value)
        return {k: _yaml12_tree(vn, value[k]) for k, (_, vn) in zip(keys, node.value)} if len(keys) == len(node.value) \
            else value
    return yaml12(node, value)


class _TooDeep(Exception):
    def __init__(self, mark):
        self.mark = mark


DECIMAL = later(r"[-+]?[0-9]+")
INT_TAG, FLOAT_TAG, TIMESTAMP_TAG = _STANDARD + "int", _STANDARD + "float", _STANDARD + "timestamp"
BOOL_TAG = _STANDARD + "bool"


def yaml12(node: yaml.Node, value: Any) -> Any:
    """A plain number as YAML 1.2 reads it, not 1.1 (PyYAML's): ``1:30`` is text, not 90; ``012``
    is twelve, not ten. Hexadecimal, octal, binary and ``1_000`` are text too, so a count
    written ``0x10`` is an error naming it, not sixteen. YAML 1.2 has no dates: ``2024-01-01``
    is the text as written (a card titled so printed it; it was an error naming ``datetime.date``)."""
    yaml = _yaml()
    if not isinstance(node, yaml.ScalarNode) or node.style or node.tag not in (INT_TAG, FLOAT_TAG, TIMESTAMP_TAG):
        return value  # (plain: style None or "")
    text = node.value
    if node.tag == TIMESTAMP_TAG:
        return text
    if node.tag == INT_TAG:
        return int(text, 10) if DECIMAL.fullmatch(text) else text
    if ":" in text or "_" in text:
        return text
    return value


def load_value(text: str) -> Any:
    """A value written in YAML inside a spreadsheet cell (``[a, b]``, ``3``, ``yes``), with the
    bounds of a YAML file; ValueError when it is none (the caller keeps the cell's text)."""
    yaml = _yaml()
    loader = _loaders()[1](text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        if isinstance(node, yaml.ScalarNode):
            return yaml12(node, loader.construct_document(node))
        return _yaml12_tree(node, loader.construct_document(node))
    except (yaml.YAMLError, _TooDeep, ValueError) as e:  # ValueError: an integer of 5,000 digits
        raise ValueError(str(e)) from None
    finally:
        loader.dispose()


CACHE_KIND = "yaml"
# What reads a text: a file read again with the same reader gives the same values and positions,
# so the machine's cache (usercache.py) keeps them by the text's content and this reader's code.
_READER = b"".join([usercache.installed("yaml"),  # (PyYAML's copy, its libyaml with it: not imported to be told)
                    *(resources.folder("pnpgen").joinpath(*name).read_bytes()
                      for name in (("data", "yamlsrc.py"), ("data", "yamlpieces.py"), ("safetext.py",)))])
PIECES_KIND = "yaml-pieces"  # a deck file's pieces as last read, each by its text (``_in_pieces``)
FEW = 8  # pieces read again alone at most (or a tenth of the deck): more, and the file is read whole


def load_yaml(path: Path) -> Located:
    """Read a YAML file with bounds: size, nesting, expanded aliases, and only standard tags. A
    text read before (any file, any workspace) comes back from the machine's cache: a deck of
    3,000 pieces takes 1 s to read with every value's position, 20 ms to read back."""
    try:
        if path.is_dir():
            raise InputError("is a folder", path=path, expected="a YAML file")
        if path.exists() and not path.is_file():  # a pipe or a device: reading it would never end
            raise InputError("is not a regular file (a pipe, a device or a link to one)", path=path,
                             expected="a YAML file")
        if path.stat().st_size > MAX_BYTES:
            deck = path.parent.name == "decks"  # (game.yaml, printers.yaml, a layout: no pieces to split)
            raise InputError(f"file is larger than {MAX_BYTES:,} bytes", path=path,
                             expected="a YAML file of pieces; split a very large deck into several files" if deck
                             else f"a {path.name} of settings, a few kilobytes")
        data = path.read_bytes()
        text = data.decode("utf-8-sig")
    except FileNotFoundError:
        raise InputError("file not found", path=path) from None
    except UnicodeDecodeError as e:
        raise not_utf8(path, data, e) from None
    except OSError as e:
        raise InputError(f"cannot read: {e.strerror}", path=path, expected="a readable YAML file") from None
    entry = usercache.key(_READER, text.encode("utf-8"))
    kept = usercache.get(CACHE_KIND, entry)  # this very text read before: its values and positions
    if isinstance(kept, tuple) and len(kept) == 5:
        return Located(path, *kept)
    doc = _in_pieces(path, text, data.startswith(b"\xef\xbb\xbf"))
    usercache.put(CACHE_KIND, entry, (doc.data, doc.value_marks, doc.key_marks, doc.lists, doc.words))
    return doc


def _in_pieces(path: Path, text: str, bom: bool) -> Located:
    """The file read as ``_read`` reads it; a deck whose text cuts into its pieces
    (data/yamlpieces.py) from the pieces the last reading of this file kept, each by its text:
    those whose text is new (an edited card) are read alone, the head of the file too, and
    the whole put together with every line number as in the file. Read whole when there is no
    cut, when more than a few pieces are new, or when a piece read alone is not sure to read so
    in the file (an error, an anchor or alias, a piece not where the cut put it): the whole
    reading then says any error, and keeps its pieces for the next."""
    c = cut(text) if not bom else None
    if c is None:
        return _read(path, text)
    memo_name = usercache.key(_READER, KEY.encode(), str(path.absolute()).encode())
    kept = usercache.get(PIECES_KIND, memo_name)
    names = [hashlib.sha256(item.encode("utf-8")).hexdigest() for _, item in c.items]
    together = None
    if isinstance(kept, dict) and sum(name not in kept for name in names) <= max(FEW, len(names) // 10):
        together = _put_together(path, c, names, kept)
    if together is None:
        doc, measured = _read_measured(path, text)
        split = _pieces_of(doc, c, names) if not measured[3] else None  # (no anchor, so no alias)
        if split is None:
            return doc
        together = doc, split
    doc, pieces = together
    usercache.put(PIECES_KIND, memo_name, pieces)
    return doc


def _put_together(path: Path, c: Cut, names: list[str], kept: dict) -> tuple[Located, dict] | None:
    """The file from its head read alone and its pieces, each kept or read alone; None when
    unsure (see ``_in_pieces``)."""
    try:
        head, (total, _, depth, anchors) = _read_measured(path, c.head)
    except InputError:
        return None
    data = head.data
    if anchors or not isinstance(data, dict) or KEY not in data or data[KEY] is not None \
            or head.key_marks.get((KEY,)) != (c.line + 1, 1):
        return None
    pieces: dict[str, tuple] = {}
    items: list = []
    value_marks, key_marks, lists, words = head.value_marks, head.key_marks, head.lists, head.words
    lists.add((KEY,))
    try:
        for i, ((start, text), name) in enumerate(zip(c.items, names)):
            piece = pieces.get(name)
            if piece is not None:  # the same text twice: its own values, as the whole reading makes them
                piece = marshal.loads(marshal.dumps(piece))
            else:
                piece = kept.get(name) if name in kept else _piece_alone(path, text, c.indent)
            if piece is None:
                return None
            value, vm, km, ls, wd = piece
            pieces[name] = piece
            items.append(value)
            at = (KEY, i)
            value_marks.update({at + kp: (line + start, column) for kp, (line, column) in vm.items()})
            key_marks.update({at + kp: (line + start, column) for kp, (line, column) in km.items()})
            lists.update(at + kp for kp in ls)
            words.update({at + kp: w for kp, w in wd.items()})
            total += len(vm) + len(km)
            depth = max(depth, 3 + max(map(len, vm)))  # (the file's mapping, the list, the item)
    except (TypeError, ValueError, KeyError, AttributeError):  # a kept piece not as written here
        return None
    if total > MAX_WRITTEN or depth > MAX_DEPTH:
        return None  # (the whole reading says so)
    value_marks[(KEY,)] = (c.items[0][0] + 1, c.indent + 1)
    data[KEY] = items
    return head, pieces


def _piece_alone(path: Path, text: str, indent: int) -> tuple | None:
    """One piece's item read alone: its value, marks (lines from its first), lists and words
    by key paths inside it; None when unsure (an error, an alias, not one item at ``indent``)."""
    try:
        doc, (_, _, _, anchors) = _read_measured(path, text)
    except InputError:
        return None
    if anchors or not isinstance(doc.data, list) or len(doc.data) != 1 \
            or doc.value_marks.get(()) != (1, indent + 1):
        return None
    return (doc.data[0], {kp[1:]: m for kp, m in doc.value_marks.items() if kp},
            {kp[1:]: m for kp, m in doc.key_marks.items()}, [kp[1:] for kp in doc.lists if kp],
            {kp[1:]: w for kp, w in doc.words.items()})


def _pieces_of(doc: Located, c: Cut, names: list[str]) -> dict[str, tuple] | None:
    """The pieces of a file read whole, as ``_piece_alone`` gives them, by their texts' names;
    None when its pieces are not the cut's items."""
    items = doc.data.get(KEY) if isinstance(doc.data, dict) else None
    if not isinstance(items, list) or len(items) != len(c.items):
        return None
    split: list[tuple[dict, dict, list, dict]] = [({}, {}, [], {}) for _ in items]
    starts = [start for start, _ in c.items]
    for n, marks in ((0, doc.value_marks), (1, doc.key_marks)):
        for kp, (line, column) in marks.items():
            if len(kp) > 1 and kp[0] == KEY:
                split[kp[1]][n][kp[2:]] = (line - starts[kp[1]], column)
    for kp in doc.lists:
        if len(kp) > 1 and kp[0] == KEY:
            split[kp[1]][2].append(kp[2:])
    for kp, w in doc.words.items():
        if len(kp) > 1 and kp[0] == KEY:
            split[kp[1]][3][kp[2:]] = w
    out = {}
    for i, ((vm, km, ls, wd), (_, text)) in enumerate(zip(split, c.items)):
        line = vm.get((), (0, 0))[0]
        if not 1 <= line <= text.count("\n") + 1:  # (the item read where the cut has it)
            return None
        out[names[i]] = (items[i], vm, km, ls, wd)
    return out


def _read(path: Path, text: str) -> Located:
    return _read_measured(path, text)[0]


def _read_measured(path: Path, text: str) -> tuple[Located, tuple[int, int, int, bool]]:
    """The file read, and its values counted with aliases expanded, as written, its depth, and
    whether it anchors anything."""
    yaml = _yaml()
    try:
        loader = _loaders()[0](text)
    except yaml.reader.ReaderError as e:  # a control character anywhere in the file
        line = text.count("\n", 0, e.position) + 1
        column = e.position - (text.rfind("\n", 0, e.position) + 1) + 1
        raise InputError(f"character U+{e.character:04X} is not allowed in YAML", path=path, line=line,
                         column=column, expected="printable text; control characters removed") from None
    try:
        node, composer, anchors = _fast_node(text)
        if composer is None:  # libyaml refused it: the pure-Python loader says why, in its words
            node, composer, anchors = loader.get_single_node(), loader, "&" in text
    except yaml.MarkedYAMLError as e:
        hint = explain(text, e)
        raise InputError(hint.message, path=path, line=hint.line, column=hint.column, key=hint.key,
                         expected=hint.expected) from None
    except _LostAnchor as e:
        line = text.splitlines()[e.mark.line]
        written = line[e.mark.column:e.end.column if e.end.line == e.mark.line else None].strip()
        key = line[:e.mark.column].rstrip().removesuffix(":").split(",")[-1].lstrip("-{ ").strip()
        raise InputError(f"YAML reads '&{e.name}' as an anchor name and leaves it out of the text",
                         path=path, line=e.mark.line + 1, column=e.mark.column + 1,
                         expected=f"the text in quotes: {key + ': ' if key else ''}{quoted(written)}") from None
    except _TooDeep as e:
        raise InputError(f"nested more than {MAX_DEPTH} levels deep", path=path, line=e.mark.line + 1,
                         column=e.mark.column + 1, expected="pieces with fields, a few levels deep") from None
    finally:
        loader.dispose()
    doc = Located(path, None)
    if node is not None:
        expansion = _Expansion(doc)
        total, depth = expansion.measure(node)
        doc.data = _Builder(composer, doc, text).build(node, ())
        return doc, (total, expansion.written, depth, anchors)
    doc.data = {}
    return doc, (1, 1, 1, anchors)


def _fast_node(text: str) -> tuple[yaml.Node | None, yaml.SafeLoader | None, bool]:
    """The document's node tree composed by libyaml (ten times faster than PyYAML's own
    composer, the same nodes and marks), when PyYAML has it; its nesting is measured from the
    parser's events first, since libyaml composes recursively in C. (None, None) when libyaml
    is missing or refuses the text, or the nesting is too deep: the pure-Python loader then
    reads it and reports the error (libyaml's own error, for a text longer than SLOW_ERRORS).
    The third value: does the text anchor anything (``&name``)?"""
    yaml = _yaml()
    c_loader = getattr(yaml, "CSafeLoader", None)
    if c_loader is None:
        return None, None, True
    try:
        events = c_loader(text)
        depth = 0
        anchored: dict[str, Any] = {}  # anchor name → the mark of the text it is on
        aliased: set[str] = set()
        anchors = False  # (a list or mapping anchored)
        try:
            while events.check_event():
                event = events.get_event()
                if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                    depth += 1
                    anchors = anchors or event.anchor is not None
                    if depth > MAX_DEPTH:
                        return None, None, True
                elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                    depth -= 1
                elif isinstance(event, yaml.ScalarEvent) and event.anchor:
                    anchored.setdefault(event.anchor, (event.start_mark, event.end_mark))
                elif isinstance(event, yaml.AliasEvent):
                    aliased.add(event.anchor)
        finally:
            events.dispose()
        composer = c_loader(text)
        node = composer.get_single_node()
    except yaml.YAMLError:
        if len(text) > SLOW_ERRORS:  # PyYAML's own reading of 3 MB takes 20 s: libyaml's words, then
            raise
        return None, None, True
    for name, (start, end) in anchored.items():
        if name not in aliased:
            raise _LostAnchor(start, end, name)
    return node, composer, anchors or bool(anchored)


class _LostAnchor(Exception):
    """Text written as ``key: &word …``: YAML reads ``&word`` as an anchor that nothing uses
    and drops it from the text, silently."""

    def __init__(self, mark, end, name: str):
        self.mark, self.end, self.name = mark, end, name


def _mark(node: yaml.Node) -> tuple[int, int]:
    return node.start_mark.line + 1, node.start_mark.column + 1


def _thousands_said(name: str, digits: str) -> tuple[str, str]:
    """What is said of a number written with thousands commas in braces (``{count: 1,000}``:
    YAML reads 1 and a key 000, and 1,000,000 a key 000 twice), and what to write: told as the
    mapping is read, whatever keys it may have."""
    return (f"the comma of a thousands separator ended the number of {name!r} (YAML reads a ',' in {{…}} "
            "as the next entry's)", f"the digits alone: {name}: {digits}")


def _cut_number(pairs: list, at: int) -> tuple[str, str] | None:
    """The key and the number in digits when the key ``at`` of a flow mapping's ``pairs`` is a
    group of a number cut at its thousands commas (``gold: 1,000,000``), else None."""
    yaml = _yaml()
    first = at
    while first > 0 and _group(pairs[first]) and _just_after(pairs[first - 1], pairs[first]):
        first -= 1
    name, number = pairs[first]
    if first == at or not isinstance(name, yaml.ScalarNode) or not isinstance(number, yaml.ScalarNode) \
            or number.style or not re.fullmatch(r"[0-9]{1,3}", number.value):
        return None
    end = first + 1
    while end < len(pairs) and _group(pairs[end]) and _just_after(pairs[end - 1], pairs[end]):
        end += 1  # (every group of the number: 1,000,000,000 is read twice at its second 000)
    return name.value, number.value + "".join(k.value for k, _ in pairs[first + 1:end])


def _just_after(before: tuple, pair: tuple) -> bool:
    """Does the pair's key begin just after the comma that ends the pair ``before`` (``1,000``)?"""
    return pair[0].start_mark.index == max(before[0].end_mark.index, before[1].end_mark.index) + 1


def _group(pair: tuple) -> bool:
    """Is the pair a key of three digits with no value (``000`` of ``1,000``)?"""
    yaml = _yaml()
    key, value = pair
    return isinstance(key, yaml.ScalarNode) and not key.style and re.fullmatch(r"[0-9]{3}", key.value) is not None \
        and isinstance(value, yaml.ScalarNode) and value.value == "" and not value.style  # (plain: None, or "" as libyaml says)


def _error(doc: Located, node: yaml.Node, message: str, expected: str | None = None,
           keypath: Path_ = ()) -> InputError:
    line, col = _mark(node)
    return InputError(message, path=doc.path, line=line, column=col, key=keyname(keypath, doc.lists),
                      expected=expected)


class _Expansion:
    """Measures a document with every alias expanded (values and depth), once per node, so a
    'billion laughs' file is refused in microseconds; finds aliases that contain themselves.
    What aliases add is bounded apart from the values written: a deck of 10,000 pieces of nine
    fields, no alias in it, is some 210,000 values, and was refused as 'aliases expand this to
    more than 200,000 values'."""

    def __init__(self, doc: Located):
        self.doc = doc
        self.known: dict[int, tuple[int, int]] = {}  # node id → (values, depth)
        self.open: set[int] = set()
        self.written = 0  # the distinct nodes met so far: the values written, each once

    def measure(self, node: yaml.Node) -> tuple[int, int]:
        yaml = _yaml()
        known = self.known.get(id(node))
        if known is not None:
            return known
        if id(node) in self.open:
            raise _error(self.doc, node, "an alias refers to the mapping or list that holds it",
                         "an alias (*name) only to a value defined before and outside it")
        self.open.add(id(node))
        self.written += 1
        children = [n for pair in node.value for n in pair] if isinstance(node, yaml.MappingNode) else \
            node.value if isinstance(node, yaml.SequenceNode) else []
        sizes = [self.measure(n) for n in children]
        self.open.discard(id(node))
        total = 1 + sum(n for n, _ in sizes)
        depth = 1 + max((d for _, d in sizes), default=0)
        if total - self.written > MAX_VALUES:  # (without an alias, total is at most what was written)
            raise _error(self.doc, node, f"aliases expand this to more than {MAX_VALUES:,} values",
                         "aliases (*name) to small shared values, not aliases of aliases")
        if total > MAX_WRITTEN:  # (a million values took a minute and more than a gigabyte to read)
            raise _error(self.doc, node, f"this holds more than {MAX_WRITTEN:,} values",
                         "a deck of at most 10,000 pieces of some 24 fields; a larger one split, or kept "
                         "in a spreadsheet (pieces: {file: cards.xlsx})")
        if depth > MAX_DEPTH:
            raise _error(self.doc, node, f"aliases nest this more than {MAX_DEPTH} levels deep",
                         "pieces with fields, a few levels deep")
        self.known[id(node)] = total, depth
        return total, depth


# an empty value whose line goes on with a hex colour, unquoted: a comment to YAML
HIDDEN_COLOUR = later(r"[ \t]*(#(?:[0-9A-Fa-f]{8}|[0-9A-Fa-f]{6}|[0-9A-Fa-f]{3}))[ \t]*$")
# a text whose line goes on with a '#' word, no space after the '#' (#winning, #1): text to the
# designer, a comment to YAML (a comment of their own is '# note')
HIDDEN_WORD = later(r"[ \t]+(#[^\s#][^\n]*?)[ \t]*$")


class _Builder:
    """Nodes → plain Python data, recording each value's and key's position. A node reached
    through several aliases is built once and shared."""

    def __init__(self, loader: yaml.SafeLoader, doc: Located, text: str = ""):
        self.loader = loader
        self.doc = doc
        self.built: dict[int, Any] = {}
        self.lines = text.splitlines() if "#" in text else []  # (only a '#' can hide a colour)
        self.text = text
        self.every_line: list[str] | None = None  # (split only for an alias: most files have none)

    def build(self, node: yaml.Node, keypath: Path_, key: yaml.Node | None = None) -> Any:
        yaml = _yaml()
        doc = self.doc
        if id(node) in self.built:  # an alias (*name) of a node built where its anchor is
            if key is not None:  # (a key's: its value's mistake told where the alias is, not at the anchor)
                doc.value_marks[keypath] = self.alias_mark(key.end_mark)
            return self.built[id(node)]
        doc.value_marks[keypath] = _mark(node)
        self.standard(node, keypath)
        if isinstance(node, yaml.MappingNode):
            value: Any = self.mapping(node, keypath)
        elif isinstance(node, yaml.SequenceNode):
            doc.lists.add(keypath)
            value = [self.build(item, keypath + (i,)) for i, item in enumerate(node.value)]
        else:
            value = self.scalar(node, keypath)
        self.built[id(node)] = value
        return value

    def standard(self, node: yaml.Node, keypath: Path_) -> None:
        yaml = _yaml()
        if isinstance(node, yaml.ScalarNode) and node.tag in (_STANDARD + "value", MERGE) and not node.style \
                and node.value in ("=", "<<") and keypath:  # text: =  (it said "YAML tag '!!value' is not allowed")
            raise _error(self.doc, node, f"YAML reads a lone '{node.value}' as a special value, not as text",
                         f"the text in quotes: {keypath[-1]}: {quoted(node.value)}", keypath)
        if node.tag not in TAGS:
            expected = "plain values, lists and mappings, without '!' tags"
            if isinstance(node, yaml.ScalarNode) and node.tag.startswith("!") and keypath:
                written = " ".join(t for t in (node.tag, node.value) if t)
                expected += f"; text starting with '!' in quotes: {keypath[-1]}: {quoted(written)}"
            raise _error(self.doc, node, f"YAML tag {node.tag.replace(_STANDARD, '!!')!r} is not allowed",
                         expected, keypath)

    def scalar(self, node: yaml.Node, keypath: Path_) -> Any:
        yaml = _yaml()
        try:
            value = yaml12(node, self.loader.construct_object(node, deep=True))
        except (yaml.constructor.ConstructorError, ValueError, OverflowError) as e:
            if node.tag == _STANDARD + "int":  # (Python reads no integer of over 4,300 digits: its message names Python's setting)
                digits = sum(c.isdigit() for c in node.value)
                raise _error(self.doc, node, f"a number {digits:,} digits long is more than any value takes",
                             "a number of a few digits (or, as text, in quotes)", keypath) from None
            problem = getattr(e, "problem", None) or str(e)
            raise _error(self.doc, node, f"cannot read value: {problem}", None, keypath) from None
        if not node.style and (isinstance(value, bool) or (isinstance(value, (int, float)) and str(value) != node.value)):
            self.doc.words[keypath] = node.value  # as written: yes, +2, 007, 1.50
        if value is None and not node.value and self.lines:
            self.hidden_colour(node, keypath)
        if isinstance(value, str):
            if not node.style and self.lines:
                self.hidden_word(node, keypath, value)
            bad = control_char(value)
            if bad is not None:  # written as an escape ("\e", "\x1b", "\u202e") or raw (a bidi override)
                raise _error(self.doc, node, f"{bad} in the text",
                             "printable text; control characters removed", keypath)
            if REPLACEMENT in value:  # (in any edition's text: a build of another only would print it, or an empty box)
                raise _error(self.doc, node, LOST_TEXT, "the text as written, typed or copied again from its source, "
                             "e.g. 祝福", keypath)
        return value

    def _comment_at(self, mark: yaml.Mark, pattern: LaterPattern, keypath: Path_) -> tuple[re.Match[str] | None, str]:
        """What YAML took for a comment from ``mark`` on (``pattern`` matching the line there), and
        the key as the line writes it (``colour: ``, or ``- `` for a list item)."""
        line = self.lines[mark.line] if mark.line < len(self.lines) else ""
        key = f"{keypath[-1]}: " if keypath and isinstance(keypath[-1], str) else "- "
        return pattern.match(line, mark.column), key

    def hidden_colour(self, node: yaml.Node, keypath: Path_) -> None:
        """``colour: #d0584a`` unquoted: YAML reads `` #`` as the start of a comment and the value
        as empty, so the piece would print without its colour, silently."""
        mark = node.start_mark
        hidden, key = self._comment_at(mark, HIDDEN_COLOUR, keypath)
        if hidden is None:
            return
        raise InputError(f"YAML reads '{hidden.group(1)}' as a comment (a ' #' starts one), so this value is empty",
                         path=self.doc.path, line=mark.line + 1, column=hidden.start(1) + 1,
                         key=keyname(keypath, self.doc.lists),
                         expected=f"the colour in quotes: {key}{quoted(hidden.group(1))}")

    def hidden_word(self, node: yaml.Node, keypath: Path_, value: str) -> None:
        """``title: Prompt #1``, ``text: Name 3 things #winning`` unquoted: YAML reads `` #`` as the
        start of a comment, so the card would print without the rest, silently."""
        mark = node.end_mark
        hidden, key = self._comment_at(mark, HIDDEN_WORD, keypath)
        if hidden is None:
            return
        raise InputError(f"YAML reads '{hidden.group(1)}' as a comment (a ' #' starts one), so the text stops at "
                         f"{value!r}", path=self.doc.path, line=mark.line + 1, column=hidden.start(1) + 1,
                         key=keyname(keypath, self.doc.lists),
                         expected=f"the whole text in quotes: {key}{quoted(value + ' ' + hidden.group(1))}, or a "
                         "space after the '#' for a comment of your own: '# note'")

    def mapping(self, node: yaml.MappingNode, keypath: Path_) -> dict:
        yaml = _yaml()
        own = sum(1 for k, _ in node.value if k.tag != MERGE)
        merges = [k for k, _ in node.value if k.tag == MERGE]
        if len(merges) > 1:  # (YAML took the last one's values over the first's, silently)
            raise _error(self.doc, merges[1], "duplicate key '<<': a second merge in one mapping",
                         "one merge of both, '<<: [*first, *second]' (the first one's values win)", keypath)
        try:
            self.loader.flatten_mapping(node)  # '<<: *base' merge keys, as YAML 1.1 defines them
        except yaml.constructor.ConstructorError as e:
            raise _error(self.doc, node, f"cannot merge: {e.problem}", "'<<: *name' naming a mapping",
                         keypath) from None
        pairs = node.value
        out: dict[Any, Any] = {}
        own_keys: set = set()
        for i, (key_node, value_node) in enumerate(pairs):
            if not isinstance(key_node, yaml.ScalarNode):
                raise _error(self.doc, key_node, "a key must be a plain name, not a list or mapping",
                             "'name: value'", keypath)
            self.standard(key_node, keypath)
            key = self.scalar(key_node, keypath)
            if isinstance(key, bool):  # a palette's `yes:` and `no:` (賛成／反対) were told as `palette.True`
                raise _error(self.doc, key_node, f"YAML reads the key {key_node.value} as the yes/no value "
                             f"{str(key).lower()}, not as a name", f"the key in quotes: {quoted(key_node.value)}: …",
                             keypath)
            if key is None:  # a deck list's `~: 3` was told as 'list.None', by Python's word (columns: said it its own way)
                raise _error(self.doc, key_node, f"YAML reads the key {key_node.value} as no value (null), not as a name"
                             if key_node.value else "a key with nothing written before its colon",
                             f"the key in quotes: {quoted(key_node.value)}: …" if key_node.value else "a name: 'name: value'",
                             keypath)
            sub = keypath + (key,)
            if i >= len(pairs) - own:  # merged keys come first and may be overridden
                cut = _cut_number(pairs, i) if _group(pairs[i]) else None
                if cut is not None:  # {count: 1,000}: YAML reads count 1 and a key 000 (twice in 1,000,000)
                    raise _error(self.doc, key_node, *_thousands_said(*cut), sub)
                if key in own_keys:
                    raise _error(self.doc, key_node, "duplicate key", "each key once per mapping", sub)
                own_keys.add(key)
            self.doc.key_marks[sub] = _mark(key_node)
            out[key] = self.build(value_node, sub, key_node if i >= len(pairs) - own else None)  # (a merged key's: its mapping's)
        return out

    def alias_mark(self, after: yaml.Mark) -> tuple[int, int]:
        """Where the alias written after the key that ends at ``after`` is (``paper: *big``: its
        ``*``): a node an alias reaches holds its anchor's marks, so a mistake in the value was
        told at the anchor's line (``name: &big A2``), not where it is used; the key's line when
        the alias is on another."""
        if self.every_line is None:
            self.every_line = self.text.splitlines()
        line = self.every_line[after.line] if after.line < len(self.every_line) else ""
        star = line.find("*", after.column)
        return after.line + 1, (star if star >= 0 else after.column) + 1
