"""The live preview over plain HTTP: faces, escaping, pushed rebuilds, broken saves."""

from __future__ import annotations

import base64
import html
import io
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PIL import Image

from conftest import DECK_YAML, DRAFT, ODD_EVEN_FRONT, PICTURE_DECK_YAML, PICTURE_FRONT, REPO, make_workspace, run

pytest.importorskip("starlette", reason="the preview's HTTP stack (pip install starlette uvicorn sse-starlette httpx2)")

from pnpgen.data.workspace import Workspace
from pnpgen.serve.app import make_app
from pnpgen.serve.preview import Preview

NAMES = ["カード1", "<script>alert(1)</script>", "カード3"]
NO_DRAFT = "pnpgen: warning: data/test/draft.txt: no draft text, so no rulebook was built (add the draft there, " \
    "or set draft_file in game.yaml)"


def _preview(tmp_path: Path) -> tuple[Path, Preview]:
    ws = make_workspace(tmp_path / "ws", NAMES)
    preview = Preview(Workspace(ws), "test", ws / "build")
    preview.rebuild()
    assert preview.state.error == ""
    return ws, preview


def test_the_test_client_is_made_with_the_http_client_starlette_wants():
    """Starlette's TestClient over httpx warned StarletteDeprecationWarning ("install httpx2
    instead") in every run's summary: the test extras install httpx2 (pyproject.toml), which it
    takes without a word. Imported again with every warning an error."""
    import importlib
    import warnings

    import starlette.testclient

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        importlib.reload(starlette.testclient)


def test_the_page_shows_each_distinct_face_as_a_png_and_a_script_name_as_text(tmp_path):
    from starlette.testclient import TestClient  # (httpx, anyio: 0.2 s) not at collection

    ws, preview = _preview(tmp_path)
    with TestClient(make_app(preview, "テストゲーム", watch=False), base_url="http://127.0.0.1:8765") as client:
        page = client.get("/").text
        assert page.count('class="face"') == 3  # three distinct faces (front and back each)
        assert "<script>alert(1)</script>" not in page
        assert "&lt;script&gt;alert(1)&lt;/script&gt; × 1" in page
        src = re.findall(r'<img class="front" alt="front" src="([^"]+)"', page)[0]
        png = client.get(src)
        assert png.headers["content-type"] == "image/png" and png.content[:4] == b"\x89PNG"
        state = client.get("/state.json").json()
        face = state["decks"][0]["faces"][1]
        assert face["name"] == "<script>alert(1)</script>" and face["fields"]["text"] == "本文<script>alert(1)</script>"
        assert face["where"] == "data/test/decks/cards.yaml:10:5"
        assert any(s["title"] == "cards.pdf p. 1" for s in state["sheets"])


def test_an_edit_is_pushed_and_a_broken_save_shows_its_error_and_keeps_the_faces(tmp_path):
    from starlette.testclient import TestClient  # (httpx, anyio: 0.2 s) not at collection

    ws, preview = _preview(tmp_path)
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    with TestClient(make_app(preview, "テストゲーム", watch=False), base_url="http://127.0.0.1:8765") as client:
        first = preview.state.generation
        deck.write_text(deck.read_text(encoding="utf-8").replace("name: カード3", "name: 新しい名前"), encoding="utf-8")
        preview.rebuild()  # what the watcher does on a save
        with client.stream("GET", f"/events?after={first}&limit=1") as events:
            lines = [ln for ln in events.iter_lines() if ln.startswith("data:")]
        assert json.loads(lines[0][5:]) == {"generation": first + 1, "error": "", "ended": False}
        assert "新しい名前 × 1" in client.get("/").text
        deck.write_text(deck.read_text(encoding="utf-8") + "  - {name: [broken\n", encoding="utf-8")
        preview.rebuild()
        state = client.get("/state.json").json()
        # the file named from the workspace, as the CLI names it, not from this machine's root
        assert state["error"].startswith("pnpgen: error: data/test/decks/cards.yaml:"), state["error"]
        assert "\n" not in state["error"]
        assert [f["name"] for f in state["decks"][0]["faces"]][2] == "新しい名前"  # the last good faces stay
        page = client.get("/").text
        assert '<div id="error" class="shown">pnpgen: error: ' in page and page.count('class="face"') == 3


def test_a_port_in_use_is_one_line(tmp_path, capsys):
    import socket

    from conftest import run

    ws = make_workspace(tmp_path / "ws", NAMES)
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert run(ws, "serve", "--game", "test", "--port", str(port)) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"pnpgen: error: --port: port {port} on 127.0.0.1: ") and err.count("\n") == 1


def test_a_port_whose_last_preview_just_stopped_is_free(tmp_path):
    """Ctrl-C on a preview, then ``pnpgen serve`` again: the stopped server's connections wait out
    TIME_WAIT on its port for a minute; uvicorn binds there all the same, so the check before it
    must not refuse it ('Address already in use'); a server still listening there is refused."""
    import socket

    from pnpgen.errors import InputError
    from pnpgen.serve.app import port_free

    with socket.socket() as server:
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = server.getsockname()[1]
        with pytest.raises(InputError):
            port_free(port)
        client = socket.create_connection(("127.0.0.1", port))
        served, _ = server.accept()
        served.close()  # the server's side closes first: it is the one left in TIME_WAIT
        client.close()
    port_free(port)  # only the stopped server's connection on it now


def test_pictures_asked_for_at_once_are_rasterised_one_at_a_time(tmp_path, monkeypatch):
    """PDFium is not thread-safe and the server rasterises each picture in a thread of its pool
    (a browser asks for them all at once): two renders at once once ended the preview, a trap in
    libpdfium.so. The second picture's PDFium work starts only once the first's has ended."""
    import threading

    import pypdfium2

    ws, preview = _preview(tmp_path)
    real, inside, overlapped, arrived = pypdfium2.PdfDocument, [], [], threading.Event()

    def watched_document(*args, **kwargs):
        if inside:
            overlapped.append(True)
            arrived.set()
        inside.append(True)
        try:
            arrived.wait(1.0)  # a bound, not a measurement: the other thread comes in meanwhile, or not at all
            return real(*args, **kwargs)
        finally:
            inside.pop()

    monkeypatch.setattr(pypdfium2, "PdfDocument", watched_document)
    firsts = {path: pid for pid, (path, _, _) in reversed(list(preview.pictures.items()))}  # (each file open once, then kept)
    pids = list(firsts.values())[:2]
    assert len(pids) == 2
    got: dict[str, bytes | None] = {}
    threads = [threading.Thread(target=lambda pid=pid: got.update({pid: preview.png(pid)})) for pid in pids]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not overlapped
    assert all(got[pid][:4] == b"\x89PNG" for pid in pids)


