"""An independent checker for set lines: JLREQ rules and BudouX phrase breaks.

It re-derives what it checks from the spec (docs/print-facts.md's JLREQ lists) and from BudouX, and never
asks the line breaker why it broke where it did:

- a line starts with a line-start-prohibited character, or ends with a line-end-prohibited one;
- a break splits ``……``/``——``, a Latin word, a number with its unit (``1VP``, ``３フェイス``),
  or a range (``1〜2``);
- a Latin word hyphenated although it would have fit on a line of its own;
- a break falls inside a BudouX phrase although the phrase would have fit on a line of its own.
  Phrases are split after spaces, commas, full stops and a hyphen inside a Latin word, and merged where a JLREQ rule or a
  cluster forbids the break between them (the merged unit is what cannot be separated).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from pnpgen.text.linebreak import HYPHEN_CHAR, NO_END, NO_START, OBJ, PHRASE_END, phrase_boundaries, quote_roles

# docs/print-facts.md, "Japanese text"
SPEC_NO_START = frozenset("）」』】〉》］｝。、．，・：；？！ヽヾゝゞ々ーぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ")
SPEC_NO_END = frozenset("（「『【〈《［｛")
_CLUSTERS = re.compile(
    r"…{2,}|‥{2,}|—{2,}|―{2,}"
    r"|[+\-−＋－]?[0-9０-９]+(?:[.,．，:：][0-9０-９]+)*(?:[〜～~\-−–][0-9０-９]+)?"
    r"(?:[A-Za-zＡ-Ｚａ-ｚ]+|[ァ-ヺー]+|[%％]|\ufffc)?"
    r"|[A-Za-zＡ-Ｚａ-ｚ][A-Za-zＡ-Ｚａ-ｚ0-9０-９]*(?:['’][A-Za-z]+)?"
)


def cluster_spans(plain: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in _CLUSTERS.finditer(plain) if m.end() - m.start() > 1]


def check_paragraph(lines: Sequence[Sequence[str]], widths: Sequence[Sequence[float]], max_width: float,
                    label: str = "") -> list[str]:
    """Violations in one paragraph set as ``lines`` of units (characters; OBJ for an icon; a ruby
    base as one unit), with each unit's width, for a line ``max_width`` wide."""
    units = [u for line in lines for u in line]
    wids = [w for line in widths for w in line]
    if len(lines) <= 1:
        return []
    # character offsets of unit starts, and of each line break
    starts = []
    pos = 0
    for u in units:
        starts.append(pos)
        pos += len(u)
    starts.append(pos)
    plain = "".join(units)
    budoux_text = plain.replace(OBJ, "物")
    breaks = []  # unit index of each line start after the first
    k = 0
    for line in lines[:-1]:
        k += len(line)
        breaks.append(k)

    out: list[str] = []
    prefix = f"{label}: " if label else ""
    for bi, (prev, nxt) in enumerate(zip(lines, lines[1:])):
        prev_s = "".join(prev).rstrip(" \u3000")
        nxt_s = "".join(nxt)
        if nxt_s[:1] == "\u3000":  # JLREQ 3.1.6: the space after ！？ is not set at a line's start
            out.append(f"{prefix}line {bi + 2} starts with an ideographic space: …{prev_s[-6:]}|{nxt_s[:6]}…")
        if nxt_s[:1] in SPEC_NO_START:
            out.append(f"{prefix}line {bi + 2} starts with {nxt_s[:1]!r}: …{prev_s[-6:]}|{nxt_s[:6]}…")
        if prev_s[-1:] in SPEC_NO_END:
            out.append(f"{prefix}line {bi + 1} ends with {prev_s[-1:]!r}: …{prev_s[-6:]}|{nxt_s[:6]}…")

    unit_at = {off: i for i, off in enumerate(starts)}
    break_offsets = {starts[b]: b for b in breaks}

    def width_of(lo: int, hi: int) -> float:
        ui, uj = unit_at[lo], unit_at.get(hi, len(units))
        while uj > ui and units[uj - 1] in (" ", "\u3000"):
            uj -= 1
        return sum(wids[ui:uj])

    # gaps where JLREQ allows a break (the breaker's tables, which include the spec's)
    no_start, no_end = SPEC_NO_START | NO_START, SPEC_NO_END | NO_END
    roles = {starts[i]: r for i, r in quote_roles(units).items()}

    def breakable(b: int) -> bool:
        after = roles[b] == "close" if b in roles else plain[b] in no_start
        before = roles[b - 1] == "open" if b - 1 in roles else plain[b - 1] in no_end
        inseparable = plain[b - 1] in "…‥—―" and plain[b] == plain[b - 1]
        return not after and not before and not inseparable and plain[b] not in (" ", "\u3000")

    gaps = [b for b in starts[1:-1] if breakable(b)]
    spans = cluster_spans(plain)

    def around(off: int, edges: list[int]) -> tuple[int, int]:
        lo = max([0] + [x for x in edges if x < off])
        hi = min([len(plain)] + [x for x in edges if x > off])
        return lo, hi

    # a cluster split although the unbreakable stretch holding it fits a line
    for s, e in spans:
        for off, b in break_offsets.items():
            if s < off < e:
                lo, hi = around(off, [g for g in gaps if not s < g < e])
                if width_of(lo, hi) <= max_width + 1e-6:
                    out.append(f"{prefix}break splits {plain[s:e]!r} (before line {breaks.index(b) + 2})")

    # a break inside a phrase (BudouX, split after spaces, joined where no break is allowed) that fits
    bounds = set(phrase_boundaries(budoux_text))
    bounds.update(i + 1 for i, c in enumerate(plain) if c in (" ", "\u3000") or c in PHRASE_END)
    bounds.update(m.end() for m in re.finditer(r"(?<=[A-Za-z])[-‐](?=[A-Za-z])", plain))  # Counter-|intelligence
    good = [g for g in gaps if g in bounds and not any(s < g < e for s, e in spans)]
    for off, b in break_offsets.items():
        if off in good:
            continue
        lo, hi = around(off, good)
        width = width_of(lo, hi)
        if width <= max_width + 1e-6:
            out.append(f"{prefix}break inside phrase {plain[lo:hi]!r} ({width:.2f} ≤ {max_width:.2f}) "
                       f"before line {breaks.index(b) + 2}")
    return out


