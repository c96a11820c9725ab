"""The build engine: incremental rebuilds, the cache, worker processes, interrupted builds, watch."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from pypdf import PdfReader

from conftest import child_env, ctrl_c_as_in_a_terminal, make_workspace, run
from pdfprobe import texts
from pnpgen.engine import transaction
from pnpgen.engine.run import BOOK_REDRAWN

OUT_FILES = {"cards.pdf", "shop/cards.pdf", "shop/cards-unique.pdf", "test-all.pdf", "manifest.json",
             "rulebook.pdf", "rulebook-booklet.pdf", "proof.txt"}


def _snapshot(out: Path) -> dict[str, tuple[bytes, int]]:
    return {str(p.relative_to(out)): (p.read_bytes(), p.stat().st_mtime_ns)
            for p in out.rglob("*") if p.is_file() and ".cache" not in p.parts and ".history" not in p.parts
            and p.name not in (".pnpgen.lock", ".pnpgen-output")}  # the history records when each version was built


def _set_count(ws: Path, name: str, count: int) -> None:
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    text = deck.read_text(encoding="utf-8")
    text = text.replace(f"{{name: {name}, text: 本文{name}}}", f"{{name: {name}, text: 本文{name}, count: {count}}}")
    deck.write_text(text, encoding="utf-8")


def _watch(workspace: Path, builds: int, timeout: float) -> list[int]:
    """``pnpgen watch`` of the test game on a thread until it has built ``builds`` times: its exit
    status in a list, empty when it still waited for a save after ``timeout`` seconds."""
    done: list[int] = []
    watcher = threading.Thread(target=lambda: done.append(run(
        workspace, "watch", "--game", "test", "--no-rulebook", "--max-builds", str(builds), "--jobs", "1")), daemon=True)
    watcher.start()
    watcher.join(timeout)
    return done


def test_noop_build_rewrites_nothing_and_says_up_to_date(drafted, capsys):
    """Nothing changed: nothing written, and the warnings of the build that made the files said
    again (as cargo does), so a designer who builds again to read them still sees them."""
    workspace = drafted
    _set_count(workspace, "カード1", 30)  # the draft's count of the cards no longer the data's: a warning
    capsys.readouterr()
    assert run(workspace, "build", "--game", "test") == 0
    warned = [line for line in capsys.readouterr().err.splitlines() if line.startswith("pnpgen: warning:")]
    assert any("differs" in w for w in warned), warned
    out = workspace / "build" / "test"
    before = _snapshot(out)
    assert OUT_FILES <= set(before)
    time.sleep(0.01)
    assert run(workspace, "build", "--game", "test") == 0
    said = capsys.readouterr()
    assert "test: up to date" in said.out
    assert said.err.splitlines() == warned
    assert _snapshot(out) == before  # same bytes, same mtimes


def test_a_noop_build_checks_its_files_without_a_pool_of_threads_and_a_changed_file_is_still_seen(
        tmp_path, capsys, monkeypatch):
    """Cache.up_to_date checked the files a game wrote on a pool of threads on every no-op build,
    though each was known by its stamp and none was read (``hashed`` hashes a few small files on
    the build's own thread). No pool now; and a file changed since is still read and found out."""
    from pnpgen.engine import fingerprint

    ws = make_workspace(tmp_path / "ws")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    out = ws / "build" / "test"
    before = _snapshot(out)
    pools = []

    import concurrent.futures

    class Counted(concurrent.futures.ThreadPoolExecutor):
        def __init__(self, *args, **kwargs):
            pools.append(1)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(concurrent.futures, "ThreadPoolExecutor", Counted)  # (fingerprint imports it when it hashes on threads)
    monkeypatch.setattr(fingerprint.os, "cpu_count", lambda: 4)  # (on a one-core machine none is ever started)
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    assert "test: up to date" in capsys.readouterr().out
    assert pools == [] and _snapshot(out) == before
    shop = out / "shop" / "cards.pdf"
    shop.write_bytes(shop.read_bytes().replace(b"%%EOF", b"%%EOF\n% changed"))  # a file changed since it was written
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    assert "up to date" not in capsys.readouterr().out
    assert (out / "shop" / "cards.pdf").read_bytes() == before["shop/cards.pdf"][0]  # written again as it was


def test_count_change_rebuilds_exactly_the_deck_the_all_in_one_manifest_and_rulebook(drafted, capsys):
    workspace = drafted
    deck2 = workspace / "data" / "test" / "decks" / "tokens.yaml"
    deck2.write_text((workspace / "data" / "test" / "decks" / "cards.yaml").read_text(encoding="utf-8")
                     .replace("name: テストカード", "name: 別デッキ"), encoding="utf-8")
    assert run(workspace, "build", "--game", "test") == 0
    out = workspace / "build" / "test"
    before = _snapshot(out)
    _set_count(workspace, "カード3", 4)
    capsys.readouterr()
    assert run(workspace, "build", "--game", "test") == 0
    said = capsys.readouterr().out
    after = _snapshot(out)
    changed = {rel for rel in after if after[rel] != before.get(rel)}
    # proof.txt too: the draft says 11 cards, the data now 14 — the proofing report says so
    assert changed == {"cards.pdf", "shop/cards.pdf", "shop/cards-unique.pdf", "shop/order.csv", "test-all.pdf",
                       "manifest.json", "rulebook.pdf", "rulebook-booklet.pdf", "proof.txt", "reprint.pdf", "reprint.txt"}
    for rel in ("tokens.pdf", "shop/tokens.pdf", "shop/tokens-unique.pdf"):
        assert after[rel] == before[rel]  # untouched: same bytes and mtime
    report = json.loads((out / "manifest.json").read_text(encoding="utf-8"))["changes"]
    # the components page prints the deck's total: the book changed on paper too (trial85)
    assert report == ["cards: 11 → 14 (+3 カード3); reprint cards.pdf: sheets 1–2 (pages 1–4)", BOOK_REDRAWN]
    assert "changed: cards: 11 → 14 (+3 カード3)" in said


def test_change_report_names_added_removed_and_edited_pieces(built_workspace):
    workspace = built_workspace  # built with --no-rulebook
    deck = workspace / "data" / "test" / "decks" / "cards.yaml"
    text = deck.read_text(encoding="utf-8")
    text = text.replace("  - {name: カード11, text: 本文カード11}\n", "")
    text = text.replace("text: 本文カード2}", "text: 書き直した本文}")
    text += "  - {name: 新カード, text: 新しい, count: 2}\n"
    deck.write_text(text, encoding="utf-8")
    assert run(workspace, "build", "--game", "test", "--no-rulebook") == 0
    report = json.loads((workspace / "build" / "test" / "manifest.json").read_text(encoding="utf-8"))["changes"]
    assert len(report) == 1
    line = report[0]
    assert line.startswith("cards: 11 → 12 (")
    assert "カード2: text" in line and "-1 カード11 (removed)" in line
    # the new piece takes number 11, the removed one's place: the report names it as added
    assert "+2 新カード (new)" in line


def test_a_name_fixed_in_place_is_that_piece_edited_not_one_removed_and_one_added(built_workspace, capsys):
    """American trial: a typo fixed in a card's title was reported as one card removed and
    another added; a piece whose name alone changed, at its place, is that piece's name edited
    (in the build's report, its reprint and pnpgen diff)."""
    deck = built_workspace / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("{name: カード3,", "{name: カード三,"), encoding="utf-8")
    assert run(built_workspace, "build", "--game", "test", "--no-rulebook") == 0
    manifest = json.loads((built_workspace / "build" / "test" / "manifest.json").read_text(encoding="utf-8"))
    assert len(manifest["changes"]) == 1 and "(カード三: name" in manifest["changes"][0], manifest["changes"]
    assert "(new)" not in manifest["changes"][0] and "(removed)" not in manifest["changes"][0]
    reprint = (built_workspace / "build" / "test" / "reprint.txt").read_text(encoding="utf-8")
    assert "1 × カード三" in reprint and "1 × カード3（古い版）" in reprint and "削除" not in reprint, reprint
    capsys.readouterr()
    assert run(built_workspace, "diff", "--game", "test", "--format", "json") == 0
    cards = json.loads(capsys.readouterr().out)["decks"]["cards"]
    assert cards["added"] == [] and cards["removed"] == []
    assert cards["fields"] == [{"piece": "カード三", "field": "name", "old": "カード3", "new": "カード三"}]