def test_the_pictures_of_one_file_open_it_once_until_a_save_changes_it(tmp_path, monkeypatch):
    """Each picture opened its PDF again, and PDFium walked the page list up to its page: 0.25 s
    a face of a 20,000-page shop file, the first screen of 10,000 faces 20 s. A file is opened
    once, for all its pictures; a save that changes it closes it, and its pictures are the new."""
    import pypdfium2

    ws, preview = _preview(tmp_path)
    real, opened = pypdfium2.PdfDocument, []
    monkeypatch.setattr(pypdfium2, "PdfDocument", lambda source, *a, **k: opened.append(source) or real(source, *a, **k))
    faces = preview.state.decks[0]["faces"]
    pids = [f[side].removeprefix("/picture/").removesuffix(".png") for f in faces for side in ("front", "back")]
    pngs = [preview.png(pid) for pid in pids]
    assert all(png[:4] == b"\x89PNG" for png in pngs) and len(set(pngs)) == 6  # each back names its card
    assert len(opened) == 1 and len(preview.documents) == 1
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("本文カード3", "書き直した"), encoding="utf-8")
    assert preview.rebuild().error == ""
    assert len(preview.documents) == 0  # the file this build replaced: closed
    opened.clear()
    again = preview.state.decks[0]["faces"][2]["front"].removeprefix("/picture/").removesuffix(".png")
    assert again != pids[4] and preview.png(again) not in (None, pngs[4]) and len(opened) == 1


def test_a_pane_shows_its_faces_a_page_at_a_time(tmp_path):
    """10,000 faces in one page were 3 MB of HTML and 12,000 figures drawn twice, some 200
    pictures asked for near the view: the first screen showed after 23 s. A pane shows PER_PAGE
    faces, a pager to the rest (``?per_page=`` another number); the script draws the other pages."""
    from starlette.testclient import TestClient

    from pnpgen.serve.page import PER_PAGE

    ws, preview = _preview(tmp_path)
    with TestClient(make_app(preview, "テストゲーム", watch=False), base_url="http://127.0.0.1:8765") as client:
        whole = client.get("/").text
        assert whole.count('class="face"') == 3 and 'class="pager"' not in whole and f"PER = {PER_PAGE};" in whole
        paged = client.get("/?per_page=2").text
        assert paged.count('class="face"') == 2 and "PER = 2;" in paged
        # each page offered by the first and last face on it, the data's text escaped (sheet44: a big
        # game's last deck or rule sheet, pages away, was found by guessing); the pager above the
        # faces and under them, the next page a click away at the end of this one
        assert re.findall(r"<option[^>]*>([^<]*)</option>", paged)[:2] == \
            ["1–2 (カード1 – &lt;script&gt;alert(1)&lt;/script&gt;)", "3 (カード3)"], paged
        assert paged.count("</select> of 3 ") == 2 and "<script>alert" not in paged
        pane = paged.split('id="deck-0"')[1].split("</section>")[0]
        assert pane.startswith(' data-id="cards"><nav class="pager">') and pane.endswith("</nav>"), pane
        assert "カード1 × 1" in paged and "カード3 × 1" not in paged
        for wrong in ("0", "abc", "-1", "99999", "１", "9" * 5000, "0" * 5000):  # (int() takes no 5,000 digits)
            assert f"PER = {PER_PAGE};" in client.get("/", params={"per_page": wrong}).text, wrong


def test_a_preview_started_on_broken_data_shows_the_last_good_build_under_the_error(tmp_path):
    """``pnpgen serve`` the morning after a half-finished edit: the page was empty. It shows the
    faces and sheets of the last good build still in build/, with the error over them, and the
    data's own faces once the file is fixed."""
    from starlette.testclient import TestClient  # (httpx, anyio: 0.2 s) not at collection

    from conftest import run
    from pnpgen.serve.page import STALE
    from pnpgen.serve.preview import UNKNOWN_WHERE

    ws = make_workspace(tmp_path / "ws", NAMES)
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    good = deck.read_text(encoding="utf-8")
    deck.write_text(good + "  - {name: [broken\n", encoding="utf-8")
    preview = Preview(Workspace(ws), "test", ws / "build")
    state = preview.rebuild()
    assert state.error.startswith("pnpgen: error: data/test/decks/cards.yaml:"), state.error
    assert [f["name"] for f in state.decks[0]["faces"]] == NAMES
    assert state.decks[0]["faces"][0]["where"] == UNKNOWN_WHERE and state.decks[0]["faces"][0]["fields"] == {}
    assert any(s["title"] == "cards.pdf p. 1" for s in state.sheets) and preview.built_title == "テストゲーム"
    with TestClient(make_app(preview, "テストゲーム", watch=False), base_url="http://127.0.0.1:8765") as client:
        page = client.get("/").text
        assert '<div id="error" class="shown">pnpgen: error: data/test/decks/cards.yaml:' in page
        assert STALE in page and page.count('class="face"') == 3
        src = re.findall(r'<img class="front" alt="front" src="([^"]+)"', page)[0]
        png = client.get(src)
        assert png.status_code == 200 and png.content[:4] == b"\x89PNG"
        deck.write_text(good, encoding="utf-8")
        preview.rebuild()  # the designer fixes the line and saves
        state = client.get("/state.json").json()
        assert state["error"] == "" and state["decks"][0]["faces"][0]["where"] == "data/test/decks/cards.yaml:9:5"
        assert STALE not in client.get("/").text.split("<script>")[0]


