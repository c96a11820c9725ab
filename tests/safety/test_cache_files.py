"""Nothing a face names reaches outside the workspace, wherever the face comes from: a template, or
the build folder's cache (which can come from elsewhere: a zip, a shared drive). A face outside the
converter's subset is drawn by svglib, which opens the files an ``href`` names by itself, relative
to the folder pnpgen runs in (``../../home/…``): such a face is an error when a template makes it,
and a cached one is drawn again, never replayed."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest

from conftest import FEW_CARDS, FRONT, make_workspace, run
from pdfprobe import texts

SECRET = "SECRETTEXT"


def _outside(tmp_path: Path) -> Path:
    """A folder beside the workspace with a file no build may read: an SVG whose text is SECRET."""
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "secret.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><text id="t" x="1" y="10" '
        f'font-size="8" font-family="Helvetica">{SECRET}</text></svg>', encoding="utf-8")
    return folder


def _texts(folder: Path) -> str:
    return "\n".join(t for pdf in sorted(folder.rglob("*.pdf")) for t in texts(pdf))


@pytest.mark.parametrize("reference", [
    '<use href="../outside/secret.svg#t"/>',  # svglib draws an element of another SVG file
    '<use xmlns:xl="http://www.w3.org/1999/xlink" xl:href="../outside/secret.svg#t"/>',
    '<image xmlns="urn:other" href="../outside/secret.svg" width="40" height="20"/>',  # not the converter's <image>
])
def test_a_template_face_drawn_by_svglib_reads_no_file_outside_the_workspace(tmp_path, reference, capsys):
    _outside(tmp_path)
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    kept = (ws / "build" / "test" / "cards.pdf").read_bytes()
    capsys.readouterr()
    # <mask> is outside the converter's subset: the whole face goes to svglib
    front = ws / "templates" / "test" / "card-front.svg.j2"
    front.write_text(FRONT.replace("{% endblock %}", f'<mask id="m"/>{reference}\n{{% endblock %}}'), encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert "card-front.svg.j2" in err and "../outside/secret.svg" in err
    assert (ws / "build" / "test" / "cards.pdf").read_bytes() == kept  # the last good outputs stay
    assert SECRET not in _texts(ws / "build")


def _planted_fallbacks(ws: Path) -> int:
    """Every converted face of the build folder's cache turned into one svglib draws, naming a file
    outside, each with a header that checks (the hash of its text, as pnpgen writes it)."""
    n = 0
    for entry in sorted((ws / "build" / ".cache" / "faces").rglob("*.json")):
        head, _, text = entry.read_bytes().partition(b"\n")
        art = json.loads(text)
        art.update(fallback="mask", items=[], marks=[], svg=(
            '<svg xmlns="http://www.w3.org/2000/svg" width="63mm" height="88mm" viewBox="0 0 63 88">'
            '<use href="../outside/secret.svg#t"/></svg>'))
        body = json.dumps(art, sort_keys=True).encode()
        header = json.loads(head) | {"check": hashlib.sha256(body).hexdigest()}
        entry.write_bytes(json.dumps(header, sort_keys=True).encode() + b"\n" + body)
        n += 1
    return n


def test_a_face_planted_in_the_build_folders_cache_reads_no_file_outside(tmp_path):
    _outside(tmp_path)
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    assert _planted_fallbacks(ws) > 0
    shutil.rmtree(ws / "build" / ".cache" / "forms")  # the faces' drawn streams: drawn again from the faces
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("本文カード1}", "本文カード一}"), encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    assert SECRET not in _texts(ws / "build")
    cold = tmp_path / "cold"  # the same workspace built without a cache: the same bytes
    shutil.copytree(ws, cold, symlinks=True, ignore=shutil.ignore_patterns("build"))
    assert run(cold, "build", "--game", "test", "--no-rulebook") == 0
    assert (ws / "build" / "test" / "cards.pdf").read_bytes() == (cold / "build" / "test" / "cards.pdf").read_bytes()


def test_a_face_drawn_by_svglib_may_hold_a_hyperlink(tmp_path):
    ws = make_workspace(tmp_path / "ws", front=FRONT.replace(
        "{% endblock %}", '<mask id="m"/><a href="https://example.com/rules"><rect width="5" height="5"/></a>\n{% endblock %}'))
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0  # (svglib never opens a link)
