"""Issue 13: docs/data-format.md is a contract. Every key the loader accepts and every name a
template sees is documented, and the docs' example files build as written in a fresh workspace."""

from __future__ import annotations

import re

import jinja2
import pytest
import yaml
from PIL import Image
from pypdf import PdfReader

from conftest import DRAFT, REPO, make_workspace, run
from pdfprobe import glyphs
from pnpgen.data import deckfile, load
from pnpgen.data.load import load_game
from pnpgen.data.spreadsheets import SHEET_KEYS
from pnpgen.data.workspace import Workspace
from pnpgen.faces.budget import OPERAND
from pnpgen.faces.builtin import FOLDER
from pnpgen.faces.face import Face
from pnpgen.faces.templates import Renderer
from pnpgen.rulebook import figures

# the data format's pages: data-format.md, and rulebook.md, where its rulebook section went (the
# draft's marks and game.yaml's `rulebook:` keys: a designer's guide page of its own)
DOCS = "\n".join((REPO / "docs" / page).read_text(encoding="utf-8") for page in ("data-format.md", "rulebook.md"))
TEMPLATES_SECTION = DOCS[DOCS.index("## Templates"):DOCS.index("\n## ", DOCS.index("## Templates") + 5)]
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)
HEADER = re.compile(r"^(?:# |\{# )((?:data|templates)/<slug>/\S+?|(?:layouts|sheets)/\S+?)(?: #\})?$")


def _yaml_key_documented(key: str) -> bool:
    return re.search(rf"(^|[\s{{,]){re.escape(key)}:", DOCS, re.M) is not None


@pytest.mark.parametrize("key", [*load.GAME_KEYS, *deckfile.DECK_KEYS, *load.SOURCED_KEYS, *SHEET_KEYS, *figures.KEYS])
def test_every_key_the_loader_accepts_is_documented(key):
    assert _yaml_key_documented(key) or f"`{key}:`" in DOCS, f"{key}: not in docs/data-format.md nor docs/rulebook.md"


def test_every_field_type_and_shape_option_is_documented():
    types_line = next(line for line in DOCS.splitlines() if line.strip().startswith("title: text"))
    assert all(t in types_line for t in deckfile.FIELD_TYPES), types_line
    named = re.findall(r"A \w+ field\s+\(((?:`\w+`,?\s*)+)\)", DOCS)  # "A number field (`int`, `number`)"
    assert named and all(t in deckfile.FIELD_TYPES for t in re.findall(r"`(\w+)`", " ".join(named))), named
    for key in deckfile.SHAPE_KEYS:
        assert f"`{key}`" in DOCS and _yaml_key_documented(key)
    for name in deckfile.RESERVED_FIELDS:
        assert f"`piece.{name}`" in DOCS


def _context(tmp_path) -> tuple[dict, set[str]]:
    """Every name Renderer.render gives a template, and the filters pnpgen adds to Jinja's."""
    ws = make_workspace(tmp_path / "ws", front='{{ grab() }}<svg xmlns="http://www.w3.org/2000/svg"/>')
    game = load_game(Workspace(ws), "test")
    renderer = Renderer(ws / "templates", game, 3.0)
    seen: dict = {}

    @jinja2.pass_context
    def grab(ctx):
        seen.update(ctx.get_all())
        return ""

    renderer.env.globals["grab"] = grab
    deck = game.decks[0]
    renderer.render(Face(deck, deck.pieces[0], "front"))
    names = {k: v for k, v in seen.items() if k not in renderer.env.globals}
    # (the budget's filter of compared operands has a name no template can write: faces/budget.py)
    return names, set(renderer.env.filters) - set(jinja2.Environment().filters) - {OPERAND}


def test_every_template_name_is_documented(tmp_path):
    names, filters = _context(tmp_path)
    assert {"piece", "deck", "game", "w", "h", "colour", "textbox", "outline", "shape"} <= set(names)
    for name, value in names.items():
        assert f"`{name}`" in TEMPLATES_SECTION or f"`{name}(" in TEMPLATES_SECTION, name
        if isinstance(value, dict) and name != "palette" and name != "fonts":
            for sub in value:
                assert f"`{name}.{sub}" in TEMPLATES_SECTION, f"{name}.{sub}"
    for name in filters:
        assert f"`\\| {name}(" in TEMPLATES_SECTION or f"`\\| {name}`" in TEMPLATES_SECTION, f"filter {name}"