def test_a_preview_with_no_good_build_anywhere_shows_the_error_and_says_so(tmp_path):
    from starlette.testclient import TestClient  # (httpx, anyio: 0.2 s) not at collection

    from pnpgen.serve.page import NOTHING

    ws = make_workspace(tmp_path / "ws", NAMES)
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8") + "  - {name: [broken\n", encoding="utf-8")
    preview = Preview(Workspace(ws), "test", ws / "build")
    state = preview.rebuild()
    assert not state.decks and not state.sheets
    with TestClient(make_app(preview, "test", watch=False), base_url="http://127.0.0.1:8765") as client:
        page = client.get("/").text
        error = re.findall(r'<div id="error" class="shown">([^<]*)</div>', page)
        line = len(deck.read_text(encoding="utf-8").splitlines())  # the broken one, the last
        assert error and error[0].startswith(f"pnpgen: error: data/test/decks/cards.yaml:{line}:12: YAML syntax error"), error
        assert "expected" in error[0]  # what would be right
        assert NOTHING in page.split("<script>")[0]


def test_the_watcher_stopping_by_itself_is_said_on_the_page(tmp_path, monkeypatch):
    """watchfiles stops by itself at a name not UTF-8 made while the preview runs: the page said
    nothing and never updated again (and Ctrl-C printed the traceback); it shows the error, the
    last good faces under it."""
    import asyncio

    import watchfiles

    from pnpgen.serve import app

    async def stops(*folders, **options):
        raise RuntimeError('Unable to decode path "data/test/\\x90V" to string')
        yield set()  # (an async generator, as awatch is)

    monkeypatch.setattr(watchfiles, "awatch", stops)
    _, preview = _preview(tmp_path)
    before = preview.state.generation
    asyncio.run(app._watch(preview))
    assert preview.state.generation == before + 1 and len(preview.state.decks[0]["faces"]) == 3
    assert preview.state.error.startswith("pnpgen: error: the watcher stopped: Unable to decode path"), preview.state.error


def _served_saves(tmp_path, monkeypatch, capsys, texts):
    """serve's watcher given the deck file's saves ``texts(good)`` (each written, then reported
    as a change): the preview after them and what the terminal said."""
    import asyncio

    import watchfiles

    from pnpgen.serve import app

    ws, preview = _preview(tmp_path)
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    good = deck.read_text(encoding="utf-8")

    async def saves(*folders, **options):
        for text in texts(good):
            deck.write_text(text, encoding="utf-8")
            yield {(watchfiles.Change.modified, str(deck))}

    monkeypatch.setattr(watchfiles, "awatch", saves)
    capsys.readouterr()
    asyncio.run(app._watch(preview))
    return preview, capsys.readouterr()


def test_a_save_made_while_serve_starts_is_built_once_the_watcher_runs(tmp_path, monkeypatch, capsys):
    """serve builds first, then starts its server and watcher: a save made after the first build
    read the deck and before the watcher ran was never seen, the page stale until the next save
    (loop51). What the first build read, taken before it, differs once the watcher runs: built."""
    import asyncio

    import watchfiles

    from pnpgen.serve import app

    ws = make_workspace(tmp_path / "ws", NAMES)
    preview = Preview(Workspace(ws), "test", ws / "build")
    started = preview.inputs()
    preview.rebuild()
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("カード3", "カード三"), encoding="utf-8")  # (the watcher not yet running)

    async def quiet(*folders, **options):
        yield set()  # (the watcher's first tick: no change it saw)

    monkeypatch.setattr(watchfiles, "awatch", quiet)
    capsys.readouterr()
    asyncio.run(app._watch(preview, started=started))
    assert preview.state.changes == ["cards: 3 → 3 (+1 カード三 (new), -1 カード3 (removed)); reprint cards.pdf: "
                                     "sheet 1 (pages 1–2)"], preview.state.changes
    assert capsys.readouterr().out.splitlines()[0] == "test: built again (build/test)"
    before = preview.state.generation  # nothing saved since the first build: not built again
    asyncio.run(app._watch(preview, started=preview.inputs()))
    assert preview.state.generation == before


def test_a_broken_save_is_said_in_the_terminal_too(tmp_path, monkeypatch, capsys):
    """American trial: a save that broke the data was said only on the page; the terminal serve
    runs in says it as watch does (one line, on stderr), and the good save after it says, on
    stdout, that it is fixed (the error stayed the terminal's last line, as if still there)."""
    preview, said = _served_saves(tmp_path, monkeypatch, capsys,
                                  lambda good: (good + "  - {name: [broken\n", good.replace("カード3", "カード三")))
    err = said.err.splitlines()
    assert err[0].startswith("pnpgen: error: data/test/decks/cards.yaml:"), err
    assert err[1:] == [NO_DRAFT], err  # the good save's warning, as a build says it
    assert said.out.splitlines() == ["test: fixed, built again (build/test)",
                                     "  changed: cards: 3 → 3 (+1 カード三 (new), -1 カード3 (removed)); reprint cards.pdf: "
                                     "sheet 1 (pages 1–2)"], said.out
    assert preview.state.error == "" and "カード三" in json.dumps(preview.state.decks, ensure_ascii=False)


def test_a_good_save_says_in_the_terminal_what_changed_and_what_to_reprint(tmp_path, monkeypatch, capsys):
    """A playtest evening in serve: a count raised, and the terminal said nothing (watch says
    `changed: …; reprint cards.pdf: …`): the page shows it, but it is not always in view. Each save
    that builds says so, with its change lines; a save that changes nothing says nothing."""
    _, said = _served_saves(tmp_path, monkeypatch, capsys,
                            lambda good: (good.replace("本文カード3}", "本文カード3, count: 3}"),) * 2)
    assert said.out.splitlines() == ["test: built again (build/test)",
                                     "  changed: cards: 3 → 5 (+2 カード3); reprint cards.pdf: sheet 1 (pages 1–2)"], said.out
    assert said.err.splitlines() == [NO_DRAFT]  # the build's warning, once: the second save is up to date


def test_an_english_games_page_is_in_english(tmp_path):
    """The page said <html lang="ja"> for every game: an English game's names went to a browser's
    Japanese face and hyphenation. The page has the game's language; a game whose data does not
    load keeps the last good build's title."""
    from conftest import GAME_YAML
    from pnpgen.serve.app import page_title
    from pnpgen.serve.page import html

    ws = make_workspace(tmp_path / "ws", game=GAME_YAML.replace("title: テストゲーム", "title: Tidewater")
                        + "languages: [en]\n")
    preview = Preview(Workspace(ws), "test", ws / "build")
    title, lang = page_title(Workspace(ws), "test", preview)
    assert (title, lang) == ("Tidewater", "en")
    assert html(preview.state, title, lang).startswith('<!doctype html>\n<html lang="en">')
    (ws / "data" / "test" / "game.yaml").write_text("title: [\n", encoding="utf-8")
    preview.built_title = "Tidewater"
    assert page_title(Workspace(ws), "test", preview) == ("Tidewater", "ja")


def test_the_page_has_the_title_game_yaml_has_now(tmp_path):
    """The title edited in game.yaml while the preview runs: the page (and the state the open page
    redraws from) says the new one; it kept the title the server started with, even on a reload.
    A broken save keeps the last good build's."""
    from starlette.testclient import TestClient  # (httpx, anyio: 0.2 s) not at collection

    ws, preview = _preview(tmp_path)
    game = ws / "data" / "test" / "game.yaml"
    with TestClient(make_app(preview, "テストゲーム", watch=False), base_url="http://127.0.0.1:8765") as client:
        game.write_text(game.read_text(encoding="utf-8").replace("title: テストゲーム", "title: 新しい題 <b>"),
                        encoding="utf-8")
        preview.rebuild()
        page = client.get("/").text
        assert "<title>新しい題 &lt;b&gt; — pnpgen preview</title>" in page and "<h1>新しい題 &lt;b&gt;</h1>" in page
        assert client.get("/state.json").json()["title"] == "新しい題 <b>"
        game.write_text("title: [\n", encoding="utf-8")
        preview.rebuild()
        assert preview.state.error and "<h1>新しい題 &lt;b&gt;</h1>" in client.get("/").text


def test_serve_lang_en_builds_and_shows_the_english_edition(tmp_path):
    """A two-language designer's trial: 'pnpgen serve' took no --lang, so the live view showed the
    Japanese edition alone, and the English cards were seen only after a build --lang en. With
    --lang en it builds the English edition into build/<game>/en/, as build --lang en does, and
    shows its faces, names and title, the page in English."""
    from conftest import DECK_YAML, GAME_YAML
    from pnpgen.commandline import parsers
    from pnpgen.serve.app import page_title

    game = GAME_YAML.replace("title: テストゲーム", "title: {ja: テストゲーム, en: Test Game}") + "languages: [ja, en]\n"
    deck = DECK_YAML + "  - {name: {ja: 祝福, en: Blessing}, text: {ja: 本文, en: Rules}}\n"
    ws = make_workspace(tmp_path / "ws", deck=deck, game=game)
    assert parsers()[0].parse_args(["serve", "--game", "test", "--lang", "en"]).lang == "en"
    preview = Preview(Workspace(ws), "test", ws / "build", "en")
    preview.rebuild()
    assert preview.state.error == ""
    assert (ws / "build" / "test" / "en" / "manifest.json").is_file()
    assert not (ws / "build" / "test" / "manifest.json").exists()
    assert [f["name"] for f in preview.state.decks[0]["faces"]] == ["Blessing"]
    assert preview.state.decks[0]["faces"][0]["fields"]["name"] == "Blessing"
    assert (preview.state.title, preview.state.lang) == ("Test Game", "en")
    assert page_title(Workspace(ws), "test", preview) == ("Test Game", "en")
    png = preview.png(preview.state.decks[0]["faces"][0]["front"].removeprefix("/picture/").removesuffix(".png"))
    assert png is not None and png[:4] == b"\x89PNG"


@pytest.mark.parametrize("how", ["deleted", "renamed"])
def test_the_workspace_gone_while_serving_is_said_and_ends_the_preview(tmp_path, monkeypatch, capsys, how):
    """hostile23: the workspace deleted (or renamed) under ``serve`` left it running, its page and
    terminal saying "unknown game" for ever (``watch`` ends in one line). The page and the terminal
    say the workspace is gone, the last good faces under it, and the preview ends (exit 2)."""
    import asyncio
    import shutil

    import watchfiles

    from pnpgen.serve import app

    ws, preview = _preview(tmp_path)
    monkeypatch.setattr(app, "GONE_GRACE", 0)
    ended: list[bool] = []

    async def batches(*folders, **options):
        yield set()  # (the watcher's empty batch after a quiet tick)
        if how == "deleted":
            shutil.rmtree(ws)
        else:
            ws.rename(tmp_path / "moved")
        for _ in range(3):  # (it went on watching, building on each)
            yield {(watchfiles.Change.deleted, str(ws / "data" / "test" / "decks" / "cards.yaml"))}

    monkeypatch.setattr(watchfiles, "awatch", batches)
    capsys.readouterr()
    before = preview.state.generation
    asyncio.run(app._watch(preview, lambda: ended.append(True)))
    said = capsys.readouterr()
    assert ended == [True] and preview.gone
    assert preview.state.generation == before + 1 and len(preview.state.decks[0]["faces"]) == 3
    assert preview.state.error.startswith(f"pnpgen: error: the workspace {ws} is gone while serving: deleted, renamed"), \
        preview.state.error
    assert "pnpgen serve started again" in preview.state.error and "unknown game" not in preview.state.error
    assert said.err.splitlines() == [preview.state.error] and said.out == ""
    from pnpgen.serve.page import ENDED, html

    assert preview.state.ended and ENDED in html(preview.state, "test", "ja").split("<script>")[0]


def test_the_games_folder_gone_while_serving_is_said_and_built_again_when_back(tmp_path):
    """The game's folder renamed under ``serve`` (a branch without it checked out): the page said
    only "unknown game"; it says the folder is not there and that the preview builds it again
    once it is back (as ``watch`` waits for it), and it does."""
    ws, preview = _preview(tmp_path)
    (ws / "data" / "test").rename(ws / "data" / "test2")
    state = preview.rebuild()
    assert state.error.startswith("pnpgen: error: data/test/ is not there (moved, deleted or renamed while serving; "
                                  "unknown game 'test'"), state.error
    assert state.error.endswith("builds again once the folder is back") and len(state.decks[0]["faces"]) == 3
    (ws / "data" / "test2").rename(ws / "data" / "test")
    assert preview.rebuild().error == "" and not preview.gone


def test_a_faces_svg_link_gives_its_templates_svg_with_its_picture_in_it_and_nothing_to_run(tmp_path):
    """A face's fields link its sides' SVGs, as check --svg writes them (after Jinja, before
    conversion): its picture in it as a data: URI (the page's address is no folder of the
    workspace), a name of '<script>' as text, served to run nothing; an id the page gave no
    face, or a path, is no file."""
    from starlette.testclient import TestClient

    ws = make_workspace(tmp_path / "ws", deck=PICTURE_DECK_YAML + "  - {name: 竜, art: dragon.png}\n"
                        "  - {name: '<script>alert(1)</script>', art: dragon.png}\n", front=PICTURE_FRONT)
    (ws / "data" / "test" / "art").mkdir()
    Image.new("RGB", (60, 40), (30, 90, 200)).save(ws / "data" / "test" / "art" / "dragon.png")
    png = (ws / "data" / "test" / "art" / "dragon.png").read_bytes()
    preview = Preview(Workspace(ws), "test", ws / "build")
    preview.rebuild()
    assert preview.state.error == ""
    with TestClient(make_app(preview, "テストゲーム", watch=False), base_url="http://127.0.0.1:8765") as client:
        faces = client.get("/state.json").json()["decks"][0]["faces"]
        links = faces[1]["svg"]
        assert set(links) == {"front", "back"} and all(re.fullmatch(r"/svg/[0-9a-f]{16}\.svg", v) for v in links.values())
        got = client.get(links["front"])
        assert got.status_code == 200 and got.headers["content-type"].startswith("image/svg+xml")
        policy = got.headers["content-security-policy"]
        assert "default-src 'none'" in policy and "sandbox" in policy and got.headers["x-content-type-options"] == "nosniff"
        root = ET.fromstring(got.text)
        assert root.tag.endswith("svg") and "<script>" not in got.text and "&lt;script&gt;" in got.text
        hrefs = [e.get("href") or e.get("{http://www.w3.org/1999/xlink}href") for e in root.iter() if e.tag.endswith("image")]
        assert hrefs == ["data:image/png;base64," + base64.b64encode(png).decode()], hrefs
        assert "竜" in client.get(faces[0]["svg"]["front"]).text
        assert client.get(links["back"]).status_code == 200
        for wrong in ("/svg/0123456789abcdef.svg", "/svg/..%2f..%2fgame.yaml.svg", "/svg/" + links["front"][5:-4] + "x.svg"):
            assert client.get(wrong).status_code == 404, wrong


def test_a_copy_drawn_its_own_way_links_its_own_svg(tmp_path):
    """A front reading ``piece.copy`` draws the piece's copies apart: the page shows each distinct
    face, and each one's SVG link gives that face (the first copy's for all of them, before), as
    check --svg writes it."""
    from starlette.testclient import TestClient

    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML + "  - {name: 依頼, text: 本文, count: 3}\n  - {name: 単独, text: 本文}\n",
                        front=ODD_EVEN_FRONT)
    preview = Preview(Workspace(ws), "test", ws / "build")
    preview.rebuild()
    assert preview.state.error == ""
    with TestClient(make_app(preview, "テストゲーム", watch=False), base_url="http://127.0.0.1:8765") as client:
        faces = client.get("/state.json").json()["decks"][0]["faces"]
        assert [(f["name"], f["count"]) for f in faces] == [("依頼", 2), ("依頼", 1), ("単独", 1)]
        texts = ["".join(ET.fromstring(client.get(f["svg"]["front"]).text).itertext()) for f in faces]
        assert "本文奇" in texts[0] and "本文偶" in texts[1] and "本文奇" in texts[2]
        assert "B依頼" in "".join(ET.fromstring(client.get(faces[1]["svg"]["back"]).text).itertext())


