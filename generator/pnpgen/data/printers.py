"""Printer profiles: how one home printer misplaces and rescales what it prints, measured once
with ``pnpgen calibrate`` and recorded in ``printers.yaml`` (the workspace's, else
``~/.config/pnpgen/printers.yaml``)::

    home-laser: {paper: a4, duplex: long, back_offset_mm: [0.8, -1.2], scale: [1.0, 0.995]}

``back_offset_mm`` is the correction read off the calibration sheet's back rulers: every back
page is moved by it (x right, y down, as the back page is printed). ``scale`` is the printed
length of the sheet's 100 mm bars divided by 100 (x, y; or in percent, ``97%``); every home page is drawn 1/scale as
large about the page centre, so the printer's scaling brings it back to size.
"""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass
from pathlib import Path

from pnpgen.data.formats import PAPER_SIZES, paper_named_by_size
from pnpgen.data.validate import Invalid, beyond, length, show, type_name
from pnpgen.data.workspace import printer_profiles
from pnpgen.data.yamlhint import quoted
from pnpgen.data.yamlsrc import Located, load_yaml
from pnpgen.errors import InputError, contained, suggest
from pnpgen.safetext import INVISIBLE, name_invisible_char
from pnpgen.shapes import Affine

KEYS = ("paper", "duplex", "back_offset_mm", "scale")
MAX_OFFSET_MM = 20.0  # a printer that misses by more than this needs mending, not a profile
SCALE_RANGE = (0.9, 1.1)


@dataclass(frozen=True)
class Printer:
    """A home printer's profile (printers.yaml, measured with ``pnpgen calibrate``): its paper and duplex, and the
    offset and scale it prints with, corrected on every home page so the backs meet the fronts."""

    name: str
    source: str  # file:line of the profile
    paper: str | None = None
    duplex: str | None = None
    back_offset_mm: tuple[float, float] = (0.0, 0.0)
    scale: tuple[float, float] = (1.0, 1.0)

    def page_matrix(self, size_mm: tuple[float, float], back: bool) -> Affine | None:
        """Page mm → page mm for a home page: the scale compensation about the page centre, then
        (``back``: a backs page printed duplex behind its fronts) the offset; None when it
        changes nothing."""
        sx, sy = (1 / s for s in self.scale)
        cx, cy = size_mm[0] / 2, size_mm[1] / 2
        dx, dy = self.back_offset_mm if back else (0.0, 0.0)
        m = Affine(sx, 0.0, 0.0, sy, cx - sx * cx + dx, cy - sy * cy + dy)
        return None if m == Affine(1.0, 0.0, 0.0, 1.0, 0.0, 0.0) else m

    def least_bleed_mm(self, duplex: str) -> float:
        """The back bleed that survives this printer's offset: the larger offset + 0.5 mm; none
        asked when the backs are not printed behind the fronts (``duplex: none``)."""
        if duplex == "none" or not any(self.back_offset_mm):
            return 0.0
        return max(abs(v) for v in self.back_offset_mm) + 0.5

    def words(self, duplex: str) -> str:
        """How the slug names the profile: ``home-laser (back +0.8/−1.2 mm, 100.0 %/99.5 %)``; the
        back offset left out where it moves nothing (``duplex: none``, a profile with none)."""
        dx, dy = self.back_offset_mm
        sx, sy = self.scale
        back = "" if duplex == "none" or not any(self.back_offset_mm) else f"back {dx:+g}/{dy:+g} mm, "
        return f"{self.name} ({back}{sx * 100:g}/{sy * 100:g} %)"

    def sheet_fields(self, duplex: str) -> dict:
        """The home sheets' options this profile sets (``SheetOptions``): how the slug names it
        where backs are printed behind the fronts and where none is moved, and the bleed the
        offset needs."""
        return {"printer": self.words(duplex), "printer_plain": self.words("none"),
                "least_bleed_mm": self.least_bleed_mm(duplex)}

    def record(self) -> dict:
        return {"name": self.name, "source": self.source, "paper": self.paper, "duplex": self.duplex,
                "back_offset_mm": list(self.back_offset_mm), "scale": list(self.scale)}


def check_asked(printer: Printer, paper: str | None, duplex: str | None) -> None:
    """``--paper`` or ``--duplex`` naming another paper or flip edge than ``printer`` was measured
    with: an InputError (its back offset and scale hold for that paper and edge only; used on
    another, they would move the backs by a wrong amount, silently). None given: the profile's."""
    for option, asked, measured in (("--paper", paper, printer.paper), ("--duplex", duplex, printer.duplex)):
        if asked is not None and measured and asked != measured:
            raise InputError(f"{option} {asked}, but the printer profile '{printer.name}' ({printer.source}) was "
                             f"measured with {measured}: its back offset and scale hold there only", key=option,
                             expected=f"{option} {measured} (or {option} left out), or a profile measured with "
                                      f"{asked} (printers.yaml; pnpgen calibrate --paper/--duplex)")


