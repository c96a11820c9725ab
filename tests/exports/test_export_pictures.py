"""An export lets go of each face's pictures as it is converted, and places them from their art
files when the pages are written (a thousand illustrated cards' pictures, 300 MB, were held at
once): the faces it draws hold stand-ins, its images still show the pictures, and an art file
saved again while the export writes stops it in one line, nothing written."""

from __future__ import annotations

import json
from pathlib import Path

from PIL import Image

from conftest import PICTURE_FRONT, picture_workspace, run
from pnpgen.exports import faces as export_faces
from pnpgen.exports import tts
from pnpgen.pdf.raster import STAND_IN

PIECES = "".join(f"  - {{name: 札{i}, art: {n}, count: 1}}\n" for i, n in enumerate(["a.png", "b.png"], 1))


def workspace(root: Path) -> Path:
    return picture_workspace(root, PIECES, PICTURE_FRONT, {"a.png": (200, 0, 0), "b.png": (0, 0, 200)})


def test_the_faces_an_export_draws_hold_no_picture_and_its_images_show_them(tmp_path, monkeypatch):
    ws = workspace(tmp_path / "ws")
    drawn: list = []
    real = export_faces.face_pdf

    def recording(keys, style, title, labels=None, sides=None, cut_line=False):
        drawn.extend(style.arts[k] for k in keys if k)
        return real(keys, style, title, labels, sides, cut_line)

    monkeypatch.setattr(export_faces, "face_pdf", recording)
    assert run(ws, "export", "--game", "test", "--preset", "tabletopsimulator") == 0
    pictures = [it[1] for art in drawn for it in art.items if it[0] == "image"]
    assert len(pictures) >= 2 and all(p.startswith(STAND_IN) for p in pictures)
    out = ws / "build" / "test" / "tabletopsimulator"
    sheet = Image.open(out / "cards-faces-1.png").convert("RGB")
    grid = json.loads((out / "cards.json").read_text(encoding="utf-8"))["ObjectStates"][0]["CustomDeck"]
    across, down = next((d["NumWidth"], d["NumHeight"]) for d in grid.values())
    w, h = sheet.width // across, sheet.height // down
    cells = [sheet.crop((i * w, 0, (i + 1) * w, h)) for i in range(2)]
    colours = {cell.getpixel((cell.width * 3 // 4, int(cell.height * 0.55))) for cell in cells}  # the picture's coloured part
    assert any(r > 150 and g < 60 and b < 60 for r, g, b in colours)  # a.png's red
    assert any(b > 150 and r < 60 and g < 60 for r, g, b in colours)  # b.png's blue


def test_an_art_file_saved_again_while_the_export_writes_stops_it_in_one_line(tmp_path, monkeypatch, capsys):
    ws = workspace(tmp_path / "ws")
    real = tts.deck_objects

    def saved_meanwhile(*args, **kwargs):  # the designer saves a.png again once its face is converted
        Image.new("RGB", (300, 200), (0, 200, 0)).save(ws / "data" / "test" / "art" / "a.png")
        return real(*args, **kwargs)

    monkeypatch.setattr(tts, "deck_objects", saved_meanwhile)
    assert run(ws, "export", "--game", "test", "--preset", "tabletopsimulator") == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "a.png was saved again while the export drew the faces that show it" in err[0], err
    assert not (ws / "build" / "test" / "tabletopsimulator").exists()
