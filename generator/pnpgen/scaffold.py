"""``pnpgen new``: a new game written into the workspace (made here when there is none), its decks
drawn by built-in layouts, so the first build needs no template; and ``pnpgen layout``: the
layouts there are, and one written out as templates to customise."""

from __future__ import annotations

import argparse
import datetime
import os
import re
from dataclasses import dataclass
from pathlib import Path

from pnpgen.boxnet import TuckBox
from pnpgen.data import layouts, layoutsides, optionvalues
from pnpgen.data import validate as v
from pnpgen.data.formats import CARD_FORMATS, SINGLE_SIZE_SHAPES
from pnpgen.data.load import load_game
from pnpgen.data.markup import literal
from pnpgen.data.model import Layout, placeholder_word
from pnpgen.data.tuckbox import DEFAULTS as TUCK_DEFAULTS
from pnpgen.data.workspace import NoWorkspace, Workspace, find_workspace, refuse_folders_linked_out
from pnpgen.data.yamlsrc import Located, load_yaml
from pnpgen.errors import NAME_BYTES, InputError, suggest, too_long
from pnpgen.faces.layouts import compile_side
from pnpgen.safetext import NAME_CONTROL
from pnpgen.shapes import bounding_size

KINDS = optionvalues.NEW_GAME_KINDS
slug_option = optionvalues.new_game_slug  # the new game's folder name under data/


@dataclass(frozen=True)
class Kind:
    """One deck ``pnpgen new`` writes: its file, name, layout, counter word and pieces."""

    deck: str
    name: str
    layout: str
    counter: str  # 枚 個 …, as the draft counts it
    what: str  # the draft's description line
    pieces: str  # the pieces: block, YAML
    box: str = "title"  # the box the deck file's first comment changes, as an example


# a paper die's faces 1 to 6, each opposite the one that adds up to 7 with it
DICE_PIECES = """\
pieces:                       # a face is a number, a word or an icon: face6: "{star}"
  - {face1: "1", face2: "2", face3: "3", face4: "4", face5: "5", face6: "6", count: 2}
"""

# a tuck box for the cards (``box:``, written by ``new``: the cards deck's, else 60 poker cards);
# its text counts the cards it holds, as build and check hold it to
BOX_PIECES = """\
pieces:
  - title: {title}
    art: 未定                   # the box front's picture in data/{slug}/art/
    text: "カード{count}枚"
"""
BOX_PIECES_EN = """\
pieces:
  - title: {title}
    art: TBD                    # the box front's picture in data/{slug}/art/
    text: "{count} cards"
"""
BOX_HELD = "box: {{deck: {deck}}}             # holds decks/{deck}.yaml: its card size, and as many as it prints\n"
# a box this thin (inside depth, mm) leaves its top and sides too narrow for their titles at the
# print lint's 6 pt (tuck-box.yaml sets them in 0.68 of the depth): new writes the box without them
THIN_BOX_MM = 3.2
THIN_BOX_LAYOUT = ("layout: {{extends: tuck-box, boxes: {{top_title: null, left_spine: null, right_spine: null}}}}"
                   "   # {count} cards: {depth:g} mm deep, too thin for the top's and sides' titles; "
                   "'layout: tuck-box' prints them once the deck is thicker\n")
BOX_UNHELD = ("box: {cards: poker, count: 60}   # the cards it holds; box: {deck: ID} sizes it from a deck "
              "of this game\n")