def _many_games(root: Path) -> Path:
    ws = make_workspace(root)
    _set_count(ws, "カード1", 30)
    for n in (2, 3):
        shutil.copytree(ws / "data" / "test", ws / "data" / f"test{n}")
        shutil.copytree(ws / "templates" / "test", ws / "templates" / f"test{n}")
    # a face per copy: the template reads piece.copy
    front = ws / "templates" / "test3" / "card-front.svg.j2"
    front.write_text(front.read_text(encoding="utf-8").replace("piece.name, 5, 5", "piece.name ~ piece.copy, 5, 5"),
                     encoding="utf-8")
    return ws


def test_jobs_1_and_jobs_2_give_byte_identical_files(tmp_path):
    ws = _many_games(tmp_path / "ws")
    outs = []
    for jobs in ("1", "2"):
        out = tmp_path / f"out{jobs}"
        assert run(ws, "build", "--all", "--out", str(out), "--jobs", jobs, "--no-rulebook") == 0
        outs.append({k: v[0] for k, v in _snapshot(out).items()})
    assert outs[0] == outs[1]
    assert len(outs[0]) == 3 * 6


def test_a_face_used_60_times_is_one_form_xobject(workspace):
    _set_count(workspace, "カード1", 60)
    assert run(workspace, "build", "--game", "test", "--no-rulebook") == 0
    from pdfprobe import form_uses

    uses = form_uses(PdfReader(workspace / "build" / "test" / "shop" / "cards.pdf"))
    assert sorted(uses.values()).count(60) == 2  # カード1's front and its back, each one form placed 60 times
    assert len(uses) == 2 * 11