def test_a_copys_svg_renders_only_its_own_piece(tmp_path, monkeypatch):
    """The SVG link of one copy of a template reading ``piece.copy`` renders that piece's copies,
    not the whole deck (a deck of 10,000 faces rendered per click): each render counted by piece.
    A piece one of whose copies prints as an earlier piece's face (listed as that piece's) still
    links its own face, the deck's faces paired as the build pairs them."""
    from starlette.testclient import TestClient

    from pnpgen.faces.templates import Renderer

    others = "".join(f"  - {{name: 他{n}, text: 本文}}\n" for n in range(6))
    ws = make_workspace(tmp_path / "ws", front=ODD_EVEN_FRONT, deck=DECK_YAML + others
                        + "  - {name: 依頼, text: 本文, count: 3}\n  - {name: 他0, text: 本文, count: 2}\n")
    preview = Preview(Workspace(ws), "test", ws / "build")
    preview.rebuild()
    assert preview.state.error == ""
    drawn: list[str] = []
    rendered = Renderer.rendered

    def counted(self, face, reads=None):
        drawn.append(face.piece.values["name"])
        return rendered(self, face, reads)

    monkeypatch.setattr(Renderer, "rendered", counted)
    with TestClient(make_app(preview, "テストゲーム", watch=False), base_url="http://127.0.0.1:8765") as client:
        faces = client.get("/state.json").json()["decks"][0]["faces"]
        # (the deck's two 他0, alike but for their place, told apart by it as order.csv and the change report name them)
        assert [(f["name"], f["count"]) for f in faces][6:] == [("依頼", 2), ("依頼", 1), ("他0 #8", 1)]
        assert faces[0]["name"] == "他0 #1"
        text = "".join(ET.fromstring(client.get(faces[7]["svg"]["front"]).text).itertext())
        assert "依頼" in text and "本文偶" in text
        assert set(drawn) == {"依頼"} and len(drawn) == 5, drawn  # copy 1 read, its 3 copies' fronts, its one back
        drawn.clear()
        text = "".join(ET.fromstring(client.get(faces[8]["svg"]["front"]).text).itertext())
        assert "他0" in text and "本文偶" in text  # (its first copy is 他0's face: the deck paired)
        assert "他5" in drawn