DECKS = {
    "cards": Kind("cards", "カード", "card-poker", "枚", "（カードの説明を書いてください。）", """\
pieces:
  - title: カード１
    count: 2
    cost: 1
    icons: [vp]
    text: 未定（効果を書いてください）
    flavour: 未定（一言を書いてください）
    art: 未定                   # a picture in data/{slug}/art/, e.g. card1.png
  - title: カード２
    count: 2
    cost: 2
    text: 未定（効果を書いてください）
    art: 未定
"""),
    "tokens": Kind("tokens", "トークン", "token-round", "個", "（トークンの説明を書いてください。）", """\
pieces:
  - {title: トークン, value: 1, count: 10}
  - {title: トークン, value: 5, count: 5}
"""),
    "tiles": Kind("tiles", "タイル", "tile-hex", "枚", "（タイルの説明を書いてください。）", """\
pieces:
  - title: タイル１
    count: 3
    text: 未定（効果を書いてください）
    art: 未定
  - title: タイル２
    count: 3
    text: 未定（効果を書いてください）
    art: 未定
"""),
    "board": Kind("board", "ボード", "board", "枚", "（ボードの説明を書いてください。）", """\
pieces:
  - title: {title}
    text: 未定（ボードの説明を書いてください）
    art: 未定                   # the board's picture in data/{slug}/art/
"""),
    "standees": Kind("standees", "スタンディ", "standee", "体", "（スタンディの説明を書いてください。）", """\
pieces:
  - title: スタンディ１
    count: 2
    art: 未定                   # the figure, 31×50 mm with its bleed, in data/{slug}/art/
"""),
    "dice": Kind("dice", "ダイス", "d6", "個", "（ダイスの説明を書いてください。）", DICE_PIECES, "face1"),
    "box": Kind("box", "箱", "tuck-box", "個", "（カードを入れる箱。切り抜き、折って、のりしろを貼ります。）", BOX_PIECES),
}

# ``pnpgen new --lang en``: the same decks for a game kept in English (docs/data-format.md, Languages)
DECKS_EN = {
    "cards": Kind("cards", "Cards", "card-poker", "", "", """\
pieces:
  - title: Card 1
    count: 2
    cost: 1
    icons: [vp]
    text: TBD (write its effect)
    flavour: TBD (a line of flavour)
    art: TBD                    # a picture in data/{slug}/art/, e.g. card1.png
  - title: Card 2
    count: 2
    cost: 2
    text: TBD (write its effect)
    art: TBD
"""),
    "tokens": Kind("tokens", "Tokens", "token-round", "", "", """\
pieces:
  - {title: Token, value: 1, count: 10}
  - {title: Token, value: 5, count: 5}
"""),
    "tiles": Kind("tiles", "Tiles", "tile-hex", "", "", """\
pieces:
  - title: Tile 1
    count: 3
    text: TBD (write its effect)
    art: TBD
  - title: Tile 2
    count: 3
    text: TBD (write its effect)
    art: TBD
"""),
    "board": Kind("board", "Board", "board", "", "", """\
pieces:
  - title: {title}
    text: TBD (describe the board)
    art: TBD                    # the board's picture in data/{slug}/art/
"""),
    "standees": Kind("standees", "Standees", "standee", "", "", """\
pieces:
  - title: Standee 1
    count: 2
    art: TBD                    # the figure, 31×50 mm with its bleed, in data/{slug}/art/
"""),
    "dice": Kind("dice", "Dice", "d6", "", "", DICE_PIECES, "face1"),
    "box": Kind("box", "Box", "tuck-box", "", "", BOX_PIECES_EN),
}

# An English game's own lines: its language, the Noto faces for its text, and US Letter on offer.
GAME_YAML_EN = """\
languages: [en]               # kept in English: build/<slug>/ is the English edition
fonts:
  en: {gothic: NotoSans-Regular, bold: NotoSans-Bold, mincho: NotoSerif-Regular}
"""
LETTER_OFFER_EN = "# paper: letter               # US Letter home sheets and booklet (default: A4)\n"

# ``--paper``: the paper asked for, written (an American designer's Letter printer fed A4 sheets
# crops their foot or shrinks them to 94 %: every card printed the wrong size).
PAPER_LINE = "paper: {paper:<23}# the home sheets' and the booklet's paper (a4, letter, a3, legal, tabloid)\n"

