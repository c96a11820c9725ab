"""docs/rulebook.md, the components list: several decks in one entry (a legacy game's sealed packs,
`◇封筒Ａ、封筒Ｂ、封筒Ｃ（５枚／８枚／６枚）`). A designer's trial (trial68) of twelve sealed envelopes found no
word of it in the docs, only `◇名前（８０枚）` a deck — the draft's packs went to 「その他の内容物」, one
proofing note each. The example builds as written: one entry, each pack counted from the data, no
note; and its English form, a total and its parts, the same."""

from __future__ import annotations

import re

from conftest import GAME_YAML, REPO, make_workspace, run
from pdfprobe import texts

RULEBOOK = (REPO / "docs" / "rulebook.md").read_text(encoding="utf-8")
(ENTRY,) = re.findall(r"```\n(◇封筒Ａ、.*?)```", RULEBOOK, re.S)
(ENGLISH,) = re.findall(r"`(- 19 Sealed cards: [^`]*)`", RULEBOOK.replace("\n", " "))
NO_ART = "fields: {art: {type: image, placeholder: false}}\n"
PACKS = [("a", "A", 5), ("b", "B", 8), ("c", "C", 6)]


def _pack(letter: str, count: int) -> str:
    return (f"name: {{ja: 封筒{letter}, en: Envelope {letter}}}\nsealed: true\n{NO_ART}"
            f"layout: {{extends: card-poker, back: {{boxes: {{deck: {{text: 封筒{letter}・開封禁止}}}}}}}}\n"
            "pieces:\n" + "".join(f"  - {{title: {{ja: 秘密{n}, en: Secret {n}}}, text: {{ja: 開封せよ, en: Open it}}}}\n" for n in range(count)))


def test_the_sealed_packs_entry_of_the_docs_counts_each_pack_from_the_data(tmp_path):
    game = GAME_YAML.replace("title: テストゲーム", "title: {ja: テストゲーム, en: Test Game}\nlanguages: [ja, en]")
    ws = make_workspace(tmp_path / "ws", game=game, deck="name: {ja: テストカード, en: Test cards}\nlayout: card-poker\n"
                        + NO_ART + "pieces:\n  - {title: {ja: 騎士, en: Knight}, text: {ja: 進む, en: Go}, count: 4}\n")
    decks = ws / "data" / "test" / "decks"
    for file, letter, count in PACKS:
        (decks / f"env-{file}.yaml").write_text(_pack(letter, count), encoding="utf-8")
    (ws / "data" / "test" / "draft.txt").write_text(
        "■■　テストゲーム　草案３\n\n■　概要\n\n　封筒を開けて遊ぶゲームです。\n\n■　コンポーネント\n\n"
        "◇テストカード（４枚）\n　山札です。\n" + ENTRY + "\n■　ゲームの終了\n\n　山札がなくなったら、ゲームが終了します。\n",
        encoding="utf-8")
    (ws / "data" / "test" / "draft.en.txt").write_text(
        "# Test Game\nDraft 3\n\n## Overview\n\nA game of sealed envelopes.\n\n## Components\n\n- 4 Test cards\n"
        + ENGLISH + "\n\n## End of the game\n\nWhen the deck runs out, the game ends.\n", encoding="utf-8")
    for lang, folder in (("ja", ws / "build" / "test"), ("en", ws / "build" / "test" / "en")):
        assert run(ws, "rulebook", "--game", "test", "--lang", lang, "-q") == 0
        proof = (folder / "proof.txt").read_text(encoding="utf-8")
        assert "封筒" not in proof and "Envelope" not in proof, proof  # every pack named, each count the data's
        book = " ".join(" ".join(t.split()) for t in texts(folder / "rulebook.pdf"))
        assert "その他の内容物" not in book and "Other contents" not in book, book
        for _, letter, count in PACKS:
            said = f"封筒{letter} {count}枚" if lang == "ja" else f"Envelope {letter} {count}"
            assert said in book, (said, book)