def test_copy_dependent_template_draws_one_face_per_copy(tmp_path):
    ws = _many_games(tmp_path / "ws")
    assert run(ws, "build", "--game", "test3", "--no-rulebook") == 0
    m = json.loads((ws / "build" / "test3" / "manifest.json").read_text(encoding="utf-8"))
    deck = m["decks"][0]
    assert deck["count"] == 40 and deck["faces"] == 30 + 10 + 11  # 30 copies of カード1 differ; backs per piece
    text = "".join(texts(ws / "build" / "test3" / "cards.pdf"))
    assert "カード130" in text and "カード11" in text


def test_failure_mid_write_leaves_previous_files_and_no_temporary_file(built_workspace, monkeypatch):
    workspace = built_workspace  # built with --no-rulebook
    out = workspace / "build" / "test"
    before = _snapshot(out)
    _set_count(workspace, "カード3", 5)
    import pnpgen.engine.output as output

    real = os.replace
    calls = []

    def flaky(src, dst):
        if threading.current_thread() is not threading.main_thread():
            return real(src, dst)  # a cache entry written beside the build: Ctrl-C reaches the main thread
        calls.append(dst)
        if len(calls) == 1:
            raise KeyboardInterrupt  # the designer presses Ctrl-C while files are renamed
        return real(src, dst)

    monkeypatch.setattr(output.os, "replace", flaky)
    assert run(workspace, "build", "--game", "test", "--no-rulebook") == 130  # as the CLI exits on Ctrl-C
    monkeypatch.setattr(output.os, "replace", real)
    assert _snapshot(out) == before
    assert not [p for p in (workspace / "build").rglob("*") if p.name.endswith(".pnpgen-tmp")]


