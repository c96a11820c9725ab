"""An SVG that asks for another file's content: an ``<xi:include href="…"/>`` (XInclude), or an
entity its DOCTYPE declares from a file (``<!ENTITY x SYSTEM "file:///…">``, a parameter entity
too). pnpgen reads neither (nor does a browser), and the face printed without it, unsaid: the
XInclude was passed over as a foreign element, the entity dropped. Each is one line naming the
template line that wrote it (or the picture), exit 2, the last good outputs kept and nothing read.
An entity declared with its own text, as Illustrator writes them, still prints."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import FEW_CARDS, FRONT, make_workspace, run
from pdfprobe import texts

SECRET = "SECRETTEXT"
FONT = 'font-family="BIZUDPGothic-Regular" font-size="5"'


def _secret(tmp_path: Path) -> Path:
    path = tmp_path / "outside" / "secret.txt"
    path.parent.mkdir()
    path.write_text(SECRET, encoding="utf-8")
    return path


def _whole_svg(doctype: str, body: str) -> str:
    """A front template that is a whole SVG document (a DOCTYPE comes before its root), line 2 its DOCTYPE."""
    return ('<?xml version="1.0"?>\n' + doctype + '\n<svg xmlns="http://www.w3.org/2000/svg" '
            'width="{{ w + 2 * bleed }}mm" height="{{ h + 2 * bleed }}mm" '
            'viewBox="{{ -bleed }} {{ -bleed }} {{ w + 2 * bleed }} {{ h + 2 * bleed }}">\n'
            '<rect x="{{ -bleed }}" y="{{ -bleed }}" width="{{ w + 2 * bleed }}" height="{{ h + 2 * bleed }}" fill="#ffcc00"/>\n'
            f'<text x="5" y="20" {FONT}>{body}</text>\n</svg>\n')


def _built(tmp_path: Path) -> tuple[Path, bytes]:
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    return ws, (ws / "build" / "test" / "cards.pdf").read_bytes()


def _refused(ws: Path, kept: bytes, capsys, line: int) -> str:
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    assert err.startswith(f"pnpgen: error: templates/test/card-front.svg.j2:{line}: "), err
    assert "never reads" in err
    assert (ws / "build" / "test" / "cards.pdf").read_bytes() == kept  # the last good outputs stay
    assert SECRET not in "\n".join(t for pdf in sorted((ws / "build").rglob("*.pdf")) for t in texts(pdf))
    return err


@pytest.mark.parametrize("include", [
    '<xi:include xmlns:xi="http://www.w3.org/2001/XInclude" href="{secret}" parse="text"/>',
    '<g xmlns:xi="http://www.w3.org/2003/XInclude"><xi:include href="{secret}" parse="text"/></g>',
    '<xi:include xmlns:xi="http://www.w3.org/2001/XInclude" href="{secret}"><xi:fallback>'
    '<rect width="5" height="5"/></xi:fallback></xi:include>',
])
def test_an_xinclude_in_a_template_is_refused_at_its_line(tmp_path, capsys, include):
    secret = _secret(tmp_path)
    ws, kept = _built(tmp_path)
    (ws / "templates" / "test" / "card-front.svg.j2").write_text(
        FRONT.replace("{% endblock %}", include.format(secret=secret) + "\n{% endblock %}"), encoding="utf-8")
    err = _refused(ws, kept, capsys, line=6)
    assert "<xi:include href=" in err and "is an XInclude" in err


@pytest.mark.parametrize(("doctype", "body"), [
    ('<!DOCTYPE svg [ <!ENTITY x SYSTEM "file://{secret}"> ]>', "&x;"),  # used
    ('<!DOCTYPE svg [ <!ENTITY x SYSTEM "file://{secret}"> ]>', "plain"),  # declared only
    ('<!DOCTYPE svg [ <!ENTITY % p SYSTEM "file://{secret}"> %p; ]>', "plain"),  # a parameter entity
])
def test_an_entity_from_a_file_is_refused_at_the_doctype_line(tmp_path, capsys, doctype, body):
    secret = _secret(tmp_path)
    ws, kept = _built(tmp_path)
    (ws / "templates" / "test" / "card-front.svg.j2").write_text(
        _whole_svg(doctype.format(secret=secret), body), encoding="utf-8")
    err = _refused(ws, kept, capsys, line=2)
    assert "its DOCTYPE declares the entity" in err and "secret.txt" in err


def test_an_entity_with_its_own_text_still_prints(tmp_path):
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS,
                        front=_whole_svg('<!DOCTYPE svg [ <!ENTITY title "ENTITYTEXT"> ]>', "&title;"))
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    assert any("ENTITYTEXT" in t for t in texts(ws / "build" / "test" / "cards.pdf"))


def test_an_xinclude_in_an_svg_picture_is_refused_naming_it(tmp_path, capsys):
    secret = _secret(tmp_path)
    ws, kept = _built(tmp_path)
    (ws / "data" / "test" / "art").mkdir()
    (ws / "data" / "test" / "art" / "a.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xi="http://www.w3.org/2001/XInclude" viewBox="0 0 10 10">\n'
        f'<rect width="10" height="10" fill="#00f"/>\n<xi:include href="{secret}" parse="text"/>\n</svg>\n', encoding="utf-8")
    (ws / "templates" / "test" / "card-front.svg.j2").write_text(
        FRONT.replace("{% endblock %}", '{{ image("a.svg", 5, 5, 20, 20) }}\n{% endblock %}'), encoding="utf-8")
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    assert "a.svg" in err and "<xi:include href=" in err and "line 3 of the SVG" in err, err
    assert (ws / "build" / "test" / "cards.pdf").read_bytes() == kept