def profiles_file(path: Path) -> bool:
    """Is there a printers.yaml to read at ``path``? None is no error; a folder, a FIFO or a device
    of that name, or a file that cannot be read, is (said, not passed over in silence: ``pnpgen
    calibrate``, whose sheet's measures go there, and a build that asks for a profile)."""
    if not path.is_file():
        if path.exists():
            raise InputError("is not a file (a folder, a pipe or a device)", path=path, expected=PROFILES_FILE)
        return False
    if not os.access(path, os.R_OK):
        raise InputError("cannot be read (permission denied)", path=path,
                         expected=f"{PROFILES_FILE}, readable by you (chmod u+r {path.name})")
    return True


PROFILES_FILE = "printers.yaml, a YAML file of printer profiles (see pnpgen calibrate)"


def load_printer(root: Path, name: str) -> Printer:
    """The profile ``name``; an InputError naming file:line for a bad one, or the files looked in
    for an unknown one."""
    if not name.strip():  # (--printer "" built as if no profile were given)
        raise InputError(f"{name!r} names no profile", key="--printer",
                         expected="a profile's name in printers.yaml (see pnpgen calibrate), or no --printer")
    known: list[str] = []
    for path in printer_profiles(root):
        if not profiles_file(path):
            continue
        if path.parent == root:  # the workspace's own: a link out of the workspace is never read
            contained(path.name, root, "", path)  # (no key: the file is named once, not "printers.yaml: printers.yaml:")
        doc = load_yaml(path)
        if not isinstance(doc.data, dict):
            raise doc.error((), "printers.yaml must map profile names to profiles",
                            "home-laser: {paper: a4, duplex: long, back_offset_mm: [0.8, -1.2], scale: [1.0, 0.995]}")
        for key in doc.data:  # ('"": {scale: 1}' was a profile `--printer ""` chose, named by nothing)
            if key is None or not str(key).strip():
                raise doc.error((key,), f"a printer profile named {'nothing' if key is None else repr(key)}",
                                "a name of letters or digits, as --printer names it: home-laser: {paper: a4, ...}",
                                key=True)
            if not isinstance(key, str):  # (`12:` is YAML's number 12: --printer 12 said 'unknown, did you mean 12?')
                raise doc.error((key,), f"a profile's name YAML reads as {type_name(key)}, not as text", f"the name in quotes, as --printer names it: {quoted(str(key))}: "
                                "{paper: a4, ...}", key=True)
            hidden = name_invisible_char(key)  # ('unknown printer profile 'p'; did you mean p?', the two alike on screen)
            if hidden:
                raise doc.error((key,), f"a profile's name holds {hidden}", "the name typed again without it, as "
                                f"--printer names it: {INVISIBLE.sub('', key) or 'home-laser'}: {{paper: a4, ...}}", key=True)
        if name in doc.data:
            return _parse(doc, name)
        known += [str(k) for k in doc.data]
    where = " or ".join(str(p) for p in printer_profiles(root))
    return _unknown(name, where, known)


def _unknown(name: str, where: str, known: list[str]) -> Printer:
    expected = ("one of " + ", ".join(sorted(known))) if known else \
        f"a profile {show({name: {'paper': 'a4'}})[1:-1]}, ... in {where} (see pnpgen calibrate)"  # (as YAML reads it back)
    raise InputError(f"unknown printer profile {name!r}{suggest(name, known)}", key="--printer", expected=expected)


def _parse(doc: Located, name: str) -> Printer:
    data = doc.data[name]
    line = doc.where((name,), key=True).line
    if not isinstance(data, dict):
        raise doc.error((name,), "a printer profile must be a mapping",
                        "{paper: a4, duplex: long, back_offset_mm: [0.8, -1.2], scale: [1.0, 0.995]}")
    before = None
    for key in data:
        if _a_value(key):  # {…, back_offset_mm: -1.5, 0.8}: YAML's key 0.8 (scale: 99.6%, 100%: '100%')
            raise doc.error((name, key), f"a value, {key!r}, where a key goes: a pair written without its brackets",
                            "[x, y] in brackets: " + _bracketed(before, data, key), key=True)
        before = key
        if key not in KEYS:
            raise doc.error((name, key), f"unknown key {key!r}{suggest(str(key), KEYS)}", " | ".join(KEYS), key=True)
    paper = data.get("paper")
    if paper is not None and str(paper).lower() not in PAPER_SIZES:
        named = paper_named_by_size(str(paper))
        raise doc.error((name, "paper"), f"{show(paper)} is not a paper size" + (f"; did you mean {named}?" if named else ""),
                        " | ".join(sorted(PAPER_SIZES)))
    duplex = data.get("duplex")
    duplex = str(duplex).lower() if isinstance(duplex, str) else duplex  # Long, as --duplex reads it
    if duplex is not None and duplex not in ("long", "short", "none"):
        raise doc.error((name, "duplex"), f"{show(doc.words.get((name, 'duplex'), duplex))} is not a flip edge",
                        "long | short | none")
    written = data.get("back_offset_mm", [0, 0])
    lengths, meant = _lengths(written)
    offset = _pair(doc, name, "back_offset_mm", lengths, -MAX_OFFSET_MM,
                   MAX_OFFSET_MM, "two lengths in mm within ±20, [x, y], as read off the calibration sheet's back "
                   "rulers (e.g. [-1.5, 0.8]; a unit may be written: [-1.5mm, 0.8mm])", one_for_both=False,
                   written=written, meant=meant)
    written = data.get("scale", [1, 1])
    scale = _pair(doc, name, "scale", _factors(written), *SCALE_RANGE,
                  "two factors from 0.9 to 1.1, [x, y]: the printed 100 mm bars' lengths / 100 (one factor: both), "
                  "or as percentages from 90% to 110%, 97% or [100%, 99.5%]", written=written)
    return Printer(name, f"{doc.path}:{line}" if line else str(doc.path), str(paper).lower() if paper else None,
                   duplex, offset, scale)


