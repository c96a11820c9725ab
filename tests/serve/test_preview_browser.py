"""The live preview in a real browser: headless Chromium (Debian's chromium and chromium-driver)
driven by Selenium. Skipped, with the reason, where they are not installed."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import DECK_YAML, REPO, child_env, make_workspace

selenium = pytest.importorskip("selenium", reason="selenium not installed (pip install '.[test]')")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(not (CHROMIUM and DRIVER),
                                reason="headless Chromium not installed (apt-get install chromium chromium-driver)")

NAMES = ["カード1", "<script>alert(1)</script>", "カード3"]


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _serve(ws: Path, game: str, out: Path):
    """Start ``pnpgen serve``; (the process, its port): it builds while the browser starts."""
    port = _port()
    env = child_env(PYTHONPATH=str(REPO / "generator"))
    proc = subprocess.Popen([sys.executable, "-m", "pnpgen", "serve", "--game", game, "--port", str(port),
                             "--out", str(out)], cwd=ws, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return proc, port


def _answering(proc, port: int) -> str:
    """The preview's address once ``pnpgen serve`` answers there."""
    for _ in range(600):  # the first build, then the server: until it answers
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
            return f"http://127.0.0.1:{port}/"
        except OSError:
            if proc.poll() is not None:
                raise AssertionError(proc.stdout.read() if proc.stdout else "pnpgen serve ended") from None
            time.sleep(0.1)
    proc.kill()
    raise AssertionError("pnpgen serve did not answer")


