"""The same inputs give the same bytes whatever the environment a build runs in: a build server
or a packager's sandbox sets ``SOURCE_DATE_EPOCH``, which ReportLab (setting the rulebook) reads
to date its document, even when told to write invariant files."""

from __future__ import annotations

from pypdf import PdfReader

from conftest import make_workspace, run


def test_the_rulebook_is_the_same_bytes_with_source_date_epoch_set(tmp_path, monkeypatch):
    ws = make_workspace(tmp_path / "ws", draft=True)
    assert run(ws, "rulebook", "--game", "test", "--out", str(tmp_path / "plain")) == 0
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    assert run(ws, "rulebook", "--game", "test", "--out", str(tmp_path / "dated")) == 0
    for name in ("rulebook.pdf", "rulebook-booklet.pdf"):
        plain, dated = (tmp_path / folder / "test" / name for folder in ("plain", "dated"))
        assert PdfReader(dated).metadata["/CreationDate"] == "D:20000101000000+00'00'"  # as every pnpgen file
        assert dated.read_bytes() == plain.read_bytes(), name