def test_a_faces_svg_showing_one_picture_too_many_times_is_one_error_not_gigabytes(tmp_path, monkeypatch):
    """The SVG link writes a picture's bytes every time the face shows it (a 4 MB picture on a
    track's 100 spaces made 577 MB of SVG and took 2.3 GB): past MAX_ART_BYTES of pictures, the
    most a build reads of one, the link answers one line naming the piece's line and what to do
    instead, before it holds more; a face under it still gets its SVG, each picture encoded once."""
    from starlette.testclient import TestClient

    from pnpgen.data import art as artlinks

    front = PICTURE_FRONT.replace("{{ image(piece.art, 5, 20, w - 10, 40) }}",
                                  "{% for i in range(piece.times) %}{{ image(piece.art, 5, 20, w - 10, 40) }}{% endfor %}")
    ws = make_workspace(tmp_path / "ws", deck=PICTURE_DECK_YAML.replace("art: image}", "art: image, times: number}")
                        + "  - {name: 一枚, art: dragon.png, times: 3}\n  - {name: 百枚, art: dragon.png, times: 100}\n",
                        front=front)
    (ws / "data" / "test" / "art").mkdir()
    Image.new("RGB", (60, 40), (30, 90, 200)).save(ws / "data" / "test" / "art" / "dragon.png")
    size = (ws / "data" / "test" / "art" / "dragon.png").stat().st_size
    monkeypatch.setattr(artlinks, "MAX_ART_BYTES", size * 10)
    preview = Preview(Workspace(ws), "test", ws / "build")
    preview.rebuild()
    assert preview.state.error == ""
    with TestClient(make_app(preview, "テストゲーム", watch=False), base_url="http://127.0.0.1:8765") as client:
        faces = client.get("/state.json").json()["decks"][0]["faces"]
        few = client.get(faces[0]["svg"]["front"])
        assert few.status_code == 200 and few.text.count("data:image/png;base64,") == 3
        many = client.get(faces[1]["svg"]["front"])
        assert many.status_code == 413 and many.headers["content-type"].startswith("text/plain")
        assert many.text.startswith(f"{ws}/data/test/decks/cards.yaml:8:5: the face's SVG would hold ")
        assert "dragon.png" in many.text and "check --svg" in many.text and len(many.content) < 1000


