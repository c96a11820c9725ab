"""The proofing report's numbers: one rule stated twice with another number, and the components' counts
(the draft's against the data's, a count memo, the decks the list does not name, the counts printed 「（仮）」)."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable
from difflib import SequenceMatcher
from functools import lru_cache
from pathlib import Path

from pnpgen.data.model import Game
from pnpgen.messages import msg
from pnpgen.rulebook.components import ComponentRow
from pnpgen.rulebook.proofbase import Finding, numbered_lines, rules_lines, section_end, tables_under
from pnpgen.rulebook.tree import Document, Step, Subheading
from pnpgen.terms import is_latin

# (from a run of digits' first only: tried from each digit, a draft's run of 90,000 digits with no
# word after it took 80 CPU-s, each start reading the rest of the run)
_NUMBER = re.compile(r"(?<![０-９0-9])([０-９0-9]+)(個|枚|人|点|回|マス|ラウンド|ＶＰ|VP)")


def _sentences(line: str) -> list[str]:
    return [t for t in re.split(r"(?<=。)", line.strip("　 ")) if t]


@lru_cache(maxsize=16384)
def _alike(a: str, b: str) -> bool:
    """Nine tenths of the two sentences match (the cheap upper bounds first: the lengths alone are
    difflib's ``real_quick_ratio``). Kept by the pair (bounded): a warm rulebook process compares
    the same sentences on every save."""
    total = len(a) + len(b)
    if total and 2.0 * min(len(a), len(b)) / total < 0.9:
        return False
    m = SequenceMatcher(None, a, b, autojunk=False)
    return m.real_quick_ratio() >= 0.9 and m.quick_ratio() >= 0.9 and m.ratio() >= 0.9


def _heading_of(doc: Document) -> Callable[[int], str]:
    """The title of the heading (section, step or sub-heading) a draft line comes under."""
    heads = sorted([(s.line, s.title) for s in doc.sections]
                   + [(c.line, c.title) for s in doc.sections for c in s.children if isinstance(c, Step)]
                   + [(b.line, b.text) for b in doc.blocks() if isinstance(b, Subheading)])
    lines = [n for n, _ in heads]
    return lambda n: heads[i - 1][1] if (i := bisect_right(lines, n)) else ""


def disagreeing_numbers(doc: Document, text: str, draft_path: Path | str, lang: str) -> list[Finding]:
    """The same rule stated twice with another number: two sentences of the rules that read
    alike once their numbers are masked (examples, 「例えば…」, and two rows of one table left out), with the change-log
    lines that mention both numbers (never two sentences for two player counts, 「３人の時は、…を１枚取り除きます」 over
    「２人の時は、…を２枚取り除きます」; never two ◇ entries of the components list, whose counts
    are the data's to check: 資源トークン（小）（４０個） and 資源トークン（大）（１６個）). Two such
    sentences under headings of their own and no
    change-log line about them are a query, not a slip: the rules of two occasions may well
    differ (〇決算 scores 「２ＶＰ」 a set, 〇最終決算 「１ＶＰ」)."""
    heading = _heading_of(doc)
    entries = {c.line for c in doc.components}  # ◇ entries: their counts are checked against the data
    # the rows of one table or diagram: each row states its own numbers (a scoring table's 五光 １５点
    # 光の札５枚 over 四光 １０点 光の札４枚 is no rule stated twice, trial43)
    table_of = {t.line + k: id(t) for s in doc.rules for t in tables_under(s) for k in range(len(t.lines))}
    found: list[tuple[str, int, str]] = []  # (sentence, line, masked)
    for n, line in rules_lines(doc, text):
        if n in entries:
            continue
        for sentence in _sentences(line):
            if _NUMBER.search(sentence) and len(sentence) >= 15 and not sentence.startswith("例えば"):
                found.append((sentence, n, _NUMBER.sub(lambda m: "#" + m.group(2), sentence)))
    changelog = [(n, line.strip("　・ ")) for s in doc.of_kind("changelog") for n, line in numbered_lines(text)
                 if s.line < n < section_end(doc.sections, s)]
    out, done = [], set()
    for i, (a, na, ma) in enumerate(found):
        for b, nb, mb in found[i + 1:]:
            if a == b or (a, b) in done or not _alike(ma, mb) or table_of.get(na, 0) == table_of.get(nb, 1):
                continue
            nums_a = [m.group(0) for m in _NUMBER.finditer(a)]
            nums_b = [m.group(0) for m in _NUMBER.finditer(b)]
            differ = [(x, y) for x, y in zip(nums_a, nums_b) if x != y]
            if not differ or any(x.endswith("人") for x, _ in differ):
                continue  # (「３人の時は…１枚取り除きます」 over 「２人の時は…２枚…」: one rule per player count)
            done.add((a, b))
            digits = {re.sub(r"\D", "", v) for pair in differ for v in pair}
            related = [(n, line) for n, line in changelog if sum(d in line for d in digits) >= 2]
            pairs = msg("proof.sep", lang).join(msg("proof.numbers.pair", lang, a=x, b=y) for x, y in differ)
            head_a, head_b = heading(na), heading(nb)
            if head_a != head_b and not related:  # two occasions' rules, each under its heading
                said = dict(pairs=pairs, a=a, b=b, line_a=na, line_b=nb, head_a=head_a, head_b=head_b, path=draft_path)
                out.append(Finding(msg("proof.kind.query", lang), msg("proof.numbers.query_book", lang, **said),
                                   msg("proof.numbers.query_file", lang, **said)))
                continue
            book = msg("proof.numbers.book", lang, pairs=pairs, a=a, b=b, line_a=na, line_b=nb)
            file = msg("proof.numbers.file", lang, pairs=pairs, a=a, b=b, line_a=na, line_b=nb, path=draft_path)
            if related:
                book += msg("proof.numbers.log_book", lang, lines=msg("proof.sep", lang).join(
                    msg("proof.numbers.log_line_book", lang, n=n, text=line) for n, line in related))
                file += msg("proof.numbers.log_file", lang, lines="; ".join(
                    msg("proof.numbers.log_line_file", lang, n=n, text=line) for n, line in related))
            out.append(Finding(msg("proof.kind.numbers", lang), book, file))
    return out


def count_mismatches(rows: list[ComponentRow], doc: Document, draft_path: Path | str, lang: str) -> list[Finding]:
    """The components whose draft count differs from the data's, at ``draft_path:line``."""
    lines = {c.total or c.name: c.line for c in doc.components}  # (a total over its parts: its row is named by it)
    out = []
    for row in rows:
        for label, draft_n in row.mismatches:
            n = lines.get(row.name, 0)
            said = dict(label=label, draft=draft_n, data=row.count_text_of(label, english=is_latin(lang)) or "", line=n, path=draft_path)
            out.append(Finding(msg("proof.kind.count", lang), msg("proof.count.book", lang, **said),
                               msg("proof.count.file", lang, **said)))
    return out


def unlisted_decks(rows: list[ComponentRow], doc: Document, draft_path: Path | str, lang: str) -> list[Finding]:
    """The printed decks the draft's components list does not name: the book lists them under
    その他の内容物 with the data's count; the designer may want them in the draft (said at the
    components section's line)."""
    kind, other = msg("proof.kind.components", lang), msg("rulebook.other_components", lang)
    line = next((s.line for s in doc.sections if s.is_components), 0)
    at = f"{draft_path}:{line}" if line else str(draft_path)
    english = is_latin(lang)
    return [Finding(kind, msg("proof.unlisted.book", lang, name=r.name, count=r.count_text(english) or "", other=other),
                    msg("proof.unlisted.file", lang, path=at, name=r.name, count=r.count_text(english) or "",
                        deck=", ".join(r.deck_ids), other=other), (r.name,))
            for r in rows if r.unlisted and r.deck_ids]


def provisional_counts(rows: list[ComponentRow], lang: str) -> list[Finding]:
    """The counts the book prints marked 「（仮）」: the draft gives none, the data's is a stand-in."""
    kind = msg("proof.kind.open", lang)
    return [Finding(kind, msg("proof.provisional.book", lang, name=r.name, count=r.count_text()),
                    msg("proof.provisional.file", lang, name=r.name, count=r.count_text(),
                        where=next((d.where for d in r.items if d.stand_in_count), "")), (r.name,))
            for r in rows if r.provisional and r.count_text()]


def provisional_names(rows: list[ComponentRow]) -> set[str]:
    """The decks and sourced parts whose stand-in count the book prints 「（仮）」."""
    return {d.name for r in rows if r.provisional and r.count_text() for d in r.items if d.stand_in_count}


_MEMO_COUNT = re.compile(r"([^＋+（）()、\s]+)[（(]([^（）()]*?[＝=]\s*([０-９0-9]+)\s*[？?]?)[）)]")


def memo_counts(doc: Document, game: Game, draft_path: Path | str, lang: str) -> list[Finding]:
    """A count memo of the components section that disagrees with the data:
    「ウッドキューブ（３色×４＝１２？）」 against the four colours of five cubes in ``sourced:``."""
    names = [(s.name, s.count) for s in game.sourced] + [(d.name, d.count) for d in game.decks]
    out = []
    for s in doc.rules:
        for memo in s.memos:
            for m in _MEMO_COUNT.finditer(memo.text):
                head = m.group(1)
                data = [(name, n) for name, n in names if name.startswith(head)]
                total = sum(n for _, n in data)
                said = int(m.group(3).translate(str.maketrans("０１２３４５６７８９", "0123456789")))
                if data and total != said:
                    parts = dict(name=head, memo=m.group(0), draft=said, data=total, kinds=len(data), line=memo.line,
                                 path=draft_path)
                    out.append(Finding(msg("proof.kind.count", lang), msg("proof.memo.book", lang, **parts),
                                       msg("proof.memo.file", lang, **parts), (head,)))
    return out