def _example_files() -> dict[str, str]:
    """The docs' code blocks that open with a file's path (``# data/<slug>/…``,
    ``{# templates/<slug>/… #}``), by path, and the CSV block under the deck that names it."""
    files: dict[str, str] = {}
    last_yaml = ""
    for lang, body in FENCE.findall(DOCS):
        first = body.splitlines()[0] if body.strip() else ""
        m = HEADER.match(first)
        if m:
            files[m.group(1)] = body
            last_yaml = body if lang == "yaml" else last_yaml
            for name in re.findall(r"# .*\bart/([\w.-]+\.png)", body) if lang == "yaml" else []:
                files[f"data/<slug>/art/{name}"] = ""  # a picture its comment names: drawn below
        elif lang == "csv":
            (name,) = re.findall(r"(?:(?:pieces|list): \{|^  )file: ([^\s,}]+)", last_yaml, re.M)  # {file: x.csv} or file: x.csv
            files[f"data/<slug>/decks/{name}"] = body
        elif lang == "":
            for path in re.findall(r"^(data/<slug>/art/\S+)", body, re.M):
                files[path] = ""  # a picture the listing names: drawn below
    return files


def test_the_docs_examples_build_as_written(tmp_path, capsys):
    files = _example_files()
    for must in ("data/<slug>/game.yaml", "data/<slug>/decks/epic.yaml", "templates/<slug>/epic-front.svg.j2",
                 "templates/<slug>/epic-back.svg.j2", "data/<slug>/decks/monsters.yaml",
                 "templates/<slug>/monster-front.svg.j2", "data/<slug>/decks/blessings.csv",
                 "data/<slug>/decks/roles.csv",  # a sheet headed in its own words, through columns:
                 "data/<slug>/decks/board.yaml", "templates/<slug>/board-front.svg.j2"):
        assert must in files, must
    ws = tmp_path / "ws"
    for path, text in files.items():
        target = ws / path.replace("<slug>", "demo")
        target.parent.mkdir(parents=True, exist_ok=True)
        if "/art/" in path:
            Image.new("RGB", (1000, 700), (120, 60, 30)).save(target)
        else:
            target.write_text(text, encoding="utf-8")
    (ws / "data" / "demo" / "draft.txt").write_text(DRAFT, encoding="utf-8")
    (ws / "templates" / "demo" / "icons").mkdir()
    for name in ("sword", "shield", "dango", "usagi", "tanuki"):  # the paper die's and the playing cards' suits' own icons (templates/<slug>/icons/, as the docs say)
        (ws / "templates" / "demo" / "icons" / f"{name}.svg").write_text(
            '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10"/></svg>')
    assert sorted(p.name for p in ws.iterdir()) == ["data", "layouts", "sheets", "templates"]  # no fonts/: pnpgen's own
    assert sorted(p.name for p in (ws / "templates").iterdir()) == ["demo"]  # no common/ copied
    out = tmp_path / "out"
    capsys.readouterr()
    assert run(ws, "build", "--game", "demo", "--no-rulebook", "--out", str(out)) == 0
    said = capsys.readouterr().err
    assert "sheet layout map-a3 is A3 paper (420×297 mm)" in said  # the map's A3 pages warned of, not its numbers by the joins
    assert not [line for line in said.splitlines() if "deck 'sections'" in line and "safe zone" in line], said
    game = load_game(Workspace(ws), "demo")
    # (the map's sections named by their letter, as the change report and reprint.txt call them: #1［A・0・0］ without label:)
    assert [p.label for p in next(d for d in game.decks if d.id == "sections").pieces] == ["A", "B", "C", "D"]
    # the terrain of the deck's options: 森's colour on section A (0305) and on both sides of the join (2912)
    assert run(ws, "check", "--game", "demo", "--svg", "--deck", "sections", "--out", str(out)) == 0
    faces = {p.name.split("-")[1].split(".")[0]: p.read_text(encoding="utf-8") for p in (out / "demo" / "svg" / "sections").iterdir()}
    assert faces["A"].count('fill="#8fbf7f"') == 3 and faces["B"].count('fill="#8fbf7f"') == 1, faces.keys()
    for deck in (d for d in game.decks if d.count):  # (a deck that prints nothing, a picture for the book: none)
        pdf = out / "demo" / f"{deck.id}.pdf"
        assert pdf.is_file(), pdf
        assert len(PdfReader(pdf).pages) >= 1
    screen = PdfReader(out / "demo" / "screen.pdf").pages[0].mediabox  # a deck's own paper: A3, the game's A4
    assert (round(float(screen.width) * 25.4 / 72), round(float(screen.height) * 25.4 / 72)) == (297, 420)
    assert {d.id: d.count for d in game.decks} == {"blessings": 20, "board": 1, "box": 1, "cards": 5, "dice": 1, "enemies": 4, "env-a": 2, "epic": 20, "events": 1, "generals": 4, "items": 1, "land": 5,
                                                  "log": 20, "map": 1, "market": 11, "mats": 2, "monsters": 5, "mydice": 3, "pad": 20,
                                                  "night-mats": 1, "obi": 1, "roles": 5, "scene": 0, "screen": 1, "sea-map": 1, "sections": 4, "spells": 5, "st01": 3, "starter-a": 5, "starter-b": 4, "starter-c": 2, "tcg": 3, "terrain-cards": 10, "terrain-panels": 10, "town": 1,
                                                  "units": 10}