def test_a_warning_quoting_markup_from_the_data_is_shown_as_text():
    """A warning quotes the data (a card named <img src=x onerror=…>): the page lists it as text,
    never as markup, as it shows the cards' names."""
    from pnpgen.serve.page import html as page_html
    from pnpgen.serve.preview import State

    told = "data/test/decks/cards.yaml:5: card '<img src=x onerror=alert(1)>' is unnamed"
    page = page_html(State(warnings=[told]), "テストゲーム")
    assert "<img src=x" not in page and f"<li>{html.escape(told)}</li>" in page
    assert '<h2 id="warned" class="shown">' in page and '<h2 id="warned" class="">' in page_html(State(), "t")


def test_a_saves_warnings_are_said_in_the_terminal_and_on_the_page(tmp_path, monkeypatch, capsys):
    """Trial 50 (a party game in serve): a count changed in the sheet made the draft's （８０枚）
    wrong, which a build warns of, but serve said only `built again` and the change line, and the
    page showed neither: the designer learnt of it at the print shop. A save's warnings are said
    before its lines, as a build says them, and listed on the page."""
    from starlette.testclient import TestClient

    draft = tmp_path / "ws" / "data" / "test" / "draft.txt"

    def saves(good):
        draft.write_text(DRAFT, encoding="utf-8")  # its components list says （１１枚）
        return (good.replace("本文カード3}", "本文カード3, count: 3}"),)

    preview, said = _served_saves(tmp_path, monkeypatch, capsys, saves)
    told = "data/test/draft.txt:9: count of テストカード differs: the draft states 11 (「テストカード（１１枚）」), " \
        "the data has 5 (deck cards 'テストカード' = 5)"
    assert said.err.splitlines() == [f"pnpgen: warning: {told}"], said.err
    assert said.out.splitlines()[0] == "test: built again (build/test)", said.out
    assert preview.state.warnings == [told]
    with TestClient(make_app(preview, "テストゲーム", watch=False), base_url="http://127.0.0.1:8765") as client:
        page = client.get("/").text
        assert '<h2 id="warned" class="shown">Warnings</h2>' in page and f"<li>{html.escape(told)}</li>" in page
        assert client.get("/state.json").json()["warnings"] == [told]
    draft.write_text(DRAFT.replace("（１１枚）", "（５枚）"), encoding="utf-8")
    preview.rebuild()
    assert preview.state.warnings == []


def test_serve_margin_sets_its_sheets_inside_the_printers_margin_as_build_does(tmp_path, monkeypatch):
    """``pnpgen serve --margin 15`` (bookR: --margin once for build, rulebook and serve): the
    preview's build lays the sheets out inside a 15 mm margin — four poker cards a sheet, not the
    nine of the default 5 mm — as ``build --margin 15`` does (the server itself not started)."""
    import socket

    import uvicorn

    from conftest import run

    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: None)  # no server: the first build only
    ws = make_workspace(tmp_path / "ws", NAMES)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    assert run(ws, "serve", "--game", "test", "--port", str(port), "--margin", "15") == 3  # (never started)
    manifest = json.loads((ws / "build" / "test" / "manifest.json").read_text(encoding="utf-8"))
    assert [d["pieces_per_sheet"] for d in manifest["decks"]] == [4], manifest["decks"]