GAME_YAML = """\
# {title} — written by `pnpgen new`; see docs/data-format.md (`pnpgen docs data-format` prints it).
title: {title_yaml}
draft: 1                      # the {draft_word} number of draft.txt
players: {open_word}{open_pad}# e.g. 2-4
date: {date}
draft_file: draft.txt
palette:                      # the built-in layouts draw with these names (docs/data-format.md, Layouts)
  ink: "#23262e"              # text
  paper: "#fbf8f1"            # ground of cards, tokens and tiles
  accent: "#3b4a8c"           # title bands, frames, card backs
  panel: "#efe9dc"            # behind rules text
"""

DECK_YAML = """\
# {name}: drawn by the built-in layout {layout} (docs/data-format.md, Layouts: `pnpgen docs data-format`).
# Change a box for this deck only:   layout: {{extends: {layout}, boxes: {{{box}: {{size: 12}}}}}}
# Or write the layout out as templates to edit: pnpgen layout export {layout}
name: {name}
layout: {layout}
{size_hint}{pieces}"""

# An English card deck's line for the inch shops: card-poker is 63×88 mm, a size The Game Crafter,
# MakePlayingCards and DriveThruCards do not print (docs/data-format.md, named formats).
US_POKER_EN = ("# size: [2.5in, 3.5in]        # uncomment for The Game Crafter, MakePlayingCards, DriveThruCards: "
               "their poker card (card-poker alone is 63×88 mm)\n")


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _count(kind: Kind) -> int:
    """Copies the deck's pieces print, as the draft's component list must say."""
    import yaml

    pieces = yaml.safe_load(kind.pieces.replace("{title}", "x").replace("{slug}", "x").replace("{count}", "1"))["pieces"]
    return sum(int(p.get("count", 1)) for p in pieces)


def _draft(title: str, kinds: list[Kind]) -> str:
    wide = str.maketrans("0123456789", "０１２３４５６７８９")
    parts = [f"■■　{title}　草案１", "", "■　概要", "", "　（ゲームの概要を書いてください。）", "",
             "■　コンポーネント", ""]
    for kind in kinds:
        parts += [f"◇{kind.name}（{str(_count(kind)).translate(wide)}{kind.counter}）", f"　{kind.what}", ""]
    parts += ["■　ゲームの準備", "", "　（準備の手順を書いてください。）", "",
              "■　ゲームの進行", "", "　（手番の流れを書いてください。）", "",
              "■　ゲームの終了", "", "　（終了条件と勝利条件を書いてください。）", ""]
    return "\n".join(parts)


def _draft_en(title: str, kinds: list[Kind]) -> str:
    """An English draft in the marks docs/rulebook.md gives Latin drafts: ``#`` headings, a
    components list whose bullets name the decks with their counts; the rest notes to replace."""
    parts = [f"# {title} (Draft 1)", "", "## Overview", "", "(Write what the game is about.)", "",
             "## Components", ""]
    parts += [f"- {_count(kind)} {kind.name}" for kind in kinds]
    parts += ["", "## Setup", "", "(Write the setup as numbered steps: 1. Shuffle the cards.)", "",
              "## Playing the game", "", "(Write a turn as numbered steps, 1. 2. 3., each a title and its text.)", "",
              "## End of the game", "", "(Write when the game ends and who wins.)", ""]
    return "\n".join(parts)


def taken(path: Path) -> bool:
    """Is the name in use, by a file, a folder or a link (even one leading nowhere)?"""
    return path.exists() or path.is_symlink()


def write_new(files: dict[Path, str], command: str) -> None:
    """Write every one of ``files`` as a new file (never over one, nor through a link), or none:
    the ones written are removed again when one cannot be."""
    written: list[Path] = []
    try:
        for path, text in files.items():
            with open(path, "x", encoding="utf-8", newline="\n") as f:
                written.append(path)
                f.write(text)
    except OSError as e:
        for path in written:
            path.unlink(missing_ok=True)
        said = (f"already exists; {command} never overwrites" if isinstance(e, FileExistsError)
                else f"cannot be written: {e.strerror}")
        raise InputError(f"{e.filename} {said}", expected="another name, in a folder you may write in") from None