def test_the_docs_back_for_face_down_hex_tiles_prints_the_title_in_the_middle(tmp_path):
    """A game trial: the documented back for ``tile-hex`` tiles (``back: {background: accent, boxes:
    {title: …}}``) set the game's title at 9 pt in the top-left corner of its box, off the tile's
    centre; the example now centres it. Built as written, its title's glyphs centred on the tile."""
    back = re.search(r"tiles drawn face\s+down: `(back: \{.*?\}\}\})`", DOCS, re.S).group(1)
    deck = f"name: タイル\nlayout: {{extends: tile-hex, {back}}}\npieces:\n  - {{title: 森, text: 本文}}\n"
    ws = make_workspace(tmp_path / "ws", deck=deck)
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    back_page = [g for g in glyphs(ws / "build" / "test" / "shop" / "cards.pdf")[1] if not g.char.isspace()]
    assert "".join(g.char for g in back_page) == "テストゲーム"
    page = PdfReader(ws / "build" / "test" / "shop" / "cards.pdf").pages[1].mediabox
    width, height = float(page.width) * 25.4 / 72, float(page.height) * 25.4 / 72
    left, right = back_page[0].x, back_page[-1].x + back_page[-1].size * 25.4 / 72  # full-width: an em each
    assert abs((left + right) / 2 - width / 2) < 1.0, (left, right, width)
    assert abs(back_page[0].y - height / 2) < 4.0, (back_page[0].y, height)


# a fence anywhere, also indented under a list item (docs/templates.md's steps)
ANY_FENCE = re.compile(r"^ *```(\w*)\n(.*?)^ *```", re.S | re.M)
# an inline link or picture, its target with an optional title (`[a](b "t")`, `[a](<b c>)`); a
# reference definition (`[a]: b`); an HTML link or picture
LINKS = (re.compile(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)"), re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?([^\s>]+)", re.M),
         re.compile(r"<(?:a|img)\s[^>]*?(?:href|src)=\"([^\"]+)\""))


def _anchors(text: str) -> set[str]:
    """The anchors GitHub gives a page: each heading's slug (numbered when repeated), and <a id>s."""
    found: set[str] = set(re.findall(r'<a id="([^"]+)"', text))
    seen: dict[str, int] = {}
    for heading in re.findall(r"^#{1,6} (.*)$", ANY_FENCE.sub("", text), re.M):
        plain = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading.replace("`", ""))
        slug = re.sub(r"[^\w\- ]", "", plain.strip().lower()).replace(" ", "-")
        found.add(f"{slug}-{seen[slug]}" if slug in seen else slug)
        seen[slug] = seen.get(slug, 0) + 1
    return found


def _doc_pages() -> list:
    return [(REPO / "README.md").resolve(), *sorted((REPO / "docs").resolve().glob("*.md"))]


def _links(text: str) -> list[str]:
    """The link targets of a Markdown page's prose (not those shown in code: `[a](b)` in backticks)."""
    prose = re.sub(r"`[^`\n]*`", "", ANY_FENCE.sub("", text))
    return [link for pattern in LINKS for link in pattern.findall(prose)]


def _broken(page, link: str, anchors: dict) -> str | None:
    """Why a link of ``page`` leads nowhere (None: it leads somewhere)."""
    if link.startswith(("http://", "https://", "mailto:")):
        return None
    path, _, anchor = link.partition("#")
    target = (page.parent / path).resolve() if path else page
    if path and not target.is_relative_to(REPO.resolve()):
        return "outside the repository (a clone, GitHub and the wheel have no such file)"
    if path and not target.exists():
        return "no such file"
    if anchor and anchor not in anchors.get(target, ()):
        return "no such heading there"
    return None