def check_layout(layout, label: str = "") -> list[str]:
    """Violations in a pnpgen.text Layout (its lines grouped back into paragraphs)."""
    out: list[str] = []
    para_lines: list[list[str]] = []
    para_widths: list[list[float]] = []
    for line in layout.lines:
        cells = line.cells[:-1] if line.hyphen else line.cells  # the added hyphen is not text
        units: list[str] = []
        widths: list[float] = []
        for c in cells:
            if c.unit:
                units.append(c.unit)
                widths.append(c.width * layout.size)
            elif widths:  # a 和欧間 gap widens the unit before it
                widths[-1] += c.width * layout.size
        para_lines.append(units)
        para_widths.append(widths)
        if line.last:
            out += check_paragraph(para_lines, para_widths, layout.w, label)
            para_lines, para_widths = [], []
    if para_lines:
        out += check_paragraph(para_lines, para_widths, layout.w, label)
    return out


def check_plain(text: str, lines: Sequence[str], max_width: float, measure: Callable[[str], float],
                label: str = "") -> list[str]:
    """Violations in ``break_lines`` output for plain ``text``."""
    out: list[str] = []
    if not text:
        return [] if not lines else [f"{label}: lines for empty text"]
    paras = text.replace("\r\n", "\n").split("\n")
    i = 0
    for para in paras:
        # re-find the lines of this paragraph: they concatenate to it, less dropped trailing spaces
        got: list[str] = []
        rest = para
        while True:
            line = lines[i] if i < len(lines) else ""
            if line.endswith(HYPHEN_CHAR) and not rest.startswith(line) and rest.startswith(line[:-1]):
                line = line[:-1]  # broken at a hyphenation point
            if i >= len(lines) or not rest.startswith(line) or (not line and rest):
                return out + [f"{label}: lines do not reproduce the text at {rest[:10]!r}"]
            i += 1
            got.append(line)
            rest = rest[len(line):]
            stripped = rest.lstrip(" \u3000")
            pad = len(rest) - len(stripped)
            if pad:
                got[-1] = line + rest[:pad]
                rest = stripped
            if not rest:
                break
        units = [list(g) for g in got]
        out += check_paragraph(units, [[measure(c) for c in u] for u in units], max_width, label)
    return out