def new(args: argparse.Namespace) -> int:
    try:
        ws = find_workspace()
        made = []
    except NoWorkspace:
        ws = Workspace(Path.cwd().resolve())
        made = [ws.data, ws.templates]
        # a data/ (or templates/) there already, a link leading out of the folder: the game was
        # written through it, outside the workspace, where every later command refused to read it
        refuse_folders_linked_out(ws.root)
    slug, title = args.slug, args.title or args.slug
    folder = ws.game_dir(slug)
    if taken(folder):
        raise InputError(f"data/{slug} already exists; pnpgen new never overwrites",  # (named from the workspace)
                         expected="a new slug, or remove the folder first")
    if title.strip() == "" or len(title) > v.LABEL_CHARS or NAME_CONTROL.search(title):  # (an escape: a game.yaml it cannot read)
        raise InputError(f"--title {v.show(title)} is not a title",
                         expected="one line of at most 200 characters, without control characters")
    english = getattr(args, "lang", "ja") == "en"
    paper = getattr(args, "paper", None)
    kinds = [(DECKS_EN if english else DECKS)[k] for k in dict.fromkeys(args.kind or ["cards"])]
    files = {
        folder / "game.yaml": GAME_YAML.format(title=title, title_yaml=_quoted(title), draft_word="draft" if english
                                               else "草案", date=datetime.date.today().isoformat(),
                                               open_word=placeholder_word("en" if english else "ja"),
                                               open_pad=" " * (18 if english else 17))
        + (GAME_YAML_EN if english else "")
        + (PAPER_LINE.format(paper=paper) if paper else LETTER_OFFER_EN if english else ""),
        folder / "draft.txt": (_draft_en if english else _draft)(title, kinds),
    }
    held = next((k for k in kinds if k.deck == "cards"), None)  # the deck a tuck box holds, when new writes one
    # the title as the box's and board's printed text (``literal``: `Dice {Beta}` is no icon), each
    # blank filled once (a title holding "{slug}" had it filled in its turn: the game's slug printed)
    fill = {"title": _quoted(literal(title)), "slug": slug, "count": str(_count(held) if held else 60)}
    for kind in kinds:
        pieces = re.sub(r"\{(title|slug|count)\}", lambda m: fill[m.group(1)], kind.pieces)
        size_hint = US_POKER_EN if english and kind.layout == "card-poker" else ""
        text = None
        if kind.layout == "tuck-box":
            size_hint = BOX_HELD.format(deck=held.deck) if held else BOX_UNHELD
            count = _count(held) if held else 60
            depth = round(count * TUCK_DEFAULTS["card_thickness"] + TUCK_DEFAULTS["allowance"], 2)
            if depth < THIN_BOX_MM:
                text = THIN_BOX_LAYOUT.format(count=count, depth=depth)
        files[folder / "decks" / f"{kind.deck}.yaml"] = DECK_YAML.format(name=kind.name, layout=kind.layout,
                                                                          size_hint=size_hint, pieces=pieces,
                                                                          box=kind.box)
        if text is not None:  # (a thin box: its spine titles left out)
            files[folder / "decks" / f"{kind.deck}.yaml"] = files[folder / "decks" / f"{kind.deck}.yaml"].replace(
                f"\nlayout: {kind.layout}\n", "\n" + text, 1)
    ignore = ws.root / ".gitignore"
    if made and not (ignore.exists() or ignore.is_symlink()):  # a new workspace: its output is never committed
        files[ignore] = "build/\n"
    blocked = [p for p in made if (p.exists() or p.is_symlink()) and not p.is_dir()]
    if blocked:  # (data/ was made, then templates/ failed: 'File exists', an empty data/ left behind)
        raise InputError(f"{blocked[0].name} is a file, not a folder: a new workspace here needs data/ and templates/",
                         path=blocked[0], expected=f"{blocked[0].name}/ a folder (rename or remove the file), or "
                         "another folder for the workspace")
    try:
        for path in made:
            path.mkdir(exist_ok=True)
        for path in [*{p.parent: p for p in files}, folder / "art"]:
            path.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise InputError(f"cannot make the folder {e.filename}: {e.strerror}", path=folder,
                         expected="a workspace you may write in") from None
    write_new(files, "pnpgen new")
    if getattr(args, "quiet", False):  # -q: only warnings and errors, and new has none to say
        return 0
    rel = folder.relative_to(ws.root).as_posix()
    print(f"{slug}: a new game in {rel}/" + (" (a new workspace in this folder: data/, templates/)" if made else ""))
    for path in files:
        print(f"  {path.relative_to(ws.root).as_posix()}")
    word = placeholder_word("en" if english else "ja")
    print(f"{word} (open) values it wrote, printed in magenta and listed by pnpgen check: the player count, "
          "the pieces' texts and art")
    print("Next:")
    print(f"  1. pnpgen build --game {slug}   # PDFs in build/{slug}/; {word} values print in magenta")
    if english and not paper:  # (the offer in game.yaml is a comment: a first build is on A4)
        print(f"     its home sheets are A4: for US Letter, uncomment paper: letter in {rel}/game.yaml")
    print(f"  2. edit {rel}/decks/*.yaml: titles, counts, texts; pictures go in {rel}/art/")
    print(f"  3. write the rules in {rel}/draft.txt (its " + ("Components bullets" if english else "◇ components")
          + " match the decks' names)")
    print(f"  4. pnpgen check --game {slug}   # lists every {word} still open")
    deck = next((p.stem for p in files if p.parent.name == "decks"), "ID")
    print(f"  5. change a layout's box per deck, or 'pnpgen layout export --game {slug} --deck {deck} --out "
          f"templates/{slug}/' for a deck's templates to edit (then the deck lines it prints)")
    return 0