def test_every_link_between_the_docs_leads_somewhere():
    """README.md's and docs/*.md's links (inline, reference-style, HTML; pictures too) name files
    of the repository that exist and anchors their pages have."""
    pages = _doc_pages()
    anchors = {page: _anchors(page.read_text(encoding="utf-8")) for page in pages}
    broken = []
    links = 0
    for page in pages:
        for link in _links(page.read_text(encoding="utf-8")):
            why = _broken(page, link, anchors)
            if why:
                broken.append(f"{page.name}: {link}: {why}")
            links += 1
    assert broken == []
    assert links > 60


def test_the_link_check_finds_each_kind_of_broken_link(tmp_path):
    """The check above, on a page of each kind of link: it tells the broken ones, and only those."""
    page = (REPO / "docs" / "probe.md").resolve()  # never written: read as if it were in docs/
    text = ("# Probe\n\n## A heading: `code` here\n\n[ok](#a-heading-code-here) [ok](exports.md#doujin) "
            "[ok](../README.md#start-a-game-of-your-own) ![ok](img/overview.png) [ok](https://example.org/x)\n"
            "[gone](nowhere.md) [gone](#no-heading) [gone](exports.md#no-such) [gone](../../elsewhere.md)\n"
            '[gone](<img/none.png> "a title") <a href="missing.md">gone</a> `[shown](not-a-link.md)`\n\n'
            "[ref]: missing-too.md\n\n```sh\n[in code](not-a-link-either.md)\n```\n")
    anchors = {p: _anchors(p.read_text(encoding="utf-8")) for p in _doc_pages()} | {page: _anchors(text)}
    found = {link: _broken(page, link, anchors) for link in _links(text)}
    assert {link for link, why in found.items() if why} == {
        "nowhere.md", "#no-heading", "exports.md#no-such", "../../elsewhere.md", "img/none.png", "missing.md",
        "missing-too.md"}, found
    assert len(found) == 12, found


def test_every_docs_page_and_heading_pnpgen_names_is_there():
    """A message, a command's help or a shipped preset's `about:` names `docs/<page>.md#heading` for
    the designer to read: the page ships and has that heading."""
    anchors = {page.name: _anchors(page.read_text(encoding="utf-8")) for page in _doc_pages()[1:]}
    named = 0
    for path in sorted((REPO / "generator" / "pnpgen").rglob("*")):
        if path.suffix not in {".py", ".yaml", ".j2"}:
            continue
        for page, anchor in re.findall(r"docs/([a-z-]+\.md)(?:#([\w-]+))?", path.read_text(encoding="utf-8")):
            assert page in anchors, f"{path.name}: docs/{page}"
            assert not anchor or anchor in anchors[page], f"{path.name}: docs/{page}#{anchor}"
            named += 1
    assert named > 50


def test_every_built_in_macro_is_documented_with_its_arguments():
    """data-format.md's list of the macros gives each one's arguments and defaults as the file has them."""
    macros = (REPO / "generator" / "pnpgen" / "faces" / "builtin" / "common" / "macros.svg.j2").read_text(encoding="utf-8")
    said = " ".join(TEMPLATES_SECTION.split())
    found = re.findall(r"\{% macro (\w+\([^)]*\)) -?%\}", macros)
    assert len(found) >= 7  # ground, frame, band, badge, title, text_panel, placeholder_stamp (the pattern reads them)
    for signature in found:
        assert f"`m.{signature}`" in said, signature


def test_the_rulebook_listing_names_every_key_of_game_yamls_rulebook():
    """rulebook.md's `rulebook:` listing (data-format.md's once) gives each key the loader takes
    (style: was told only pages later)."""
    (block,) = [body for lang, body in FENCE.findall(DOCS) if lang == "yaml" and body.startswith("rulebook:\n")]
    for key in figures.KEYS:
        assert re.search(rf"^  {key}:", block, re.M), key


def test_the_deck_file_listing_names_every_key_a_deck_file_takes():
    """data-format.md's epic.yaml lists each key of a deck file, written or commented out (lint:
    and die: were told only in sections of their own)."""
    (block,) = [body for lang, body in FENCE.findall(DOCS) if body.startswith("# data/<slug>/decks/epic.yaml")]
    for key in deckfile.DECK_KEYS:
        assert re.search(rf"^(# )?{key}:", block, re.M), key