def _paused_build(workspace: Path) -> subprocess.Popen:
    """A build of a changed count, stopped by the transaction's test hook once every new file is
    staged and before the commit (no guessing how long a build takes)."""
    env = child_env(**{transaction.PAUSE_ENV: "120"})
    proc = subprocess.Popen([sys.executable, "-u", "-m", "pnpgen", "build", "--game", "test", "--no-rulebook",
                             "--jobs", "1"], cwd=workspace, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=ctrl_c_as_in_a_terminal)
    assert proc.stderr is not None
    line = proc.stderr.readline()
    assert transaction.PAUSE_ENV.encode() in line, line + proc.stderr.read()
    return proc


def _staged(root: Path) -> list[Path]:
    staging = root / transaction.STAGING
    return sorted(staging.iterdir()) if staging.is_dir() else []


def test_ctrl_c_before_the_commit_leaves_the_old_files_and_nothing_staged(built_workspace):
    workspace = built_workspace  # built with --no-rulebook
    root = workspace / "build"
    out = root / "test"
    before = _snapshot(out)
    _set_count(workspace, "カード3", 5)
    proc = _paused_build(workspace)
    assert _staged(root)  # the new bytes are on disk beside the old files
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and b"Traceback" not in err, err
    assert _snapshot(out) == before  # every old file, same bytes, same mtime
    assert _staged(root) == [] and not (root / transaction.JOURNAL).exists()


def test_killed_build_leaves_old_files_and_the_next_build_clears_what_it_staged(built_workspace):
    workspace = built_workspace  # built with --no-rulebook
    root = workspace / "build"
    out = root / "test"
    before = _snapshot(out)
    stray = out / ".cards.pdf.abc123.pnpgen-tmp"
    stray.write_bytes(b"half a PDF")  # what an older pnpgen killed between write and rename left
    marker_tmp = root / ".pnpgen-output.1f2e-7f00aa.pnpgen-tmp"  # a build killed as it marked the folder
    marker_tmp.write_bytes(b"pnpgen")
    mine = root / "mine.pnpgen-tmp"  # the designer's own file beside the outputs: not pnpgen's temporary
    mine.write_bytes(b"mine")
    also_mine = out / "notes.pnpgen-tmp"  # and one among the game's outputs, named like no temporary of pnpgen's
    also_mine.write_bytes(b"mine")
    _set_count(workspace, "カード3", 5)
    proc = _paused_build(workspace)
    proc.kill()  # kill -9: no handler runs, the staged files stay
    proc.communicate(timeout=60)
    assert _staged(root) and not (root / transaction.JOURNAL).exists()
    assert {k: v for k, v in _snapshot(out).items() if k not in (stray.name, also_mine.name)} == before
    theirs = root / "notes" / ".draft.pnpgen-tmp"  # not pnpgen's folder: --out may be any folder
    theirs.parent.mkdir()
    theirs.write_bytes(b"someone else's")
    assert run(workspace, "build", "--game", "test", "--no-rulebook") == 0
    assert _staged(root) == [] and not stray.exists() and theirs.exists()
    assert not marker_tmp.exists() and mine.exists() and also_mine.exists()
    assert _snapshot(out)["cards.pdf"][0] != before["cards.pdf"][0]  # and this build wrote the new count


def test_altered_cache_entries_are_detected_and_rebuilt(built_workspace, capsys):
    workspace = built_workspace  # built with --no-rulebook
    out = workspace / "build" / "test"
    good = _snapshot(out)
    cache = workspace / "build" / ".cache"
    state = cache / "test.json"
    state.write_text(state.read_text(encoding="utf-8").replace('"inputs": "', '"inputs": "0'), encoding="utf-8")
    faces = sorted((cache / "faces").rglob("*.json"))
    assert faces
    for f in faces:  # tampered art: valid JSON, wrong content
        f.write_text(f.read_text(encoding="utf-8").replace('"key"', '"kee"', 1), encoding="utf-8")
    (out / "cards.pdf").write_bytes(b"not the file we wrote")
    capsys.readouterr()
    assert run(workspace, "build", "--game", "test", "--no-rulebook") == 0
    assert "up to date" not in capsys.readouterr().out
    assert {k: v[0] for k, v in _snapshot(out).items()} == {k: v[0] for k, v in good.items()}
    assert run(workspace, "build", "--game", "test", "--no-rulebook") == 0  # and the cache is good again
    assert "test: up to date" in capsys.readouterr().out