def trim_of(g: layouts.Geometry) -> tuple[float, float]:
    if g.format is not None:
        return CARD_FORMATS[g.format]
    if g.size is None:
        raise g.no_size()
    if g.shape in SINGLE_SIZE_SHAPES:
        return bounding_size(g.shape, g.size[0], g.options.get("orientation", "pointy"))
    return g.size[0], g.size[1]


def layout(args: argparse.Namespace) -> int:
    try:
        root: Path | None = find_workspace().root
    except NoWorkspace:
        root = None
    if args.action == "list":
        own = layouts.own_names(root)
        rows = []
        for name in dict.fromkeys(own + layouts.builtin_names()):
            raw = layouts.resolve(root, name, Located(Path("pnpgen layout"), None), ())
            g = layouts.geometry(raw)
            size = "the deck's size" if g.format is None and g.size is None else "{:g}×{:g} mm".format(*trim_of(g))
            where = "layouts/" if name in own else "built-in"
            desc = raw.top["description"].value if "description" in raw.top else ""
            rows.append((name, g.kind, g.shape, size, where, str(desc)))
        widths = [max(len(row[i]) for row in rows) for i in range(5)] if rows else []
        for row in rows:  # each column as wide as its widest entry: one a size long as 57.735×50 mm
            print("  ".join(v.ljust(w) for v, w in zip(row, widths)) + "  " + row[5])
        return 0
    name = args.name
    deck_fields: list[str] = []  # a deck's fields, its own with its layout's
    if args.deck is not None or args.game is not None:
        built, deck_lines, name, deck_fields = _deck_layout(args)
    elif name is None:
        raise InputError("layout export needs a layout name", expected="pnpgen layout export card-poker "
                         "(pnpgen layout list names them), or --game G --deck D for a deck's own")
    else:
        raw = layouts.resolve(root, name, Located(Path("pnpgen layout export"), None), ())
        g = layouts.geometry(raw)
        built = layoutsides.finish(raw, trim_of(g), g.shape)
        size = f"format: {g.format}" if g.format else "box: {" + ", ".join(
            f"{k}: {o.value}" for k, o in raw.box.items()) + "}" if g.shape == "tuckbox" else (
            f"size: {g.size[0]:g}" if g.shape in SINGLE_SIZE_SHAPES else f"size: [{g.size[0]:g}, {g.size[1]:g}]")  # type: ignore[index]
        deck_lines = [f"kind: {g.kind}", f"shape: {g.shape}",
                      *(f"{k}: {raw.top[k].value}" for k in ("orientation", "corner_radius") if k in raw.top), size,
                      *([_points_line(layouts.outline(g, trim_of(g)))] if "points" in g.options else [])]
    front = Path(f"{name}-front.svg.j2")
    if args.out:  # a file, or a folder to write <name>-front.svg.j2 in (templates/<game>/)
        folder_meant = args.out.endswith(("/", "\\")) or os.path.isdir(args.out) \
            or _games_templates(root, Path(args.out))  # (False for a name too long; templates/<game> not made yet)
        front = Path(args.out) / front if folder_meant else Path(args.out)
    base = front.name[:-len(".svg.j2")] if front.name.endswith(".svg.j2") else front.stem
    back = front.with_name(base.removesuffix("-front") + "-back.svg.j2")
    if back == front:
        back = front.with_name(base + "-back.svg.j2")
    outputs = {front: compile_side(built, "front")}
    if built.back is not None:
        outputs[back] = compile_side(built, "back")
    for path in outputs:
        if path.name.startswith("-"):  # (--out -: files '-' and '--back.svg.j2', which rm * takes for an option)
            raise InputError(f"--out: {str(path)!r} names a file starting with '-', which commands take for an option",
                             expected="a template's file name, e.g. --out templates/<game>/mine.svg.j2, or a folder")
        if not path.name.endswith(".svg.j2"):  # (x.txt: no template to the docs, the lints or an editor)
            stem = path.name.split(".")[0]
            raise InputError(f"{str(path)!r} is not a template's name: the templates a deck names end in .svg.j2",
                             key="--out", expected=f"--out {path.with_name(stem + '.svg.j2')} (its back written "
                             f"beside it as {stem}-back.svg.j2), or a folder to write {name}-front.svg.j2 in")
        if too_long(str(path)):
            raise InputError(f"--out: {str(path)[:40]!r}… is too long for a file name",
                             expected=f"each part of the name at most {NAME_BYTES} bytes (UTF-8)")
        if taken(path):
            raise InputError(f"{path} already exists; pnpgen layout export never overwrites", expected="another --out")
        if root is not None and _led_out(root, path):
            raise InputError(f"--out: {path.parent} leads through a link to a folder outside the workspace",
                             expected="a folder of the workspace (templates/<game>/), or a folder elsewhere named "
                             "as it is, not through a link")
        if not path.parent.is_dir() and not _games_templates(root, path.parent):
            raise InputError(f"--out: folder {path.parent} does not exist",
                             expected="a file in an existing folder, or an existing folder (templates/<game>/)")
    for folder in sorted({path.parent for path in outputs if not path.parent.is_dir()}):
        try:  # a game's templates/<game>/, which pnpgen new leaves unmade
            folder.mkdir(parents=True)
        except OSError as e:
            raise InputError(f"cannot make the folder {folder}: {e.strerror}", expected="a workspace you may write in") from None
    write_new(outputs, "pnpgen layout export")
    for path in outputs:
        print(f"wrote {path}")
    print(_where_next(root, front, args.game, args.deck))
    for line in deck_lines:
        print(f"  {line}")
    print(f"  front: {front.name}")
    if built.back is not None:
        print(f"  back: {back.name}")
    sides = [built.front] + ([built.back] if built.back is not None else [])
    boxes = [dict(box.options, type=box.type) for side in sides for box in side.boxes]
    # art only boxes of placeholder: false show: a deck of templates says so of the field
    unplaceheld = {box.get("field") for box in boxes if box["type"] == "image"} - {
        box.get("field") for box in boxes if box.get("placeholder")}
    fields = ", ".join(f"{k}: {{type: image, placeholder: false}}" if k in unplaceheld and t == "image" else f"{k}: {t}"
                       for k, t in built.fields)
    unread = [field for field in deck_fields if field not in dict(built.fields)]
    print(f"  fields: {{{fields}}}" + (f"   # the deck's own fields no box reads, which the layout does not show: "
                                       f"{', '.join(unread)} (add them here as the deck file gives them)"
                                       if unread else ""))
    if built.stand_up is not None:  # a deck of templates names its standee's figure by its box in mm
        x, y, w, h = built.stand_up  # (its art may run into the bleed: the piece stands as cut, at the trim)
        (x0, y0), (x1, y1) = (max(x, 0.0), max(y, 0.0)), (min(x + w, built.trim_mm[0]), min(y + h, built.trim_mm[1]))
        box = ", ".join(f"{round(n, 3):g}" for n in (x0, y0, x1 - x0, y1 - y0))
        print(f"  stand_up: [{box}]   # Tabletop Simulator: the figure that stands up; a standee, not a counter")
    if built.die is not None:  # a deck of templates names its die's faces by their boxes in mm
        faces = ", ".join("[" + ", ".join(f"{n:g}" for n in box) + "]" for box in built.die)
        print(f"  die: [{faces}]   # Tabletop Simulator: the faces 1 to 6, a die that rolls")
    return 0


