"""docs/data-format.md, "A game in two languages from `pnpgen new`": the game `pnpgen new` writes,
its title: line replaced and its deck written as the docs give them, builds a Japanese and an
English edition, each card in its own words (polish48: `pnpgen new` starts a game in one language,
and the docs did not say the lines that make it two)."""

from __future__ import annotations

import re

from pypdf import PdfReader

from conftest import REPO, run

FORMAT = (REPO / "docs" / "data-format.md").read_text(encoding="utf-8")
START = FORMAT.index("### A game in two languages from `pnpgen new`")
SECTION = FORMAT[START:FORMAT.index("\n## ", START)]
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)


def test_the_game_new_wrote_builds_both_editions_with_the_docs_lines(tmp_path, capsys):
    (game_lines, lang_g), (deck, lang_d) = [(body, lang) for lang, body in FENCE.findall(SECTION)]
    assert (lang_g, lang_d) == ("yaml", "yaml")
    new = re.search(r"After `(pnpgen new [^`]+)`", SECTION).group(1).split()[1:]
    ws = tmp_path / "mine"
    ws.mkdir()
    assert run(ws, *new, "-q") == 0
    game = ws / "data" / "kingdom"
    yaml_text = (game / "game.yaml").read_text(encoding="utf-8")
    first, *rest = game_lines.splitlines()
    assert first == "# data/kingdom/game.yaml" and len(rest) == 4
    (game / "game.yaml").write_text(re.sub(r"^title: .*\n", "\n".join(rest) + "\n", yaml_text, count=1, flags=re.M),
                                    encoding="utf-8")
    assert deck.startswith("# data/kingdom/decks/cards.yaml\n")
    (game / "decks" / "cards.yaml").write_text(deck + "  - {title: 魔女, text: 未定}\n", encoding="utf-8")
    capsys.readouterr()
    for lang, title, said in (("ja", "騎士", "王国の興亡"), ("en", "Knight", "Rise of Kingdoms")):
        assert run(ws, "build", "--game", "kingdom", "--jobs", "1", "--lang", lang) == 0, capsys.readouterr().err
        out = ws / "build" / "kingdom" / ("en" if lang == "en" else "")
        pages = PdfReader(out / "shop" / "cards.pdf").pages
        assert len(pages) == 10 and title in pages[0].extract_text(), pages[0].extract_text()  # 4 騎士 + 1 魔女
        assert said in PdfReader(out / "rulebook.pdf").pages[0].extract_text()
        err = capsys.readouterr().err
        if lang == "en":  # as the docs say: the text left in Japanese, and the draft without its English one
            assert "pieces.2.title: '魔女' is plain ja text in a file that translates others into en" in err, err
            assert "no en draft, so the rulebook sets the ja draft draft.txt" in err, err
    assert (ws / "build" / "kingdom" / "en" / "shop").is_dir()