def _browser(width: int = 1280, height: int = 800, phone: bool = False):
    """Headless Chromium; ``phone``: as a phone shows a page (a page without a viewport line is
    laid out 980 px wide there and shrunk)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    if phone:
        options.add_experimental_option("mobileEmulation", {"deviceMetrics": {"width": width, "height": height,
                                                                              "pixelRatio": 1, "touch": True}})
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", f"--window-size={width},{height}"):
        options.add_argument(arg)
    return webdriver.Chrome(service=Service(DRIVER), options=options)


def _wait(driver, condition, seconds: float):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, seconds, poll_frequency=0.05).until(lambda d: d.execute_script(condition))


def test_the_page_shows_every_face_updates_without_reload_and_keeps_faces_on_a_broken_save(tmp_path):
    ws = make_workspace(tmp_path / "ws", NAMES)
    proc, port = _serve(ws, "test", tmp_path / "out")
    driver = _browser()
    try:
        driver.get(_answering(proc, port))
        _wait(driver, "return document.querySelectorAll('#deck-0 .face').length === 3", 5)
        captions = [e.text for e in driver.find_elements("css selector", "#deck-0 .face figcaption")]
        assert captions == ["カード1 × 1", "<script>alert(1)</script> × 1", "カード3 × 1"]  # text, never run
        assert driver.execute_script("return document.querySelectorAll('#deck-0 .face img.front').length") == 3
        # (each picture is asked for as the pane shows it: waited for, as a loaded machine draws them later)
        _wait(driver, "return [...document.querySelectorAll('.pane.on img')].every(i => i.complete && i.naturalWidth > 0)", 10)
        # a pane not shown asks for none of its pictures (5,000 cards: 11,000 at once), until it is shown
        assert driver.execute_script("return document.querySelectorAll('#sheets img').length") > 0
        assert driver.execute_script("return [...document.querySelectorAll('#sheets img')].every(i => !i.complete)")
        driver.find_element("css selector", ".tab[data-pane=sheets]").click()
        _wait(driver, "return [...document.querySelectorAll('#sheets img')].every(i => i.complete && i.naturalWidth > 0)", 20)
        driver.find_element("css selector", ".tab[data-pane=deck-0]").click()
        driver.find_elements("css selector", "#deck-0 .face")[1].click()  # its fields link its sides' SVGs
        links = driver.find_elements("css selector", "#details .svg a")
        assert [a.text for a in links] == ["front", "back"]
        page, front = driver.current_window_handle, links[0].get_attribute("href")
        driver.switch_to.new_window("tab")
        driver.get(front)  # the template's SVG: drawn, the name as text, nothing run
        assert driver.execute_script("return document.documentElement.localName") == "svg"
        assert "<script>alert(1)</script>" in driver.execute_script("return document.documentElement.textContent")
        assert driver.execute_script("return document.querySelectorAll('script').length") == 0
        driver.close()
        driver.switch_to.window(page)
        driver.execute_script("window.notReloaded = true")
        time.sleep(0.5)  # the watcher is running
        deck = ws / "data" / "test" / "decks" / "cards.yaml"
        deck.write_text(deck.read_text(encoding="utf-8").replace("name: カード3", "name: 新しい名前"), encoding="utf-8")
        _wait(driver, "return [...document.querySelectorAll('#deck-0 figcaption')].some(c => c.textContent === '新しい名前 × 1')", 2)
        assert driver.execute_script("return window.notReloaded === true")
        driver.find_elements("css selector", "#deck-0 .face")[2].click()
        details = driver.find_element("id", "details").text
        assert "data/test/decks/cards.yaml:11:5" in details and "本文カード3" in details
        deck.write_text(deck.read_text(encoding="utf-8") + "  - {name: [broken\n", encoding="utf-8")
        _wait(driver, "return document.getElementById('error').classList.contains('shown')", 5)
        assert driver.find_element("id", "error").text.startswith("pnpgen: error: ")
        assert "cards.yaml:" in driver.find_element("id", "error").text
        assert driver.execute_script("return document.querySelectorAll('#deck-0 .face').length") == 3
        assert driver.execute_script("return window.notReloaded === true")
    finally:
        driver.quit()
        proc.terminate()
        proc.wait(10)


def test_the_picked_face_shows_the_fields_of_the_latest_save(tmp_path):
    """A face picked, then its text edited: the panel shows the new text (it kept the fields of
    the build before as if they were current); the face deleted: the panel says to pick one; the
    game's title edited: the heading says the new one. Two faces a page (``?per_page=2``): the
    pager turns to the third, a save keeps the page turned to."""
    ws = make_workspace(tmp_path / "ws", ["カード1", "カード2", "カード3"])
    proc, port = _serve(ws, "test", tmp_path / "out")
    driver = _browser()
    faces = "return [...document.querySelectorAll('#deck-0 .face figcaption')].map(c => c.textContent).join('|')"
    try:
        driver.get(_answering(proc, port) + "?per_page=2")
        _wait(driver, "return document.querySelectorAll('#deck-0 .face').length === 2", 5)
        assert driver.execute_script(faces) == "カード1 × 1|カード2 × 1"
        assert driver.find_element("css selector", "#deck-0 .pager").text.startswith("‹ previous")
        # each page named by the first and last face on it; a pager under the faces too (sheet44:
        # the next page was at the top of a long one): its next turns the page as the top one's
        assert driver.execute_script("return [...document.querySelectorAll('#deck-0 .pager:last-child option')]"
                                     ".map(o => o.textContent).join('|')") == "1–2 (カード1 – カード2)|3 (カード3)"
        bottom = driver.find_elements("css selector", "#deck-0 .pager")
        assert len(bottom) == 2 and driver.execute_script("return document.querySelector('#deck-0').lastChild.className") == "pager"
        bottom[1].find_element("css selector", ".next").click()
        assert driver.execute_script(faces) == "カード3 × 1"
        driver.find_elements("css selector", "#deck-0 .face")[0].click()
        assert "本文カード3" in driver.find_element("id", "details").text
        driver.find_element("css selector", "#deck-0 .pager .prev").click()
        driver.find_elements("css selector", "#deck-0 .face")[1].click()
        assert "本文カード2" in driver.find_element("id", "details").text
        time.sleep(0.5)  # the watcher is running
        deck = ws / "data" / "test" / "decks" / "cards.yaml"
        deck.write_text(deck.read_text(encoding="utf-8").replace("本文カード2", "本文を直した"), encoding="utf-8")
        _wait(driver, "return document.getElementById('details').textContent.includes('本文を直した')", 5)
        assert "本文カード2" not in driver.find_element("id", "details").text
        assert driver.execute_script("return document.querySelector('.face.picked').dataset.face") == "1"
        driver.find_element("css selector", "#deck-0 .pager .next").click()  # a save keeps the page turned to
        deck.write_text(deck.read_text(encoding="utf-8").replace("本文カード3", "本文三"), encoding="utf-8")
        _wait(driver, "return state.decks[0].faces.some(f => f.fields.text === '本文三')", 5)
        assert driver.execute_script(faces) == "カード3 × 1"
        deck.write_text(deck.read_text(encoding="utf-8").replace("  - {name: カード2, text: 本文を直した}\n", ""),
                        encoding="utf-8")
        _wait(driver, "return document.querySelectorAll('#deck-0 .face').length === 2", 5)  # one page: no pager
        assert driver.execute_script(faces) == "カード1 × 1|カード3 × 1" and not driver.find_elements("css selector", ".pager")
        assert driver.find_element("id", "details").text == "Click a face to see its fields, its YAML line and its SVG."
        assert not driver.find_elements("css selector", ".face.picked")
        game = ws / "data" / "test" / "game.yaml"  # the heading follows game.yaml's title, without a reload
        game.write_text(game.read_text(encoding="utf-8").replace("title: テストゲーム", "title: 新しい題"), encoding="utf-8")
        _wait(driver, "return document.querySelector('header h1').textContent === '新しい題'", 5)
        assert driver.title == "新しい題 — pnpgen preview"
    finally:
        driver.quit()
        proc.terminate()
        proc.wait(10)


def test_a_phone_shows_the_page_at_its_width_the_panel_under_the_faces(tmp_path):
    """A phone 390 px wide (a designer's trial, trial77): the page was laid out 980 px wide and
    shrunk, the faces and the panel side by side with the panel cut off at the right. Now it is
    one column the phone's width, the panel under the faces, the error and the warnings wrapped
    inside it; a field the piece leaves empty reads "(not set)", not null."""
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML + "  - {name: カード1, text: 本文}\n  - {name: 本文のないカード}\n")
    proc, port = _serve(ws, "test", tmp_path / "out")
    driver = _browser(390, 844, phone=True)
    try:
        driver.get(_answering(proc, port))
        _wait(driver, "return document.querySelectorAll('#deck-0 .face').length === 2", 5)
        assert driver.execute_script("return [window.innerWidth, document.documentElement.scrollWidth]") == [390, 390]
        main, aside = (driver.execute_script(f"return document.querySelector('{e}').getBoundingClientRect().toJSON()")
                       for e in ("main", "aside"))
        assert aside["top"] >= main["bottom"] and aside["right"] <= 390 and main["right"] <= 390
        driver.execute_script("document.querySelectorAll('#deck-0 .face')[1].click()")
        assert "text\n(not set)" in driver.find_element("id", "details").text
        time.sleep(0.5)  # the watcher is running
        deck = ws / "data" / "test" / "decks" / "cards.yaml"
        deck.write_text(deck.read_text(encoding="utf-8") + "  - {name: [broken\n", encoding="utf-8")
        _wait(driver, "return document.getElementById('error').classList.contains('shown')", 5)
        assert driver.execute_script("return document.documentElement.scrollWidth") == 390
        assert driver.execute_script("return document.getElementById('banner').getBoundingClientRect().right") <= 390
    finally:
        driver.quit()
        proc.terminate()
        proc.wait(10)


@pytest.mark.skipif(not os.environ.get("PNPGEN_SCREENSHOT"), reason="set PNPGEN_SCREENSHOT=path.png to take README's screenshot")
def test_screenshot_of_the_preview(tmp_path):
    proc, port = _serve(REPO, "populous", tmp_path / "out")
    driver = _browser(1400, 900)
    try:
        driver.get(_answering(proc, port))
        _wait(driver, "return document.querySelectorAll('.pane.on .face').length > 0", 30)
        driver.find_elements("css selector", ".tab")[1].click()  # the epic cards, fronts and backs
        _wait(driver, "return [...document.querySelectorAll('.pane.on img')].every(i => i.complete && i.naturalWidth > 0)", 60)
        driver.find_elements("css selector", ".pane.on .face")[0].click()
        driver.save_screenshot(os.environ["PNPGEN_SCREENSHOT"])
    finally:
        driver.quit()
        proc.terminate()
        proc.wait(10)