def test_the_die_s_rolled_face_is_named_by_one_function_everywhere():
    """exports.md said a script's ``getValue()`` returns a paper die's rolled face while its sources
    table named ``getRotationValue()``. Tabletop Simulator's API names ``getRotationValue()`` (its
    ``getValue()`` returns the same only for an object with rotation values): each mention of
    ``getValue()`` says so beside ``getRotationValue()``."""
    exports = (REPO / "docs" / "exports.md").read_text(encoding="utf-8")
    at = [m.start() for m in re.finditer(re.escape("`getValue()`"), exports)]
    assert at, "the Tabletop Simulator section no longer names how a script reads the die"
    for start in at:
        near = exports[max(0, start - 200):start]
        assert "`getRotationValue()`" in near and "rotation values" in exports[start:start + 120], near


def test_print_facts_lists_the_sleeves_for_every_card_format_as_sleeve_inserts_default_to_them(tmp_path):
    """docs/print-facts.md named no sleeve to buy for any format: its table gives every card format
    pnpgen knows, the card's size as data/formats.py has it and the sleeve --layout sleeve makes the
    inserts for without --sleeve (the trim + 3 mm), as a poker build's manifest records it."""
    import json

    from pnpgen.data.formats import CARD_FORMATS
    from pnpgen.impose.sleeve import default_sleeve

    text = (REPO / "docs" / "print-facts.md").read_text(encoding="utf-8")
    section = text[text.index("## Sleeves to buy for each card format"):]
    section = section[:section.index("\n## ")]
    rows = {m.group(1): (m.group(2), m.group(3)) for m in
            re.finditer(r"^\| `([a-z-]+)` \| (\d+×\d+) \| (\d+x\d+) \|", section, re.M)}
    assert set(rows) == set(CARD_FORMATS)
    for name, (card, sleeve) in rows.items():
        w, h = CARD_FORMATS[name]
        assert card == f"{w:g}×{h:g}", name
        assert sleeve == "{:g}x{:g}".format(*default_sleeve((w, h))), name
    ws = make_workspace(tmp_path / "ws")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1", "--layout", "sleeve") == 0
    deck = json.loads((ws / "build" / "test" / "manifest.json").read_text(encoding="utf-8"))["decks"][0]
    assert deck["sleeve_mm"] == [66, 91] and rows["poker"][1] == "66x91" and deck["reduced"] is False


@pytest.mark.parametrize("layout, heading", [("board", "The board boxes"), ("token-round", "The round token's boxes"),
                                             ("tile-hex", "The hex tile's boxes")])
def test_the_layout_boxes_tables_give_the_shipped_layouts_boxes(layout, heading):
    """A game trial: a player mat from `extends: board` put its deck zones over the board's
    picture, as the docs listed the card's boxes and not the board's. Each table gives each box's
    place as the shipped layout file writes it."""
    boxes = yaml.safe_load((FOLDER / "layouts" / f"{layout}.yaml").read_text(encoding="utf-8"))["boxes"]
    start = DOCS.index(heading)
    section = DOCS[start:DOCS.index("\n\n", DOCS.index("| box |", start))]
    rows = {m.group(1): m.group(2) for m in re.finditer(r"^\| `(\w+)` \| [^|]+\| ([^|]+)\|", section, re.M)}
    assert set(rows) == set(boxes), rows

    def said(value) -> str:
        return f"`{value}`" if isinstance(value, str) else str(value)
    for name, box in boxes.items():
        if "x" in box:
            place = f"{said(box['x'])}, {said(box['y'])}, {said(box['w'])} × {said(box['h'])}"
            assert rows[name].startswith(place), (name, rows[name])


def test_the_board_layouts_letter_size_in_the_layouts_table_prints_on_one_letter_sheet(tmp_path):
    """An English designer's player mat, `layout: board` on `paper: letter`, printed as two page
    tiles a mat; the layouts table said only "one A4 sheet". The size it gives for Letter is one sheet."""
    row = next(line for line in DOCS.splitlines() if line.startswith("| `board` |"))
    size = re.search(r"`size: \[(\d+), (\d+)\]` is one Letter sheet", row)
    assert size, row
    deck = f"name: Mat\nlayout: board\nsize: [{size[1]}, {size[2]}]\npieces:\n  - {{title: Mat, text: Draw pile here.}}\n"
    ws = make_workspace(tmp_path / "ws", deck=deck)
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1", "--paper", "letter") == 0
    assert len(PdfReader(ws / "build" / "test" / "cards.pdf").pages) == 1
    (ws / "data" / "test" / "decks" / "cards.yaml").write_text(deck.replace(f"size: [{size[1]}, {size[2]}]\n", ""),
                                                                encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1", "--paper", "letter") == 0
    assert len(PdfReader(ws / "build" / "test" / "cards.pdf").pages) == 2  # the 260×180 default: two tiles
