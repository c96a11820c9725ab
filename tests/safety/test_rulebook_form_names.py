"""The rulebook draws each deck's faces as PDF forms once named after the deck id, written raw
into the page's content: a deck file named in Japanese (``カード.yaml``) gave forms a PDF reader
cannot find (the component pictures blank, "XObject … is unknown"), and a file name holding PDF
operators (``a Q 1 0 0 RG … S q.yaml``) wrote them into the page. A deck id is data: the forms
are named by its hash, and every form the pages show is there."""

from __future__ import annotations

import pytest
from pypdf import PdfReader
from pypdf.generic import ContentStream

from conftest import make_workspace, run

# PDF's content-stream operators (ISO 32000-1, Annex A): anything else came from the data
OPERATORS = set(b"b B b* B* BDC BI BMC BT BX c cm CS cs d d0 d1 Do DP EI EMC ET EX f F f* G g gs h i ID j J K k "
                b"l m M MP n q Q re RG rg ri s S SC sc SCN scn sh T* Tc Td TD Tf Tj TJ TL Tm Tr Ts Tw Tz v w W W* "
                b"y ' \"".split())


def _forms_shown(pdf) -> list[tuple[bytes, bool]]:
    """(name, found in the page's resources) of every form each page shows, and no unknown operator."""
    reader = PdfReader(pdf)
    shown = []
    for page in reader.pages:
        xobjects = page["/Resources"].get("/XObject", {}) if "/Resources" in page else {}
        for operands, op in ContentStream(page.get_contents(), reader).operations:
            assert op in OPERATORS, op
            if op == b"Do":
                shown.append((operands[0], operands[0] in xobjects))
    return shown


@pytest.mark.parametrize("deck_id", ["カード", "カ\u3099ード", "a Q 1 0 0 RG 0 0 m 600 800 l S q", "50% (draft) #2"])
def test_the_rulebook_shows_every_decks_faces_whatever_its_file_is_named(tmp_path, deck_id):
    ws = make_workspace(tmp_path / "ws", draft=True)
    (ws / "data/test/decks/cards.yaml").rename(ws / f"data/test/decks/{deck_id}.yaml")  # the draft's テストカード
    assert run(ws, "build", "--game", "test", "--jobs", "1") == 0
    shown = _forms_shown(ws / "build/test/rulebook.pdf")
    assert len(shown) >= 2 and all(found for _, found in shown), shown  # its front and back at least