def test_watch_survives_a_broken_save_and_rebuilds_after_the_fix(workspace, monkeypatch, capsys):
    """``pnpgen watch`` in this process (its saves made as each build ends; the watcher runs
    before the first build starts): a broken save is one error line, the last good files stay,
    the fix is built, and the watcher ends normally after its three builds."""

    from pnpgen import commands

    deck = workspace / "data" / "test" / "decks" / "cards.yaml"
    good = deck.read_text(encoding="utf-8")
    real = commands.build
    codes: list[int | None] = []
    kept: list[bool] = []

    def build_then_save(ws, args, warm=None, heading=None):
        code = None
        try:
            code = real(ws, args, warm, heading=heading)
            return code
        finally:
            codes.append(code)
            if len(codes) == 1:  # the designer saves a broken deck
                deck.write_text(good + "  - {name: [broken\n", encoding="utf-8")
            elif len(codes) == 2:  # …sees the error, and fixes it
                kept.append((workspace / "build" / "test" / "cards.pdf").is_file())
                deck.write_text(good.replace("カード1,", "直したカード,"), encoding="utf-8")

    monkeypatch.setattr(commands, "build", build_then_save)
    done = _watch(workspace, builds=3, timeout=120)  # a watcher that missed a save would wait for another one for ever
    said = capsys.readouterr()
    assert done == [0], said
    assert len(codes) == 3 and codes[0] == codes[2] == 0 and codes[1] != 0, codes
    assert kept == [True]  # the last good files stayed through the broken save
    assert "pnpgen: error: " in said.out + said.err and "Traceback" not in said.out + said.err
    # the save that mends it says so, as serve does (trial20: watch said nothing of it)
    assert said.out.count("test: fixed, built again (build/test)") == 1, said.out
    # …before the build's summary and change lines, as serve says it (fixesK: it came after them)
    lines = said.out.splitlines()
    fixed = lines.index("test: fixed, built again (build/test)")
    assert lines[fixed + 1].startswith("test: ") and " in build/test, " in lines[fixed + 1], lines
    assert any(line.startswith("  changed: ") for line in lines[fixed + 2:]), lines
    text = "".join(texts(workspace / "build" / "test" / "cards.pdf"))
    assert "直したカード" in text


def test_home_sheets_slug_is_inside_the_printable_area_with_scale_bars_and_stamp(built_workspace):
    workspace = built_workspace  # built with --no-rulebook
    from pdfprobe import stroked_lines, text_positions

    reader = PdfReader(workspace / "build" / "test" / "cards.pdf")
    margin = 5.0
    for page in reader.pages:
        w = float(page.mediabox.width) * 25.4 / 72
        h = float(page.mediabox.height) * 25.4 / 72
        texts = text_positions(page)
        eps = 0.001  # a thousandth of a millimetre: points are written to six decimals, so 5 mm reads 4.99999997
        for text, x, y in texts:
            assert margin - eps <= x <= w - margin + eps and margin - eps <= y <= h - margin + eps, (text, x, y)
        joined = " ".join(t for t, _, _ in texts)
        assert "100 %で印刷" in joined and "両面・長辺とじ" in joined
        assert "test 草案3 2026-11-30 #" in joined
        lengths = sorted(round(abs(x2 - x1), 2) for x1, y1, x2, y2 in stroked_lines(reader, page) if y1 == y2)
        assert 10.0 in lengths and 25.4 in lengths  # the 10 mm and 1 in scale bars


def test_one_sided_sheets_say_so_and_the_stamp_can_be_turned_off(workspace):
    from pdfprobe import text_positions

    (workspace / "data" / "test" / "game.yaml").write_text(
        (workspace / "data" / "test" / "game.yaml").read_text(encoding="utf-8") + "stamp: false\n", encoding="utf-8")
    deck = workspace / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("back: card-back.svg.j2\n", ""), encoding="utf-8")
    assert run(workspace, "build", "--game", "test", "--no-rulebook") == 0
    page = PdfReader(workspace / "build" / "test" / "cards.pdf").pages[0]
    joined = " ".join(t for t, _, _ in text_positions(page))
    assert "片面" in joined and "両面" not in joined and "#" not in joined