def _led_out(root: Path, path: Path) -> bool:
    """Whether ``path``, named inside the workspace, is written outside it through a link (a
    stranger's ``templates/<game>`` leading to a folder of yours): what is written there no build
    reads, as it reads no template through such a link."""
    absolute = Path(os.path.abspath(path))
    if not absolute.is_relative_to(root):
        return False
    folder = absolute.parent
    while not os.path.lexists(folder) and folder != root:  # (templates/<game>/ not made yet)
        folder = folder.parent
    try:
        return not folder.resolve(strict=True).is_relative_to(root.resolve())
    except (OSError, RuntimeError):  # a link loop, or a link leading nowhere
        return True


def _held_deck(source: Path) -> tuple[str, str] | None:
    """What a tuck box deck's ``box: {deck: …}`` or ``{decks: […]}`` (or its layout's) holds, as
    the YAML says it: ``("deck", "cards")``, ``("decks", "[cards, extras]")``."""
    doc = load_yaml(source)
    data = doc.data if isinstance(doc.data, dict) else {}
    own = data.get("box")
    own = own if isinstance(own, dict) else {}
    said = {k: own[k] for k in ("deck", "decks") if k in own} \
        or {k: g.value for k, g in layouts.resolve(find_workspace().root, data.get("layout"), doc).box.items()
            if k in ("deck", "decks")}
    for key, value in said.items():
        if key == "deck" and isinstance(value, str):
            return key, value
        if key == "decks" and isinstance(value, list):
            return key, "[" + ", ".join(map(str, value)) + "]"
    return None