def test_the_rule_sheet_a_game_asks_for_is_shown_side_by_side_after_the_book(tmp_path):
    """A game whose game.yaml asks for a rule sheet (``rulebook: sheet:``): the preview showed the
    booklet's pages and not the sheet. Its sides follow the book's pages, each a picture of the
    PDF's page; a game that asks for none shows none."""
    from starlette.testclient import TestClient  # (httpx, anyio: 0.2 s) not at collection

    from conftest import GAME_YAML

    ws = make_workspace(tmp_path / "ws", NAMES, game=GAME_YAML + "rulebook:\n  sheet: {quick_reference: true}\n")
    (ws / "data" / "test" / "draft.txt").write_text(DRAFT, encoding="utf-8")
    preview = Preview(Workspace(ws), "test", ws / "build")
    preview.rebuild()
    assert preview.state.error == ""
    with TestClient(make_app(preview, "テストゲーム", watch=False), base_url="http://127.0.0.1:8765") as client:
        sheets = client.get("/state.json").json()["sheets"]
        titles = [s["title"] for s in sheets]
        assert titles[-1] == "rule-sheet.pdf side 1" and titles[-2].startswith("rulebook.pdf p. "), titles
        png = client.get(sheets[-1]["src"])
        assert png.headers["content-type"] == "image/png"
        picture = Image.open(io.BytesIO(png.content))
        assert picture.width > picture.height  # A4 landscape, as the sheet is
    game_yaml = ws / "data" / "test" / "game.yaml"
    game_yaml.write_text(GAME_YAML, encoding="utf-8")
    preview.rebuild()
    assert preview.state.error == "" and not [s for s in preview.state.sheets if "rule-sheet" in s["title"]]


def test_a_rule_edit_says_the_reprint_list_shown_is_an_earlier_builds(tmp_path):
    """A card edited, then a rule paragraph: the rule edit prints nothing new and the build keeps
    reprint.txt as it was, so the page, showing it under "rulebook: … changed", says it is an
    earlier build's — shown bare, its cards read as that edit's (a designer's trial, trial77)."""
    from starlette.testclient import TestClient  # (httpx, anyio: 0.2 s) not at collection

    from pnpgen.serve.preview import KEPT_REPRINT

    ws = make_workspace(tmp_path / "ws", NAMES, draft=True)
    preview = Preview(Workspace(ws), "test", ws / "build")
    preview.rebuild()
    deck, draft = ws / "data" / "test" / "decks" / "cards.yaml", ws / "data" / "test" / "draft.txt"
    with TestClient(make_app(preview, "テストゲーム", watch=False), base_url="http://127.0.0.1:8765") as client:
        deck.write_text(deck.read_text(encoding="utf-8").replace("text: 本文カード3", "text: 新しい本文"), encoding="utf-8")
        preview.rebuild()
        state = client.get("/state.json").json()
        assert state["changes"] == ["cards: 3 → 3 (カード3: text); reprint cards.pdf: sheet 1 (pages 1–2)"]
        assert KEPT_REPRINT not in state["reprint"] and "1 × カード3" in state["reprint"]
        # the copies to print now shown first in the sheets' tab: reprint.pdf's two pages (fronts, backs)
        titles = [s["title"] for s in state["sheets"]]
        assert titles[:3] == ["reprint.pdf p. 1", "reprint.pdf p. 2", "cards.pdf p. 1"], titles
        png = client.get(state["sheets"][0]["src"])
        assert png.headers["content-type"] == "image/png" and png.content[:4] == b"\x89PNG"
        draft.write_text(draft.read_text(encoding="utf-8").replace("２〜４人で遊びます。", "２〜５人で遊びます。"),
                         encoding="utf-8")
        preview.rebuild()
        state = client.get("/state.json").json()
        assert state["changes"][0].startswith("rulebook: draft 3 (概要 changed)"), state["changes"]
        assert state["reprint"].startswith(KEPT_REPRINT + "\n\n") and "1 × カード3" in state["reprint"]
        assert html.escape(KEPT_REPRINT) in client.get("/").text
        assert (ws / "build" / "test" / "reprint.txt").read_text(encoding="utf-8") in state["reprint"]
    assert f"`{KEPT_REPRINT}`" in (REPO / "docs" / "playtest.md").read_text(encoding="utf-8")  # the docs quote it


def test_a_rule_edit_after_a_build_that_only_removed_pieces_says_there_is_no_reprint_pdf(tmp_path):
    """A card removed (pieces to pull out only: no reprint.pdf, the one before removed), then a rule
    paragraph: the note above the kept list said reprint.pdf was kept as it was, and there was
    none (loop51); it names only the files that are there."""
    from starlette.testclient import TestClient  # (httpx, anyio: 0.2 s) not at collection

    from pnpgen.serve.preview import KEPT_PULL_LIST, KEPT_REPRINT

    ws = make_workspace(tmp_path / "ws", NAMES, draft=True)
    preview = Preview(Workspace(ws), "test", ws / "build")
    preview.rebuild()
    deck, draft = ws / "data" / "test" / "decks" / "cards.yaml", ws / "data" / "test" / "draft.txt"
    with TestClient(make_app(preview, "テストゲーム", watch=False), base_url="http://127.0.0.1:8765") as client:
        deck.write_text(deck.read_text(encoding="utf-8").replace("text: 本文カード3", "text: 新しい本文"), encoding="utf-8")
        preview.rebuild()  # a reprint.pdf first, which the removal's build then removes
        deck.write_text(deck.read_text(encoding="utf-8").replace("  - {name: カード1, text: 本文カード1}\n", ""),
                        encoding="utf-8")
        preview.rebuild()
        assert not list((ws / "build" / "test").glob("reprint*.pdf"))
        draft.write_text(draft.read_text(encoding="utf-8").replace("２〜４人で遊びます。", "２〜５人で遊びます。"),
                         encoding="utf-8")
        preview.rebuild()
        state = client.get("/state.json").json()
        assert state["changes"][0].startswith("rulebook: draft 3 (概要 changed)"), state["changes"]
        assert state["reprint"].startswith(KEPT_PULL_LIST + "\n\n") and "1 × カード1" in state["reprint"], state["reprint"]
        assert KEPT_REPRINT not in state["reprint"] and "reprint.pdf" not in state["reprint"].split("there is no")[0]
        assert html.escape(KEPT_PULL_LIST) in client.get("/").text
    assert f"`{KEPT_PULL_LIST}`" in (REPO / "docs" / "playtest.md").read_text(encoding="utf-8")  # the docs quote it