def test_a_fresh_process_rebuilds_from_the_cache(workspace):
    """Faces, renders and nesting come from build/.cache in a new process: text still draws.
    (The first build, which only fills the cache, runs in this process.)"""
    assert run(workspace, "build", "--game", "test", "--jobs", "1") == 0
    _set_count(workspace, "カード2", 3)
    again = subprocess.run([sys.executable, "-m", "pnpgen", "build", "--game", "test", "--jobs", "1"], cwd=workspace,
                           env=child_env(), capture_output=True, text=True, timeout=120)
    assert again.returncode == 0, again.stderr
    assert "changed: cards: 11 → 13 (+2 カード2)" in again.stdout
    text = "".join(texts(workspace / "build" / "test" / "cards.pdf"))
    assert text.count("本文カード2") == 3


def test_incremental_builds_equal_cold_builds_after_every_kind_of_edit(built_workspace, tmp_path):
    """Whatever the designer edits, what the cache reuses never shows: after each edit the
    incremental build writes the same files as a build from nothing."""
    workspace = built_workspace  # built with --no-rulebook
    game = workspace / "data" / "test" / "game.yaml"
    front = workspace / "templates" / "test" / "card-front.svg.j2"
    edits = [
        lambda: _set_count(workspace, "カード4", 2),
        lambda: game.write_text(game.read_text(encoding="utf-8").replace("#cc3333", "#3366cc"), encoding="utf-8"),
        lambda: front.write_text(front.read_text(encoding="utf-8").replace("size=9,", "size=8,"), encoding="utf-8"),
        lambda: game.write_text(game.read_text(encoding="utf-8").replace("draft: 3", "draft: 4"), encoding="utf-8"),
    ]
    for n, edit in enumerate(edits):
        edit()
        assert run(workspace, "build", "--game", "test", "--no-rulebook") == 0
        cold = tmp_path / f"cold{n}"
        assert run(workspace, "build", "--game", "test", "--no-rulebook", "--out", str(cold)) == 0
        warm = {k: v[0] for k, v in _snapshot(workspace / "build" / "test").items()
                if k != "manifest.json" and not k.startswith("reprint.")}  # a cold build has nothing to reprint
        fresh = {k: v[0] for k, v in _snapshot(cold / "test").items() if k != "manifest.json"}
        assert warm == fresh, n


def test_cache_records_of_another_pnpgen_are_never_reused(workspace, monkeypatch):
    """Converted faces are stamped with pnpgen's code: an upgrade (or an edit to pnpgen under the
    same version number) converts every face again instead of reusing what the old code made."""
    from pnpgen.engine import cache
    from pnpgen.faces import convert

    converted: list[str] = []
    real = convert.convert_face
    monkeypatch.setattr(convert, "convert_face", lambda job: converted.append(job[1]) or real(job))
    assert run(workspace, "build", "--game", "test", "--no-rulebook") == 0
    faces = len(converted)
    assert faces == 22
    _set_count(workspace, "カード2", 2)
    assert run(workspace, "build", "--game", "test", "--no-rulebook") == 0
    assert len(converted) == faces  # same pnpgen: every face from the cache
    monkeypatch.setattr(cache, "code", lambda: "0.1.0+another")
    _set_count(workspace, "カード3", 2)
    assert run(workspace, "build", "--game", "test", "--no-rulebook") == 0
    assert len(converted) == 2 * faces