def _games_templates(root: Path | None, folder: Path) -> bool:
    """Is ``folder`` a game's own templates folder, ``templates/<game>/`` of a game in ``data/``?
    pnpgen new makes no such folder (a game of layouts has no templates), so the exported
    templates' --out, as the docs write it, made it an error; it is made."""
    if root is None:
        return False
    folder, templates = folder.absolute(), (root / "templates").absolute()
    return (folder.parent == templates and not templates.is_symlink() and not folder.is_symlink()  # (none leading out)
            and (root / "data" / folder.name / "game.yaml").is_file())


def _where_next(root: Path | None, front: Path, game: str | None, deck: str | None) -> str:
    """What to do with exported templates, true to where they went: written in a game's
    templates folder, only the deck is left to edit; written elsewhere, they are to be moved."""
    folder = front.absolute().parent
    templates = (root / "templates").absolute() if root is not None else None
    there = folder.name if templates is not None and folder.parent == templates else None
    if there is not None and game in (None, there):  # already in templates/<game>/
        deck_file = f"data/{there}/decks/{deck}.yaml" if deck is not None else "the deck"
        return f"They are in templates/{there}/: write in {deck_file}, instead of 'layout:':"
    if game is not None and deck is not None:  # the deck's own: its folder and file by name
        return f"Put them in templates/{game}/ and write in data/{game}/decks/{deck}.yaml, instead of 'layout:':"
    return "Put them in templates/<game>/ and write in the deck, instead of 'layout:':"


