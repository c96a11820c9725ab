"""The machine cache of a book's line settings is keyed by its fonts' files: a font replaced by
another of the same size, its modification time set back (``cp -p``, an unzip), is another key,
so the old line breaks are not reused."""

from __future__ import annotations

import os
import shutil

from pnpgen import fonts as fontreg
from pnpgen.rulebook.setlines import SetLines


def _key(font: str) -> str | None:
    lines = SetLines()
    lines.recall("game\0ja\0/ws", [font])
    name = lines.name
    lines.keep()
    return name


def test_a_font_replaced_with_its_size_and_time_restored_is_another_key(tmp_path, monkeypatch):
    monkeypatch.setenv("PNPGEN_CACHE", str(tmp_path / "cache"))
    fonts = tmp_path / "fonts"
    fonts.mkdir()
    font = fonts / "Body.ttf"
    shutil.copyfile(fontreg.BUNDLED / "NotoSans-Regular.ttf", font)
    fontreg.locate("Body", fonts)
    before = _key("Body")
    assert before == _key("Body")  # (the same file: the same key)
    st = font.stat()
    other = tmp_path / "other.ttf"
    data = bytearray(font.read_bytes())
    data[-1] ^= 0xFF  # another file of the very same size
    other.write_bytes(bytes(data))
    os.replace(other, font)
    os.utime(font, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert font.stat().st_size == st.st_size and font.stat().st_mtime_ns == st.st_mtime_ns
    assert _key("Body") != before