def test_templates_compile_once_per_process_and_again_when_edited(workspace, tmp_path, monkeypatch):
    """`pnpgen watch` and every later build in one process reuse compiled templates from memory,
    also into another build folder; an edited template is compiled again (Jinja's checksum)."""
    from pnpgen.faces import templates

    monkeypatch.setenv("PNPGEN_CACHE", str(tmp_path / "machine-cache"))  # nothing compiled by earlier tests
    monkeypatch.setattr("pnpgen.faces.compiled.PROCESS_COMPILED", {})
    compiled: list[str] = []
    real = templates.FaceEnvironment.compile
    monkeypatch.setattr(templates.FaceEnvironment, "compile",
                        lambda self, source, name=None, *a, **k: compiled.append(name) or real(self, source, name, *a, **k))
    assert run(workspace, "build", "--game", "test", "--no-rulebook", "--out", str(tmp_path / "a")) == 0
    assert run(workspace, "build", "--game", "test", "--no-rulebook", "--out", str(tmp_path / "b")) == 0
    assert len(compiled) == len(set(compiled)) > 0  # each template once, in the first build only
    assert not (tmp_path / "b" / ".cache" / "jinja").exists()  # compiled code is never kept in a workspace
    monkeypatch.setattr("pnpgen.faces.compiled.PROCESS_COMPILED", {})  # as a new process: from the machine's cache
    assert run(workspace, "build", "--game", "test", "--no-rulebook", "--out", str(tmp_path / "c")) == 0
    assert len(compiled) == len(set(compiled))
    front = workspace / "templates" / "test" / "card-front.svg.j2"
    front.write_text(front.read_text(encoding="utf-8").replace("size=9,", "size=8,"), encoding="utf-8")
    compiled.clear()
    assert run(workspace, "build", "--game", "test", "--no-rulebook", "--out", str(tmp_path / "b")) == 0
    assert compiled == ["test/card-front.svg.j2"]


def test_watch_builds_a_save_made_while_its_first_build_runs(workspace, monkeypatch):
    """A save made during the first build, after the build read the file, is built next: the
    watcher runs before the first build starts."""

    from pnpgen import commands

    deck = workspace / "data" / "test" / "decks" / "cards.yaml"
    real = commands.build
    calls: list[int] = []

    def build_then_save(ws, args, warm=None, heading=None):
        code = real(ws, args, warm, heading=heading)
        if not calls:  # the designer saves as the first build ends
            deck.write_text(deck.read_text(encoding="utf-8").replace("カード1,", "保存したカード,"), encoding="utf-8")
        calls.append(code)
        return code

    monkeypatch.setattr(commands, "build", build_then_save)
    done = _watch(workspace, builds=2, timeout=120)  # a watcher that missed the save would wait for another one for ever
    assert done == [0] and calls == [0, 0]
    assert "保存したカード" in "".join(texts(workspace / "build" / "test" / "cards.pdf"))


def test_watch_builds_again_when_printers_yaml_is_saved(workspace, monkeypatch, capsys):
    """printers.yaml is a file beside the watched folders: the designer who measures the duplex
    shift and saves the profile sees the backs move, without touching the data."""
    from pnpgen import commands

    profiles = workspace / "printers.yaml"
    profiles.write_text("home: {back_offset_mm: [0.0, 0.0]}\n", encoding="utf-8")
    game = workspace / "data" / "test" / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8") + "printer: home\n", encoding="utf-8")
    real = commands.build
    calls: list[int] = []
    backs: list[bytes] = []

    def build_then_measure(ws, args, warm=None, heading=None):
        code = real(ws, args, warm, heading=heading)
        calls.append(code)
        backs.append((workspace / "build" / "test" / "cards.pdf").read_bytes())
        if len(calls) == 1:  # the calibration sheet read: the printer shifts the backs 1.5 mm
            profiles.write_text("home: {back_offset_mm: [1.5, 0.0]}\n", encoding="utf-8")
        return code

    monkeypatch.setattr(commands, "build", build_then_measure)
    done = _watch(workspace, builds=2, timeout=60)  # a watcher blind to printers.yaml would wait for another save for ever
    said = capsys.readouterr()
    assert done == [0] and calls == [0, 0], said
    assert backs[0] != backs[1]  # the backs were placed again with the profile's shift
    assert "up to date" not in said.out