def test_the_panel_says_what_changed_since_the_version_tagged_last(tmp_path):
    """The page compares with the set the playtesters hold (trial77: it showed the last save's
    change alone): no tag yet, it says how to tag one; tagged, each save shows the changelog since
    that version, as ``pnpgen diff TAG latest`` writes it, with the reprint --since command."""
    from starlette.testclient import TestClient  # (httpx, anyio: 0.2 s) not at collection

    ws, preview = _preview(tmp_path)
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    with TestClient(make_app(preview, "テストゲーム", watch=False), base_url="http://127.0.0.1:8765") as client:
        assert client.get("/state.json").json()["since"] == (
            "v1 is the latest version; tag the one you print to see here what changed since: "
            "pnpgen tag --game test playtest-1")
        assert run(ws, "tag", "--game", "test", "playtest-1") == 0
        preview.rebuild()  # nothing changed: the tagged version is the latest
        assert client.get("/state.json").json()["since"] == "v1 is playtest-1: nothing changed since."
        deck.write_text(deck.read_text(encoding="utf-8").replace("text: 本文カード3", "text: 新しい本文"), encoding="utf-8")
        preview.rebuild()
        deck.write_text(deck.read_text(encoding="utf-8").replace("  - {name: カード1, text: 本文カード1}\n", ""),
                        encoding="utf-8")
        preview.rebuild()
        since = client.get("/state.json").json()["since"]
        assert since.startswith("Since playtest-1 (v1), as pnpgen diff --game test playtest-1 latest writes it; "
                                "every copy to print: pnpgen reprint --game test --since playtest-1\n\n"
                                "# test: playtest-1 (v1) → v3\n"), since
        # both saves since the tag, not the last one alone
        assert "- カード3：text：「本文カード3」 → 「新しい本文」" in since and "- 削除：カード1 ×1" in since
        assert html.escape("- 削除：カード1 ×1") in client.get("/").text
        # the designer's text as written (polish47a: it read \\<b\\> there, pnpgen diff's Markdown
        # escapes), and still text in the page, never markup
        deck.write_text(deck.read_text(encoding="utf-8").replace("text: 新しい本文", "text: '<b>太字</b><script>x()</script>'"),
                        encoding="utf-8")
        preview.rebuild()
        since = client.get("/state.json").json()["since"]
        assert "「<b>太字</b><script>x()</script>」" in since and "\\<" not in since, since
        page = client.get("/").text
        assert html.escape("<b>太字</b><script>x()</script>") in page and "<script>x()" not in page


def test_a_broken_save_mended_back_says_no_change_against_the_last_good_build(tmp_path):
    """A card renamed (its change and reprint shown), a save that breaks the deck, then the deck
    saved back as it was: "Last change" still showed the rename, made before the break, as this
    save's; it says nothing changed against the last good build, and the reprint list shown is
    that earlier build's. Mended into something else, the change is against the last good build."""
    from pnpgen.serve.preview import KEPT_REPRINT, MENDED

    ws, preview = _preview(tmp_path)
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    renamed = deck.read_text(encoding="utf-8").replace("name: カード3", "name: 新しい名前")
    deck.write_text(renamed, encoding="utf-8")
    state = preview.rebuild()
    assert state.changes and "新しい名前" in state.changes[0] and state.reprint, state.changes
    listed = state.reprint
    deck.write_text(renamed + "  - {name: [broken\n", encoding="utf-8")
    assert preview.rebuild().error
    deck.write_text(renamed, encoding="utf-8")
    state = preview.rebuild()
    assert (state.error, state.changes, state.reprint) == ("", [MENDED], f"{KEPT_REPRINT}\n\n{listed}"), state.changes
    deck.write_text(renamed + "  - {name: [broken\n", encoding="utf-8")
    assert preview.rebuild().error
    deck.write_text(renamed.replace("name: カード1", "name: 一枚目"), encoding="utf-8")
    state = preview.rebuild()
    assert len(state.changes) == 1 and "一枚目" in state.changes[0] and "新しい名前" not in state.changes[0], state.changes


def test_serve_says_at_its_start_and_on_the_page_that_the_printer_profile_the_build_used_is_left_out(tmp_path, capsys):
    """Sheets built with --printer, then serve (game.yaml names no printer): its first build draws
    them again without the profile, said only in a change line a designer missed (loop51). The
    warning names the profile at the start and on the page, save after save, until game.yaml
    names it; a build that never used one says nothing."""
    from starlette.testclient import TestClient  # (httpx, anyio: 0.2 s) not at collection

    ws = make_workspace(tmp_path / "ws", NAMES)
    (ws / "printers.yaml").write_text("home-inkjet: {paper: a4, duplex: long, back_offset_mm: [-1.5, 0.75]}\n",
                                      encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--printer", "home-inkjet", "-q") == 0
    preview = Preview(Workspace(ws), "test", ws / "build")
    state = preview.rebuild()
    told = ("the sheets are drawn without printer profile home-inkjet, which the build before serve's printed with: "
            "serve builds as game.yaml says, as pnpgen build with no option does (expected printer: home-inkjet in "
            "data/test/game.yaml, to preview and build with it)")
    assert state.error == "" and state.warnings[0] == told, state.warnings
    assert any(c.startswith("every home sheet changed: printer profile home-inkjet") for c in state.changes)
    deck, game = ws / "data" / "test" / "decks" / "cards.yaml", ws / "data" / "test" / "game.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("カード3", "カード三"), encoding="utf-8")
    with TestClient(make_app(preview, "テストゲーム", watch=False), base_url="http://127.0.0.1:8765") as client:
        assert preview.rebuild().warnings[0] == told  # (the next save's build: still without it)
        assert html.escape(told) in client.get("/").text
        game.write_text(game.read_text(encoding="utf-8") + "printer: home-inkjet\n", encoding="utf-8")
        assert told not in preview.rebuild().warnings
    fresh = Preview(Workspace(ws), "test", ws / "build")  # the last build used game.yaml's: nothing left out
    assert told not in fresh.rebuild().warnings
    game.write_text(game.read_text(encoding="utf-8").replace("printer: home-inkjet\n", ""), encoding="utf-8")
    fresh.rebuild()
    assert not [w for w in Preview(Workspace(ws), "test", ws / "build").rebuild().warnings if "printer profile" in w]
