"""Work the book's setting does once where it did it again: the calls counted, the pages the same."""

from __future__ import annotations

import io

import pypdf
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, Spacer

from conftest import make_workspace
from pnpgen.data.load import load_game
from pnpgen.data.workspace import Workspace
from pnpgen.rulebook.book import build_rulebook
from pnpgen.rulebook.flowables import GridKeep
from pnpgen.rulebook.termindex import TermIndex

KANA = "あいうえおかきくけこさしすせそ"


def test_the_index_is_built_once_a_pass_though_the_frame_wraps_and_splits_it(tmp_path, monkeypatch):
    """An index of 90 terms over pages: the frame wraps it, then splits it where the page ends;
    each of those built the whole table of terms anew (three times a pass in a real book), now
    once a pass. The terms are kana, read without the dictionary."""
    ws = make_workspace(tmp_path / "ws", draft=True)
    draft = ws / "data" / "test" / "draft.txt"
    terms = [a + b + c for a in KANA[:6] for b in KANA[5:10] for c in KANA[10:13]]
    draft.write_text(draft.read_text(encoding="utf-8") + "".join(f"　【{t}】を使う。\n" for t in terms),
                     encoding="utf-8")
    counted = {"tables": 0, "passes": 0, "splits": 0}
    table, before, split = TermIndex._table, TermIndex.beforeBuild, TermIndex.split

    def counted_table(self, aw):
        counted["tables"] += 1
        return table(self, aw)

    def counted_before(self):
        counted["passes"] += 1
        return before(self)

    def counted_split(self, aw, ah):
        counted["splits"] += 1
        return split(self, aw, ah)

    monkeypatch.setattr(TermIndex, "_table", counted_table)
    monkeypatch.setattr(TermIndex, "beforeBuild", counted_before)
    monkeypatch.setattr(TermIndex, "split", counted_split)
    book = build_rulebook(load_game(Workspace(ws), "test"), ws / "fonts", booklet=False).files["rulebook.pdf"]
    pages = [p.extract_text() for p in pypdf.PdfReader(io.BytesIO(book)).pages]
    assert sum(terms[-1] in p for p in pages) >= 2  # on its page in the rules, and in the index
    assert counted["passes"] >= 2 and counted["splits"] >= 2  # over pages once it has its entries
    assert counted["tables"] == counted["passes"]


class Counted(Flowable):
    """A flowable of a fixed height that counts its wraps."""

    def __init__(self, height: float, on_grid: bool = False):
        super().__init__()
        self.height, self.on_grid, self.wraps = height, on_grid, 0

    def wrap(self, aw, ah):
        self.wraps += 1
        return aw, self.height


def test_a_group_kept_together_measures_as_the_line_grid_places_it():
    """GridKeep measures its group as the line grid places it: 13 + 3, the next one snapped to the
    grid's next line (30 pt), + 4 + 5 = 39 pt, where ReportLab alone measures 25. (Each flowable
    is wrapped twice, once for ReportLab's measure and once for the grid's: measuring once would
    take ReportLab's private ``_listWrapOn``.)"""
    items = [Counted(13.0), Spacer(1, 3), Counted(4.0, on_grid=True), Counted(5.0)]
    keep = GridKeep(items)
    keep.wrapOn(Canvas(io.BytesIO()), 300, 500)
    assert keep._H == 39.0


def test_a_paragraph_copied_to_be_measured_keeps_the_books_one_setting():
    """A component's description is measured on a copy before it goes beside its pictures
    (rulebook/story.py): the copy sets its lines in the book's setting, not in a copy of every
    line the book has set so far (that deep copy cost a watch save 0.1 s)."""
    import copy

    from pnpgen.rulebook.flowables import JPara
    from pnpgen.rulebook.setlines import SetLines

    setting = SetLines()
    setting.used = {("p", n): tuple(range(50)) for n in range(2000)}  # the lines of a book set so far
    para = JPara("説明文。", "Helvetica", 9, 14, setting=setting)
    measured = copy.deepcopy([para])[0]
    assert measured is not para and measured.setting is setting