def _deck_layout(args: argparse.Namespace) -> tuple[Layout, list[str], str, list[str]]:
    """A deck's layout as it builds (its overrides and size applied), for ``--game G --deck D``,
    and the deck's fields, in the order its pieces give them (its own with the layout's)."""
    if args.game is None or args.deck is None:
        raise InputError("--game and --deck go together", expected="--game G --deck D (see 'pnpgen list')")
    game = load_game(find_workspace(), args.game)
    try:
        deck = game.deck(args.deck)
    except KeyError:
        raise InputError(f"game {args.game} has no deck {args.deck!r}{suggest(args.deck, [d.id for d in game.decks])}",
                         expected="one of " + ", ".join(d.id for d in game.decks)) from None
    if deck.layout is None:
        raise InputError(f"deck {args.deck} is drawn by templates ({deck.front}), not by a layout", path=deck.source,
                         expected="a deck with 'layout:'")
    w, h = deck.trim_mm
    if deck.format != "custom":
        size = f"format: {deck.format}"
    elif deck.shape in ("circle", "hex", "trihex"):
        flat = deck.options.get("orientation") == "flat"
        across = (h if flat else w) / (2 if deck.shape == "trihex" else 1)
        size = f"size: {across:g}"
    elif deck.shape == "tuckbox":  # its figures as built: the inside as the cards, no more play
        b = TuckBox(*deck.options["box"])
        size = (f"box: {{cards: [{b.w:g}, {b.h:g}], thickness: {b.d:g}, allowance: 0, tuck: {b.tuck:g}, "
                f"glue: {b.glue:g}, dust: {b.dust:g}, chamfer: {b.chamfer:g}, notch: {b.notch:g}}}")
        held = _held_deck(deck.source)
        if held is not None:  # those figures are today's count of that deck's cards: said, not lost unseen
            key, value = held
            those = "that deck's" if key == "deck" else "those decks'"
            size += (f"   # the box as built for {key} {repr(value) if key == 'deck' else value} as it is now: it no "
                     f"longer follows {those} cards and count (box: {{{key}: {value}, …}} in its place does)")
    else:
        size = f"size: [{w:g}, {h:g}]"
    lines = [f"kind: {deck.kind}", f"shape: {deck.shape}",
             *(f"{k}: {deck.options[k]}" for k in ("orientation", "corner_radius") if k in deck.options), size,
             *([_points_line(deck.options["points"])] if "points" in deck.options else [])]
    return deck.layout, lines, deck.id, list(dict.fromkeys(key for piece in deck.pieces for key in piece.values))


def _points_line(points: list[tuple[float, float]]) -> str:
    """A polygon's outline as a deck file gives it, in mm (a layout's worked out for its size)."""
    return "points: [" + ", ".join(f"[{round(x, 3):g}, {round(y, 3):g}]" for x, y in points) + "]"