def _bracketed(before: object, data: dict, key: object) -> str:
    """The pair written without its brackets, in them, its values as written (a designer's
    ``back_offset_mm: -1.5, -0.8`` is told ``back_offset_mm: [-1.5, -0.8]``, never the example's
    signs); the example where the key before holds no single value."""
    first = data.get(before) if before in KEYS else None
    if first is None or isinstance(first, (bool, list, dict)):
        return "back_offset_mm: [-1.5, 0.8], scale: [1.0, 0.995]"
    return f"{before}: [{first}, {str(key).strip()}]"


def _a_value(key: object) -> bool:
    """A profile's key that is a number, a length or a percentage: the second half of a pair."""
    if isinstance(key, (int, float)) and not isinstance(key, bool):
        return True
    return isinstance(key, str) and re.fullmatch(r"\s*[-+]?[0-9.]+\s*(%|mm|cm|in|pt)?\s*", key) is not None


def _lengths(value) -> tuple[object, str]:
    """An offset's items written with a unit (``[-1.5mm, 0]``, ``[-0.06in, 0]``) as numbers of mm,
    as every length pnpgen reads takes one; anything else is left for ``_pair`` to judge, with
    what the item that is no length may have meant, as every length is told (``1/16in``: ``;
    did you mean 0.0625in?``), else ""."""
    if not isinstance(value, list):
        return value, ""
    out = []
    for v in value:
        try:
            out.append(round(length(v, -math.inf, math.inf), 6) if isinstance(v, str) else v)  # 0.06in: 1.524
        except Invalid as e:
            return value, e.message[e.message.find("; did you mean"):] if "; did you mean" in e.message else ""
    return out, ""


def _factors(value):
    """A scale written as the slug prints it, in percent (``97%``, ``[100%, 99.5 %]``), as factors;
    anything else is left for ``_pair`` to judge."""
    items = value if isinstance(value, list) else [value]
    out = []
    for v in items:
        if isinstance(v, str) and v.strip().endswith("%"):
            try:
                v = round(float(v.strip()[:-1]) / 100, 6)
            except ValueError:
                return value
        out.append(v)
    return out if isinstance(value, list) else out[0]


def _number(v) -> float | None:
    """An item of a pair as a number: a number, or text YAML left a string that reads as one
    (``1e9``, which YAML 1.1 takes for text); None for anything else (said as not a valid pair)."""
    if isinstance(v, bool):
        return None
    if isinstance(v, (int, float)):
        return float(v)
    try:
        return float(v) if isinstance(v, str) and v.strip() else None
    except ValueError:
        return None


def _pair(doc: Located, name: str, key: str, value, lo: float, hi: float, expected: str,
          one_for_both: bool = True, written=None, meant: str = "") -> tuple[float, float]:
    """``[x, y]``; one number stands for both only where ``one_for_both`` (a uniform scale): one
    offset read off the x ruler is no y offset, so ``back_offset_mm: 1.5`` is refused. ``written``:
    the value as the file gives it, for the message."""
    if one_for_both and not isinstance(value, list):  # scale: 1e9, 80%, .nan: what it is and the range
        n = _number(value)
        if n is not None and not (math.isfinite(n) and lo <= n <= hi):
            raise doc.error((name, key), beyond(key, value if written is None else written, n, lo, hi).message, expected)
    if one_for_both and isinstance(value, (int, float)) and not isinstance(value, bool):
        value = [value, value]
    ok = isinstance(value, list) and len(value) == 2 and all(
        isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) and lo <= v <= hi for v in value)
    if not ok and isinstance(value, list) and len(value) == 2:  # a number out of range, .nan, .inf, 1e9:
        said = written if isinstance(written, list) and len(written) == 2 else value  # (200%, as written)
        for v, as_written in zip(value, said):  # what it is and the range, as every number is told
            n = _number(v)                                  # (validate.beyond)
            if n is not None and not (math.isfinite(n) and lo <= n <= hi):
                raise doc.error((name, key), beyond(key, as_written, n, lo, hi).message, expected)
    if not ok:
        raise doc.error((name, key), f"{show(value if written is None else written)} is not a valid {key}{meant}", expected)
    return float(value[0]), float(value[1])
