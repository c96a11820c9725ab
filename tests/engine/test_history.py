"""History: each good build that changes the game records a version; log, diff, tag, reprint --since."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import BACK, DECK_YAML, FRONT, GAME_YAML, REPO, make_workspace, run
from rulebook.test_rulebook_english import english_workspace

NAMES = [f"カード{i}" for i in range(1, 6)]


BUILD = ("build", "--game", "test", "--no-rulebook", "--jobs", "1", "--quiet")


def _build(ws: Path) -> None:
    assert run(ws, *BUILD) == 0


def _edit(ws: Path, old: str, new: str) -> None:
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    text = deck.read_text(encoding="utf-8")
    assert old in text
    deck.write_text(text.replace(old, new), encoding="utf-8")


def _history(ws: Path) -> Path:
    return ws / "build" / ".history" / "test"


def test_diff_quotes_an_english_text_in_english_quotes(tmp_path, capsys, built_copy):
    """A game trial: an English card's text edit read ``text: 「Gain 2 coins.」 → 「Gain 3 coins.」``
    in the changelog for playtesters; a text in Japanese keeps 「」, any other is in “”."""
    ws = built_copy(tmp_path / "ws", *BUILD, pieces=NAMES)
    _edit(ws, "text: 本文カード3}", "text: Gain 3 coins.}")
    _build(ws)
    capsys.readouterr()
    assert run(ws, "diff", "--game", "test") == 0
    assert "- カード3：text：「本文カード3」 → “Gain 3 coins.”" in capsys.readouterr().out


def test_diff_lists_exactly_the_edits_made_and_log_and_tag_name_the_versions(tmp_path, capsys, built_copy):
    ws = built_copy(tmp_path / "ws", *BUILD, pieces=NAMES)  # built once: v1
    _edit(ws, "text: 本文カード2}", "text: 本文カード2, count: 3}")
    _edit(ws, "text: 本文カード4}", "text: 書き直した}")
    _edit(ws, "  - {name: カード5, text: 本文カード5}\n", "  - {name: 新札, text: 新しい}\n")
    _build(ws)
    _build(ws)  # up to date: no new version
    assert sorted(p.name for p in _history(ws).iterdir()) == ["v00001.json", "v00002.json"]
    capsys.readouterr()
    assert run(ws, "diff", "--game", "test", "--format", "json") == 0
    d = json.loads(capsys.readouterr().out)
    assert (d["from"]["version"], d["to"]["version"]) == ("v1", "v2")
    cards = d["decks"]["cards"]
    assert cards["count"] == [5, 7]
    assert cards["counts"] == [{"piece": "カード2", "old": 1, "new": 3}]
    assert cards["fields"] == [{"piece": "カード4", "field": "text", "old": "本文カード4", "new": "書き直した"}]
    assert cards["added"] == [{"piece": "新札", "count": 1}] and cards["removed"] == [{"piece": "カード5", "count": 1}]
    assert list(d["decks"]) == ["cards"] and cards["faces"] == [] and cards["back_changed"] is False
    assert run(ws, "diff", "--game", "test", "v1", "v2") == 0
    md = capsys.readouterr().out
    assert md.startswith("# test: v1 → v2\n")
    assert "- カード2：×1 → ×3" in md and "- カード4：text：「本文カード4」 → 「書き直した」" in md
    assert "- 追加：新札 ×1" in md and "- 削除：カード5 ×1" in md  # (the game's language: Japanese)
    assert run(ws, "tag", "--game", "test", "playtest-3", "v1") == 0
    capsys.readouterr()
    assert run(ws, "log", "--game", "test") == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("v2 ") and "cards 7" in lines[0]
    assert lines[1].startswith("v1 ") and lines[1].endswith("[playtest-3]") and "cards 5" in lines[1]
    assert run(ws, "diff", "--game", "test", "playtest-3", "latest", "--format", "json") == 0
    d = json.loads(capsys.readouterr().out)
    assert d["decks"]["cards"]["count"] == [5, 7]
    assert (d["from"]["tags"], d["to"]["tags"]) == (["playtest-3"], [])
    # the changelog for playtesters names the set they hold by its tag, not only v1 (they never saw
    # `pnpgen log`): a designer's `diff playtest-1 latest` was headed `# harbour: v3 → v4`
    assert run(ws, "diff", "--game", "test", "playtest-3", "latest") == 0
    assert capsys.readouterr().out.startswith("# test: playtest-3 (v1) → v2\n")


def test_history_skips_a_damaged_entry_and_is_bounded(tmp_path, capsys, monkeypatch, built_copy):
    from pnpgen.engine import history, recording

    ws = built_copy(tmp_path / "ws", *BUILD, pieces=NAMES)  # built once: v1
    _edit(ws, "text: 本文カード2}", "text: 本文カード2, count: 2}")
    _build(ws)
    v2 = _history(ws) / "v00002.json"
    v2.write_text(v2.read_text(encoding="utf-8").replace('"count": 6', '"count": 60'), encoding="utf-8")
    capsys.readouterr()
    assert run(ws, "log", "--game", "test") == 0
    lines = capsys.readouterr().out.splitlines()  # the damaged v2 is not trusted, and said so in its place
    assert lines[0] == "v2     damaged: build/.history/test/v00002.json is not as pnpgen wrote it, and not read", lines
    assert [ln.split()[0] for ln in lines] == ["v2", "v1"]
    # trial: an entry edited by hand was "no version 'v2'": it is damaged, at its file, and what to do said
    for args in (["diff", "v2"], ["reprint", "--since", "2"], ["tag", "play", "v2"]):
        assert run(ws, *args, "--game", "test") == 2
        err = capsys.readouterr().err
        assert err.startswith("pnpgen: error: build/.history/test/v00002.json: version: version ") and \
            "is damaged: its file is not as pnpgen wrote it (changed by hand or by another program: its check no " \
            "longer matches), so it is not read (expected the file as pnpgen wrote it, restored from a backup" in err \
            and "or another version: a version 'pnpgen log' lists (v1)" in err and err.count("\n") == 1, err
    monkeypatch.setattr(recording, "KEEP", 2)
    _edit(ws, "count: 2}", "count: 3}")
    _build(ws)  # v3; the oldest (v1) pruned, the damaged v2 counted and kept as the newer
    assert sorted(p.name for p in _history(ws).iterdir()) == ["v00002.json", "v00003.json"]
    assert [v.name for v in history.versions(ws / "build", "test")] == ["v3"]


def test_reprint_since_a_version_holds_every_copy_changed_since(tmp_path, capsys, built_copy):
    from pypdf import PdfReader

    ws = built_copy(tmp_path / "ws", *BUILD, pieces=NAMES)  # built once: v1
    _edit(ws, "text: 本文カード2}", "text: 本文カード2, count: 2}")
    _build(ws)
    _edit(ws, "text: 本文カード4}", "text: 書き直した}")
    _build(ws)
    capsys.readouterr()
    assert run(ws, "reprint", "--game", "test", "--since", "v1") == 0
    said_on_screen = capsys.readouterr().out  # paths relative to the workspace, as every message's
    assert said_on_screen == "test: build/test/reprint-since-v1.pdf, build/test/reprint-since-v1.txt\n"
    out = ws / "build" / "test"
    pages = PdfReader(out / "reprint-since-v1.pdf").pages
    assert [p.get_contents().get_data().count(b" Do") for p in pages] == [2, 2]  # カード2 once more, カード4 anew
    said = (out / "reprint-since-v1.txt").read_text(encoding="utf-8")
    assert "1 × カード2" in said and "1 × カード4" in said and "1 × カード4（古い版）" in said
    assert "v1 (" in said.splitlines()[0]


def test_reprint_since_builds_with_the_jobs_it_is_given_and_writes_what_one_worker_writes(tmp_path, capsys, built_copy,
                                                                                              monkeypatch):
    """reprint --since built the game with one worker whatever --jobs said; it takes --jobs as
    build does, and its files are those of one worker."""
    from pnpgen.engine import game

    ws = built_copy(tmp_path / "ws", *BUILD, pieces=NAMES)  # v1
    _edit(ws, "text: 本文カード4}", "text: 書き直した}")
    _build(ws)
    given = []

    def build_game(*args, **kwargs):
        given.append(args[2].jobs)
        return real(*args, **kwargs)

    real = game.build_game
    monkeypatch.setattr(game, "build_game", build_game)
    out = ws / "build" / "test"
    files = {}
    for jobs in ("3", "1"):
        assert run(ws, "reprint", "--game", "test", "--since", "v1", "--jobs", jobs) == 0
        files[jobs] = [(out / f"reprint-since-v1{ext}").read_bytes() for ext in (".pdf", ".txt")]
    assert given == [3, 1]
    assert files["3"] == files["1"] and b"%PDF" in files["3"][0][:8]
    assert "1 × カード4" in files["3"][1].decode("utf-8")


def test_bad_version_and_tag_names_are_one_line(tmp_path, capsys):
    import pytest

    ws = make_workspace(tmp_path / "ws", NAMES)
    assert run(ws, "log", "--game", "test") == 0
    assert "no recorded version yet" in capsys.readouterr().out
    assert run(ws, "diff", "--game", "test") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no recorded version" in err and "Traceback" not in err
    _build(ws)
    with pytest.raises(SystemExit) as e:
        run(ws, "tag", "--game", "test", "v7")
    assert e.value.code == 2 and "not a tag name" in capsys.readouterr().err
    assert run(ws, "reprint", "--game", "test", "--since", "v9") == 2
    assert "no version 'v9'" in capsys.readouterr().err
    # a tag mistyped is offered the one meant, as a mistyped game is (README.md); one of another
    # number is no slip (playtest-2 not made yet: its copies are not playtest-1's), nor is a version
    assert run(ws, "tag", "--game", "test", "playtest-1") == 0
    for typed, offered in (("playtest1", "playtest-1"), ("Playtest-1", "playtest-1"), ("lates", "latest"),
                           ("playtest-2", None), ("v2", None)):
        assert run(ws, "reprint", "--game", "test", "--since", typed) == 2
        err = capsys.readouterr().err
        assert f"no version {typed!r}" + (f"; did you mean {offered}? (expected" if offered else " (expected") in err, err


def test_a_tag_name_starting_with_a_dash_or_only_dots_is_refused(tmp_path, capsys):
    """``pnpgen tag -- -x`` and ``tag ..`` were taken: harmless in tags.json, but ``reprint --since -x``
    reads -x as an option and ``..`` reads as a folder to a designer. Refused with the rule; a
    name with a dash or a dot inside is still one."""
    import pytest

    ws = make_workspace(tmp_path / "ws", NAMES)
    _build(ws)
    for name in ("-x", "--x", ".", "..", "..."):
        with pytest.raises(SystemExit) as e:
            run(ws, "tag", "--game", "test", "--", name)
        err = capsys.readouterr().err
        assert e.value.code == 2 and f"{name!r} is not a tag name" in err and "not starting with -, which reads as " \
            "an option, nor only dots, which read as a folder" in err and "Traceback" not in err, err
    assert not (ws / "build" / ".history" / "test" / "tags.json").exists()
    for name in ("play-test.1", ".hidden", "x-"):
        assert run(ws, "tag", "--game", "test", name) == 0, capsys.readouterr().err
    tagged = json.loads((ws / "build" / ".history" / "test" / "tags.json").read_text(encoding="utf-8"))
    assert sorted(tagged) == [".hidden", "play-test.1", "x-"], tagged


def test_a_lang_that_is_a_path_is_refused_by_the_history_commands(tmp_path, capsys):
    """--lang en/../.. named the history .history/test.en/../.. and the reprint files' folder
    build/test/en/../..: read from, and written to, outside the game's folders."""
    ws = make_workspace(tmp_path / "ws", NAMES)
    _build(ws)
    for command in (["log"], ["diff"], ["tag", "playtest-1"], ["reprint", "--since", "v1"]):
        assert run(ws, *command, "--game", "test", "--lang", "en/../../..") == 2
        assert capsys.readouterr().err == ("pnpgen: error: --lang: 'en/../../..' is not a language code (expected a "
                                           "two-letter ISO 639-1 code, optionally with a script or region: ja, en, "
                                           "zh-Hant, en-GB)\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ws"]


def test_diff_says_back_changed_for_a_new_back_design(tmp_path, capsys, built_copy):
    ws = built_copy(tmp_path / "ws", *BUILD, pieces=NAMES)  # built once: v1
    back = ws / "templates" / "test" / "card-back.svg.j2"
    back.write_text(back.read_text(encoding="utf-8").replace("#333366", "#663333"), encoding="utf-8")
    _build(ws)
    capsys.readouterr()
    assert run(ws, "diff", "--game", "test") == 0
    md = capsys.readouterr().out
    assert "- 裏面が変わった（新しい裏のデザイン）" in md and "絵柄が変わった" not in md and "カード1" not in md


def test_an_edit_of_a_decks_options_is_named_option_by_option_in_the_change_line_and_diff(tmp_path, capsys):
    """A deck's ``options:`` edited (a banner's colour, a hex added to a terrain) redrew every face
    and was told "every face edited" and 絵柄が変わった（テンプレート・レイアウト・画像）: the
    build's change line and ``pnpgen diff`` name each option, old → new, as they do a field."""
    deck = DECK_YAML.replace("pieces:\n", "options: {banner: 赤, terrain: {forest: ['0305']}}\npieces:\n") \
        + "".join(f"  - {{name: {n}, text: 本文{n}}}\n" for n in NAMES[:3])
    front = FRONT.replace("{{ textbox(piece.text,", "{{ textbox(piece.text ~ deck.options.banner ~ "
                          "deck.options.terrain.forest|join,")
    ws = make_workspace(tmp_path / "ws", deck=deck, front=front)
    _build(ws)
    _edit(ws, "options: {banner: 赤, terrain: {forest: ['0305']}}", "options: {banner: 青, terrain: {forest: ['0305', '0306']}}")
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    out = capsys.readouterr().out
    assert "changed: cards: 3 → 3 (options: banner 赤 → 青, terrain.forest ['0305'] → ['0305', '0306']); reprint " \
        "cards.pdf: sheet 1" in out and "edited" not in out, out
    assert run(ws, "diff", "--game", "test") == 0
    md = capsys.readouterr().out
    assert "- オプション banner：「赤」 → 「青」\n- オプション terrain.forest：“0305” → “0305／0306”\n" in md, md
    assert "絵柄" not in md, md
    assert run(ws, "diff", "--game", "test", "--format", "json") == 0
    cards = json.loads(capsys.readouterr().out)["decks"]["cards"]
    assert cards["options"] == [{"option": "banner", "old": "赤", "new": "青"},
                                {"option": "terrain.forest", "old": ["0305"], "new": ["0305", "0306"]}]
    assert cards["faces"] == [] and cards["every_face_changed"] is False


# A deck of a few hundred pieces, faces kept small: the name on the front, one back for all.
SMALL_FRONT = """{% extends "common/piece.svg.j2" %}
{% block art %}{{ textbox(piece.name, 5, 5, w - 10, 12, size=12) }}{% endblock %}
"""
PLAIN_BACK = """{% extends "common/piece.svg.j2" %}
{% block art %}<rect x="0" y="0" width="{{ w }}" height="{{ h }}" fill="#333366"/>{% endblock %}
"""


def test_diff_caps_a_decks_changelog_and_the_json_lists_every_change(tmp_path, capsys):
    from pnpgen.engine.changelog import SHOWN

    total = SHOWN + 10  # past the cap (300 cards built twice cost five times as much)
    many = [f"札{i}" for i in range(1, total + 1)]
    ws = make_workspace(tmp_path / "ws", many, front=SMALL_FRONT, back=PLAIN_BACK)
    _build(ws)
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("}\n", ", count: 2}\n"), encoding="utf-8")
    _build(ws)  # every count 1 → 2
    capsys.readouterr()
    assert run(ws, "diff", "--game", "test") == 0
    md = capsys.readouterr().out
    lines = md.splitlines()
    assert f"## テストカード (cards): {total} → {2 * total}" in lines
    changes = [ln for ln in lines if ln.startswith("- ")]
    assert changes == [*(f"- 札{i}：×1 → ×2" for i in range(1, SHOWN + 1)),  # the first ones, in the deck's order
                       f"- …ほか{total - SHOWN}件の変更（cards。`pnpgen diff --format json` にすべて）"]
    assert run(ws, "diff", "--game", "test", "--format", "json") == 0
    counts = json.loads(capsys.readouterr().out)["decks"]["cards"]["counts"]
    assert counts == [{"piece": name, "old": 1, "new": 2} for name in many]  # every one, in the deck's order


def test_the_changelog_names_every_change_up_to_the_cap():
    from pnpgen.engine.changelog import SHOWN, markdown

    def changelog(n: int) -> list[str]:
        entry = {"name": "カード", "count": [n, 2 * n], "added": [], "removed": [], "fields": [], "faces": [],
                 "back_changed": False, "counts": [{"piece": f"札{i}", "old": 1, "new": 2} for i in range(n)]}
        about = {"version": "v1", "time": "t", "draft": "1", "hash": "h"}
        d = {"game": "test", "from": about, "to": about | {"version": "v2"}, "decks": {"cards": entry},
             "rulebook": {"changed": [], "added": [], "removed": []}}
        return [ln for ln in markdown(d).splitlines() if ln.startswith("- ")]

    assert len(changelog(SHOWN)) == SHOWN and "more" not in changelog(SHOWN)[-1]
    assert changelog(SHOWN + 1)[-1] == "- … and 1 more change in cards (`pnpgen diff --format json` lists them all)"
    assert len(changelog(SHOWN + 1)) == SHOWN + 1


def test_log_first_finishes_a_commit_a_killed_build_left(tmp_path, capsys, monkeypatch, built_copy):
    """A build killed just after its commit (the journal in place, no file moved yet): the folder
    holds the old files and the new version's entry is still staged. ``pnpgen log`` (as diff, tag
    and reprint --since) finishes the commit first, as a build does, so it never lists versions
    while the outputs are half the old set and half the new."""
    from pnpgen.engine import transaction

    ws = built_copy(tmp_path / "ws", *BUILD, pieces=NAMES)  # built once: v1
    home = ws / "build" / "test" / "cards.pdf"
    old = home.read_bytes()
    real, calls = transaction.recover, []

    def killed_after_the_commit(root, later=None, spares=None):  # the commit's own recover runs first; the one after it never
        calls.append(root)
        return real(root, later, spares) if len(calls) == 1 else None

    monkeypatch.setattr(transaction, "recover", killed_after_the_commit)
    _edit(ws, "text: 本文カード2}", "text: 書き直した}")
    _build(ws)
    monkeypatch.undo()
    assert (ws / "build" / transaction.JOURNAL).exists() and home.read_bytes() == old  # the commit half done
    capsys.readouterr()
    assert run(ws, "log", "--game", "test") == 0
    assert capsys.readouterr().out.startswith("v2 ")
    assert not (ws / "build" / transaction.JOURNAL).exists() and home.read_bytes() != old
    assert not (ws / "build" / transaction.STAGING).exists()


def test_a_tag_given_again_says_which_version_it_moved_from(tmp_path, capsys, built_copy):
    """The tag names what was printed: given again by mistake, it silently lost that version."""
    ws = built_copy(tmp_path / "ws", *BUILD, pieces=NAMES)  # built once: v1
    assert run(ws, "tag", "--game", "test", "playtest-3") == 0
    _edit(ws, "text: 本文カード2}", "text: 書き直した}")
    _build(ws)
    capsys.readouterr()
    assert run(ws, "tag", "--game", "test", "playtest-3") == 0
    assert capsys.readouterr().out.rstrip().endswith("), moved from v1")
    assert run(ws, "tag", "--game", "test", "playtest-3") == 0  # the same version again: nothing moved
    assert "moved" not in capsys.readouterr().out


def test_the_changelog_shows_entities_and_strike_marks_as_written():
    """A card named R&amp;D showed as R&D once pasted into GitHub or Discord, ~~old~~ struck through."""
    from pnpgen.engine.changelog import markdown

    entry = {"name": "A &lt;B&gt; ~~C~~", "count": [1, 2], "added": [], "removed": [], "fields": [], "faces": [],
             "back_changed": False, "counts": [{"piece": "R&amp;D ~~old~~", "old": 1, "new": 2},
                                               {"piece": "{coin}の騎士", "old": 1, "new": 3}]}
    about = {"version": "v1", "time": "t", "draft": "1", "hash": "h"}
    md = markdown({"game": "test", "from": about, "to": about | {"version": "v2"}, "decks": {"cards": entry},
                           "rulebook": {"changed": [], "added": [], "removed": []}})
    assert "- R\\&amp;D \\~\\~old\\~\\~: ×1 → ×2" in md.splitlines()
    assert "## A \\&lt;B\\&gt; \\~\\~C\\~\\~ (cards): 1 → 2" in md.splitlines()
    assert "- {coin}の騎士: ×1 → ×3" in md.splitlines()  # braces are no Markdown: it read \\{coin\\}


def _changelog_lines(fields: list[dict]) -> list[str]:
    """The Markdown changelog's lines for one deck, カード, whose fields changed as ``fields`` say."""
    from pnpgen.engine.changelog import markdown

    entry = {"name": "カード", "count": [3, 3], "added": [], "removed": [], "fields": fields, "faces": [],
             "back_changed": False, "counts": []}
    about = {"version": "v1", "time": "t", "draft": "1", "hash": "h"}
    return markdown({"game": "test", "lang": "ja", "from": about, "to": about | {"version": "v2"},
                     "decks": {"cards": entry}, "rulebook": {"changed": [], "added": [], "removed": []}}).splitlines()


def test_the_changelog_quotes_a_text_as_the_card_reads_without_its_markup():
    """A text's change quoted its markup raw, \\*\\*2{vp}\\*\\*, noise to a playtester (fixesQ): it reads
    as reprint.txt and the change line name a piece (an icon by its name, bold and colour left
    out); a change of nothing but the markup is quoted as written, or it read 「2」 → 「2」."""
    fields = [{"piece": "騎士", "field": "text", "old": "**2{vp}**を得る。", "new": "**3{vp}**を得る。[accent]捨てる[/accent]"},
              {"piece": "魔女", "field": "text", "old": "**2**枚引く", "new": "2枚引く"},
              {"piece": "竜", "field": "lines", "old": ["**火**", "水"], "new": ["火", "{ice}"]}]
    lines = _changelog_lines(fields)
    assert "- 騎士：text：「2{vp}を得る。」 → 「3{vp}を得る。捨てる」" in lines, lines
    assert "- 魔女：text：「\\*\\*2\\*\\*枚引く」 → 「2枚引く」" in lines, lines
    assert "- 竜：lines：「火／水」 → 「火／{ice}」" in lines, lines


def test_the_changelog_keeps_an_escaped_icon_escaped():
    """\\{vp\\} (the characters {vp} printed) was quoted as the icon {vp}: 「{vp}と{vp}」 for a text
    of one of each; the escaped one stays escaped, as written ({1}, never an icon, as it is)."""
    fields = [{"piece": "騎士", "field": "text", "old": "\\{vp\\}と{vp}", "new": "\\{vp\\}と{vp}を得る{1}"}]
    lines = _changelog_lines(fields)
    # (Markdown's own escape before each backslash: the page shows \{vp\}と{vp})
    assert "- 騎士：text：「\\\\{vp\\\\}と{vp}」 → 「\\\\{vp\\\\}と{vp}を得る{1}」" in lines, lines


ENGLISH_DRAFT = """# Test (Draft 1)

## Components

- 5 Test cards

## Setup

1. Shuffle the deck.

## Playing the game

1. Draw a card.
"""


def test_diff_names_the_section_of_an_english_draft_that_changed(tmp_path, capsys):
    """An English designer's trial: an edit under '## Setup' was 'changed: (before the first
    section)' in the changelog (only ■ lines opened a section); an English draft's headings
    (## marks, ALL CAPS, Chapter lines) open them, as the rulebook reads them."""
    ws = make_workspace(tmp_path / "ws", pieces=NAMES, game=GAME_YAML.replace("title: テストゲーム", "languages: [en]\ntitle: Test"))
    draft = ws / "data" / "test" / "draft.txt"
    draft.write_text(ENGLISH_DRAFT, encoding="utf-8")
    _build(ws)
    draft.write_text(ENGLISH_DRAFT.replace("Shuffle the deck.", "Shuffle the deck twice."), encoding="utf-8")
    _build(ws)
    capsys.readouterr()
    assert run(ws, "diff", "--game", "test") == 0
    out = capsys.readouterr().out
    assert "- changed: Setup" in out and "before the first section" not in out, out
    caps = ENGLISH_DRAFT.replace("## Setup", "SETUP").replace("## Playing the game", "PLAYING")
    draft.write_text(caps, encoding="utf-8")
    _build(ws)
    draft.write_text(caps.replace("Draw a card.", "Draw two cards."), encoding="utf-8")
    _build(ws)
    capsys.readouterr()
    assert run(ws, "diff", "--game", "test") == 0
    out = capsys.readouterr().out
    assert "- changed: PLAYING" in out and "- changed: Setup" not in out, out


def test_a_template_edit_that_redraws_every_face_is_one_line_after_the_added_and_removed(tmp_path, capsys, built_copy):
    """A word deck's font size raised in its layout: the changelog listed 190 'face changed' lines
    first, and the 11 cards added and 9 removed a playtester needs fell past its cap of 50."""
    ws = built_copy(tmp_path / "ws", *BUILD, pieces=NAMES)
    front = ws / "templates" / "test" / "card-front.svg.j2"
    front.write_text(front.read_text(encoding="utf-8").replace("{% endblock %}", '<rect width="1" height="1"/>\n'
                                                               "{% endblock %}"), encoding="utf-8")
    _edit(ws, "  - {name: カード5, text: 本文カード5}\n", "  - {name: 新札, text: 新しい}\n")
    _build(ws)
    report = json.loads((ws / "build" / "test" / "manifest.json").read_text(encoding="utf-8"))["changes"]
    assert report[0].startswith("cards: 5 → 5 (+1 新札 (new), -1 カード5 (removed), every face edited (4 pieces)); "), report
    capsys.readouterr()
    assert run(ws, "diff", "--game", "test") == 0
    lines = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("- ")]
    assert lines == ["- 追加：新札 ×1", "- 削除：カード5 ×1",  # (the game's language: Japanese)
                     "- すべての絵柄が変わった（全4枚：テンプレート・レイアウト・画像・アイコン）"], lines
    assert run(ws, "diff", "--game", "test", "--format", "json") == 0
    cards = json.loads(capsys.readouterr().out)["decks"]["cards"]
    assert cards["every_face_changed"] is True and len(cards["faces"]) == 4  # the JSON names each


def test_diff_says_a_tuck_box_grew_with_its_decks_count(tmp_path, capsys, built_copy):
    """A tuck box's net follows its deck's count: two cards more made a deeper box, and the
    changelog said only that its face changed (「テンプレート・レイアウト・画像」), not that the
    box to cut out and fold is another size; then (trial49) the size, and still that its face
    changed, where only the deck's count had: the size line says whose count it follows."""
    ws = built_copy(tmp_path / "ws", *BUILD, pieces=NAMES)
    (ws / "data" / "test" / "decks" / "box.yaml").write_text(
        "name: 箱\nlayout: tuck-box\nbox: {deck: cards, card_thickness: 1}\npieces:\n  - {title: 箱}\n",
        encoding="utf-8")
    _build(ws)
    _edit(ws, "text: 本文カード2}", "text: 本文カード2, count: 3}")
    _build(ws)
    capsys.readouterr()
    assert run(ws, "diff", "--game", "test") == 0
    md = capsys.readouterr().out
    # 5 → 7 poker cards of 1 mm, 1 mm of play: 6 → 8 mm deep; the net two depths wider, two depths and
    # two tuck flaps (each the depth + 10 mm) taller
    box = md.split("## 箱 (box)")[1].split("##")[0]
    assert [ln for ln in box.splitlines() if ln.startswith("- ")] == [
        "- 大きさ：150×133 mm → 154×141 mm（テストカードの枚数 5 → 7枚に合わせて）"], md  # no 絵柄が変わった
    assert "大きさ" not in md.split("## 箱 (box)")[0]  # the cards kept their size
    assert run(ws, "diff", "--game", "test", "--format", "json") == 0
    entry = json.loads(capsys.readouterr().out)["decks"]["box"]
    assert entry["follows"] == {"decks": ["cards"], "old": 5, "new": 7} and entry["faces"] == []
    from pnpgen.engine.changelog import markdown
    english = markdown({**json.loads(json.dumps({"decks": {"box": entry}})), "lang": "en", "game": "test",
                                "from": {"version": "v1", "time": "t", "draft": "1"},
                                "to": {"version": "v2", "time": "t", "draft": "1"}, "rulebook": {}})
    assert "- size: 150×133 mm → 154×141 mm (following the count of cards: 5 → 7 cards)" in english, english
    # and the build's summary says it where the sheets changed, not '箱 edited'
    from pnpgen.engine.changes import reasons
    old, new = ({"size": size, "pieces": {"1:箱": [1, "a", "a", ""]}, "values": {}, "follows": [["cards"], n]}
                for size, n in (([150, 133], 5), ([154, 141], 7)))
    new["pieces"]["1:箱"] = [1, "b", "b", ""]
    assert reasons(old, new) == ["size 150×133 → 154×141 mm, following deck cards' count 5 → 7"]
    # a box whose size is its own figures' (a count written): its size alone, no deck named
    assert reasons({**old, "follows": None}, {**new, "follows": None}) == ["size 150×133 → 154×141 mm"]


def test_the_changelog_of_a_japanese_game_names_the_lines_before_the_first_section_in_japanese():
    """Japanese trial: a new 草案 number in the draft's title line read
    「- 変更：(before the first section)」 in a changelog otherwise in Japanese."""
    from pnpgen.engine.changelog import markdown
    from pnpgen.engine.recording import PREAMBLE

    about = {"version": "v1", "time": "t", "draft": "1", "hash": "h"}
    d = {"game": "test", "lang": "ja", "from": about, "to": about | {"version": "v2"}, "decks": {},
         "rulebook": {"changed": [PREAMBLE, "ゲームの進行"], "added": [], "removed": []}}
    lines = markdown(d).splitlines()
    assert "- 変更：最初の節の前（表題・草案番号）" in lines and "- 変更：ゲームの進行" in lines, lines
    assert "- changed: (before the first section)" in markdown(d | {"lang": "en"}).splitlines()


def test_a_forged_lang_of_an_entry_reads_no_file_and_the_draft_is_text(tmp_path):
    """A history entry's ``lang`` is read back from a file anyone may hand over (a build folder
    from elsewhere): ``../../tmp/x`` made the changelog read tmp/x.yaml for its words (outside the
    workspace; a FIFO there hung it, a list there was a traceback). game.yaml's ``draft: <img …>``
    went into the changelog as HTML."""
    from pnpgen.engine import history
    from pnpgen.engine.changelog import diff, markdown
    from pnpgen.messages import msg

    (tmp_path / "evil.yaml").write_text('diff.nothing: "FROM OUTSIDE"\n', "utf-8")
    forged = "../" * 30 + (tmp_path / "evil").as_posix().lstrip("/")
    assert msg("diff.nothing", forged) == msg("diff.nothing", "en")  # English, not the file's words
    body = {"game": "test", "time": "t", "draft": "<img src=x> [l](http://e)", "hash": "h", "decks": {}, "rulebook": {}}
    d = diff(history.Version(1, body), history.Version(2, body | {"lang": forged}))
    assert d["lang"] == "en"
    assert diff(history.Version(1, body), history.Version(2, body | {"lang": "ja"}))["lang"] == "ja"
    assert "draft \\<img src=x\\> \\[l\\](http://e)" in markdown(d).splitlines()[2]


def test_diff_names_a_renamed_deck_file_as_the_deck_it_was():
    """An American trial: tiles.yaml renamed terrain.yaml made the changelog list every tile
    added to 'terrain' and removed from 'tiles'; it is the deck renamed, with its one change."""
    from pnpgen.engine import history
    from pnpgen.engine.changelog import diff, markdown

    def deck(count: int) -> dict:
        return {"name": "Terrain tiles", "count": 6 + count, "size": [50, 57.7],
                "pieces": {"1:Sea": [6, "d1", "f1", "b1"], "2:Marsh": [count, "d2", "f2", "b1"]},
                "values": {"1:Sea": {"terrain": "Sea"}, "2:Marsh": {"terrain": "Marsh"}},
                "pairs": [["f1", "b1", 6, "1:Sea"], ["f2", "b1", count, "2:Marsh"]]}

    body = {"game": "tidewater", "time": "t", "draft": "1", "hash": "h", "rulebook": {}, "lang": "en"}
    d = diff(history.Version(1, body | {"decks": {"tiles": deck(6)}}),
                     history.Version(2, body | {"decks": {"terrain": deck(7)}}))
    assert list(d["decks"]) == ["terrain"] and d["decks"]["terrain"]["renamed_from"] == "tiles", d["decks"]
    said = markdown(d)
    assert "## Terrain tiles (terrain): 12 → 13\n\n- the deck file renamed: tiles → terrain\n- Marsh: ×6 → ×7\n" in said, said
    assert "added" not in said and "removed" not in said, said


def test_the_changelog_tells_pieces_of_one_name_by_their_values_and_by_their_place_when_none_does():
    """An English trial: the fourth of six Round tokens went from 4 to 5 and the changelog said
    'Round #4', its place in the deck file; it is 'Round [5]' (in an English game's brackets).
    Two Sea tiles alike in every value are still told by their place: nothing else tells them."""
    from pnpgen.engine import history
    from pnpgen.engine.changelog import diff

    def deck(fourth: int, sea: int) -> dict:
        values = {f"{n}:Round": {"name": "Round", "value": fourth if n == 4 else n} for n in range(1, 7)}
        values |= {"7:Sea": {"name": "Sea"}, "8:Sea": {"name": "Sea"}}
        pieces = {label: [sea if label == "8:Sea" else 1, f"d{label}{v}", f"f{label}{v}", "b"]
                  for label, v in values.items()}
        return {"name": "Tokens", "count": 7 + sea, "pieces": pieces, "values": values,
                "pairs": [[p[2], "b", p[0], label] for label, p in pieces.items()]}

    body = {"game": "tidewater", "time": "t", "draft": "1", "hash": "h", "rulebook": {}, "lang": "en"}
    d = diff(history.Version(1, body | {"decks": {"tokens": deck(4, 1)}}),
                     history.Version(2, body | {"decks": {"tokens": deck(5, 2)}}))["decks"]["tokens"]
    assert d["fields"] == [{"piece": "Round [5]", "field": "value", "old": 4, "new": 5}], d
    assert d["counts"] == [{"piece": "Sea #8", "old": 1, "new": 2}], d


def test_the_changelog_shows_a_mapping_field_in_yamls_words_as_written():
    """A card's stats mapping given a key: the changelog quoted it as JSON, {"hp": 1} → {"hp": 1,
    "atk": 2, …}; it reads as the deck file writes it, {hp: 1} → {hp: 1, atk: 2, …}, and so does a
    mapping item of a long list's edit."""
    from pnpgen.engine import history
    from pnpgen.engine.changelog import diff, markdown

    def body(stats: dict, track: list) -> dict:
        deck = {"name": "C", "count": 1, "pieces": {"1:A": [1, "d", "f", "b"]},
                "values": {"1:A": {"name": "A", "stats": stats, "track": track}}}
        return {"game": "g", "time": "t", "draft": "1", "hash": "h", "rulebook": {}, "lang": "en", "decks": {"c": deck}}

    track = [{"space": n, "bonus": "coin"} for n in range(1, 8)]
    said = markdown(diff(history.Version(1, body({"hp": 1}, track)),
                         history.Version(2, body({"hp": 1, "atk": 2, "tags": ["a b", True]}, [*track, {"space": 8}]))))
    assert "- A: stats: {hp: 1} → {hp: 1, atk: 2, tags: \\[a b, true\\]}\n" in said, said
    assert "- A: track: +{space: 8}\n" in said, said
    assert '"' not in said, said


def test_the_changelog_names_a_piece_nothing_tells_apart_by_the_place_its_version_records():
    """A version recording its pieces' places: two Sea tiles alike are told by the newer one's
    file and line, a nameless piece of a deck alike in every value by its line alone (not #2), a
    piece removed by its place in the older version."""
    from pnpgen.engine import history
    from pnpgen.engine.changelog import diff

    def body(sea: int, blank: int, kept: bool) -> dict:
        values = {"1:Sea": {"terrain": "Sea"}, "2:Sea": {"terrain": "Sea"}}
        pieces = {"1:Sea": [1, "d", "f", "b"], "2:Sea": [sea, "d", "f", "b"]}
        blanks = {"1:#1": [1, "d", "f", "b"], "2:#2": [blank, "d", "f", "b"], **({"3:#3": [1, "d", "f", "b"]} if kept else {})}
        decks = {"tiles": {"name": "Tiles", "count": 1 + sea, "pieces": pieces, "values": values},
                 "blank": {"name": "Blank", "count": 1 + blank + kept, "pieces": blanks, "values": {k: {} for k in blanks}}}
        return {"game": "g", "time": "t", "draft": "1", "hash": "h", "rulebook": {}, "lang": "en", "decks": decks,
                "places": {"tiles": {"1:Sea": "tiles.yaml:7", "2:Sea": f"tiles.yaml:{7 + sea}"},
                           "blank": {k: f"blank.csv:{int(k[0]) + 1}" for k in blanks}}}

    d = diff(history.Version(1, body(1, 1, True)), history.Version(2, body(2, 3, False)))["decks"]
    assert d["tiles"]["counts"] == [{"piece": "Sea (tiles.yaml:9)", "old": 1, "new": 2}], d
    assert d["blank"]["counts"] == [{"piece": "blank.csv:3", "old": 1, "new": 3}], d
    assert d["blank"]["removed"] == [{"piece": "blank.csv:4", "count": 1}], d


def test_a_version_not_there_names_every_version_the_history_holds(tmp_path, monkeypatch):
    """Nine versions, v10 asked for: the message said "one of v5, v6, v7, v8, v9", as if v1–v4
    were gone; it names the span the history holds, its tags, latest and previous."""
    import pytest

    from pnpgen.engine import history, versionnames
    from pnpgen.errors import InputError

    monkeypatch.setattr(versionnames, "versions", lambda out, ed: [history.Version(n, {"hash": f"{n:08x}"}) for n in range(1, 10)])
    monkeypatch.setattr(versionnames, "tags", lambda out, ed: {"playtest-1": 3})
    with pytest.raises(InputError) as e:
        versionnames.resolve(tmp_path, "test", "v10")
    assert e.value.expected == ("a version 'pnpgen log' lists (v1 to v9), a tag (playtest-1), latest, previous, "
                                "or the start of a hash"), e.value.expected
    assert versionnames.resolve(tmp_path, "test", "v2").number == 2


def test_a_version_number_of_thousands_of_digits_is_no_version_not_a_traceback(tmp_path, monkeypatch):
    """hostile47: reprint --since (diff, tag) v followed by 5,000 digits stopped with Python's
    ValueError past int()'s 4,300-digit limit, a traceback; it is no version the history holds,
    said in one line of a few hundred characters. v000002 is still v2."""
    import pytest

    from pnpgen.engine import history, versionnames
    from pnpgen.errors import InputError

    monkeypatch.setattr(versionnames, "versions", lambda out, ed: [history.Version(n, {"hash": f"{n:08x}"}) for n in range(1, 4)])
    monkeypatch.setattr(versionnames, "tags", lambda out, ed: {})
    for spec in ("v" + "9" * 5000, "9" * 5000, "v" + "1" * 13):
        with pytest.raises(InputError) as e:
            versionnames.resolve(tmp_path, "test", spec)
        assert "no version" in str(e.value) and len(str(e.value)) < 400, str(e.value)[:500]
    assert versionnames.resolve(tmp_path, "test", "v000002").number == 2
    assert versionnames.resolve(tmp_path, "test", "3").number == 3


def test_the_reprint_list_says_how_to_reprint_everything_since_the_version_printed(tmp_path, capsys, built_copy):
    """In watch and serve each save is a build, and reprint.txt holds the last one's changes only:
    a text edited two saves ago was in no reprint the designer saw. Its last line gives the command
    for every copy changed since the latest tagged version (none when that is the last build), or
    with no tag, since a version to fill in, once there is one older than the file's (none at v2:
    the only version it could name is v1, the one the file is compared with)."""
    ws = built_copy(tmp_path / "ws", *BUILD, pieces=NAMES)  # v1
    listed = ws / "build" / "test" / "reprint.txt"
    _edit(ws, "text: 本文カード1}", "text: 直した1}")
    _build(ws)  # v2: the file holds every change since v1, the first version
    assert "pnpgen reprint" not in listed.read_text(encoding="utf-8")
    _edit(ws, "text: 本文カード2}", "text: 直した2}")
    _build(ws)  # v3: v1 may be the version printed
    assert listed.read_text(encoding="utf-8").splitlines()[-1].endswith(
        "印刷した版から変わった分すべて：pnpgen reprint --game test --since VERSION"
        "（VERSION は 'pnpgen log' に並ぶ版。'pnpgen tag' で印刷した版に名前を付けられます）")
    assert run(ws, "tag", "--game", "test", "printed") == 0  # v3 printed
    _edit(ws, "text: 本文カード3}", "text: 直した3}")
    _build(ws)  # v4: the file holds every change since v3
    assert "pnpgen reprint" not in listed.read_text(encoding="utf-8")
    _edit(ws, "text: 本文カード4}", "text: 直した4}")
    _build(ws)  # v5: カード3's edit is not in it
    said = listed.read_text(encoding="utf-8")
    assert "カード3" not in said and said.splitlines()[-1].endswith(
        "名前の付いた最新の版 printed から変わった分すべて：pnpgen reprint --game test --since printed")
    capsys.readouterr()
    assert run(ws, "reprint", "--game", "test", "--since", "printed") == 0
    since = (ws / "build" / "test" / "reprint-since-v3.txt").read_text(encoding="utf-8")
    assert "1 × カード3" in since and "1 × カード4" in since and "pnpgen reprint" not in since
    assert since.startswith("テストゲーム：printed (v3, "), since  # the name the designer gave, not only v3


def test_after_clean_the_next_build_reports_the_changes_since_the_last_version(tmp_path, capsys, built_copy):
    """``pnpgen clean`` removed the build cache, where the last build's record lived, and the next
    build printed no change report and wrote no reprint.txt; the history, which clean keeps, holds
    the last version: the build compares with it."""
    from pypdf import PdfReader

    ws = built_copy(tmp_path / "ws", *BUILD, pieces=NAMES)  # v1
    assert run(ws, "clean") == 0
    _edit(ws, "text: 本文カード2}", "text: 直した2}")
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    said = capsys.readouterr().out
    assert "changed: compared with v1 in the history" in said
    assert "changed: cards: 5 → 5 (カード2: text); what to reprint and pull out: reprint.txt" in said
    listed = (ws / "build" / "test" / "reprint.txt").read_text(encoding="utf-8")
    assert listed.startswith("テストゲーム：v1 (")
    assert "1 × カード2\n" in listed and "1 × カード2（古い版）" in listed and "カード3" not in listed
    assert len(PdfReader(ws / "build" / "test" / "reprint.pdf").pages) == 2  # its front and its back
    manifest = json.loads((ws / "build" / "test" / "manifest.json").read_text(encoding="utf-8"))
    assert {"reprint.pdf", "reprint.txt"} <= set(manifest["files"])
    assert manifest["reprint"]["cards"]["why"] == ["カード2: text"]


def test_diff_says_order_changed_as_the_build_does(tmp_path, capsys, built_copy):
    """Cards only moved in the deck file: the build said ``order changed; nothing to reprint``
    and ``pnpgen diff`` said nothing changed at all."""
    ws = built_copy(tmp_path / "ws", *BUILD, pieces=NAMES)  # v1
    _edit(ws, "  - {name: カード1, text: 本文カード1}\n  - {name: カード2, text: 本文カード2}\n",
          "  - {name: カード2, text: 本文カード2}\n  - {name: カード1, text: 本文カード1}\n")
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    assert "(order changed); nothing to reprint" in capsys.readouterr().out
    assert run(ws, "diff", "--game", "test") == 0
    said = capsys.readouterr().out
    assert "- 並び順が変わった（同じカードの順番だけ：刷り直しなし）" in said and "変更はありません" not in said
    assert run(ws, "diff", "--game", "test", "--format", "json") == 0
    assert json.loads(capsys.readouterr().out)["decks"]["cards"]["order_changed"] is True


def test_a_kept_reprint_laid_out_on_the_old_paper_is_said_so(tmp_path, capsys, built_copy):
    """A build that changes no piece keeps reprint.pdf (not printed yet, perhaps); on another
    paper it kept its A4 layout without a word. It stays — its copies are still the ones to
    print — and the build says it is laid out as the sheets were, and how to lay it out anew."""
    from pypdf import PdfReader

    ws = built_copy(tmp_path / "ws", *BUILD, pieces=NAMES)
    _edit(ws, "text: 本文カード2}", "text: 直した2}")
    _build(ws)
    pdf = ws / "build" / "test" / "reprint.pdf"
    made = pdf.read_bytes()
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1", "--paper", "letter") == 0
    said = capsys.readouterr().out
    assert pdf.read_bytes() == made and round(float(PdfReader(pdf).pages[0].mediabox.width)) == 595  # A4, kept
    assert "changed: reprint.pdf kept as it was laid out before the sheets changed (paper, printer or layout; " \
           "no piece changed): pnpgen reprint --since VERSION lays its copies out as the sheets are now" in said, said
    _edit(ws, "text: 本文カード3}", "text: 直した3}")  # a piece changed: a new one, on Letter, and no word of it
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1", "--paper", "letter") == 0
    assert "kept as it was laid out" not in capsys.readouterr().out
    assert round(float(PdfReader(pdf).pages[0].mediabox.width)) == 612


def test_an_english_draft_edited_is_a_version_and_a_change_line_of_the_english_build(tmp_path, capsys):
    """loop4: 'pnpgen watch --lang en', a section of draft.en.txt rewritten: the book was set
    again, but the history recorded draft.txt's sections for the English edition, so no version,
    no change line, nothing in 'pnpgen diff --lang en'."""
    ws = english_workspace(tmp_path)
    build = ("build", "--game", "test", "--lang", "en", "--jobs", "1")
    assert run(ws, *build) == 0
    draft = ws / "data" / "test" / "draft.en.txt"
    draft.write_text(draft.read_text(encoding="utf-8").replace("A small game for testing", "A little game"),
                     encoding="utf-8")
    capsys.readouterr()
    assert run(ws, *build) == 0
    assert "  changed: rulebook: draft 3 (Overview changed)\n" in capsys.readouterr().out
    assert run(ws, "diff", "--game", "test", "--lang", "en") == 0
    assert "- changed: Overview" in capsys.readouterr().out


def test_the_changelog_names_the_cells_of_a_table_field_that_changed(tmp_path, capsys):
    """A wargame trial: a combat results table kept as a list of rows, one cell edited, was one
    changelog line quoting all 18 cells twice; each changed row is its own line, counted from 1
    as the table is read, and a list that grew is quoted whole."""
    deck = DECK_YAML.replace("  text: text\n", "  text: text\n  rows: list\n") + (
        "  - {name: 戦闘結果表, text: 表, rows: [[1, AE, AR], [2, EX, DR], [3, DR, DE]]}\n"
        "  - {name: 地形, text: 表, rows: [平地, 森林]}\n")
    ws = make_workspace(tmp_path / "ws", deck=deck)
    _build(ws)
    _edit(ws, "[2, EX, DR]", "[2, EX, DE]")
    _edit(ws, "[平地, 森林]", "[平地, 森林, 丘陵]")
    _build(ws)
    capsys.readouterr()
    assert run(ws, "diff", "--game", "test") == 0
    lines = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("- ")]
    assert lines == ["- 戦闘結果表：rows\\[2\\]：“2／EX／DR” → “2／EX／DE”",
                     "- 地形：rows：「平地／森林」 → 「平地／森林／丘陵」"], lines


def test_tag_of_the_english_edition_says_it_is_the_english_editions(tmp_path, capsys):
    """A two-language designer's trial: 'pnpgen tag --lang en playtest-1' said
    'guild: playtest-1 = v1 (…)', word for word what the Japanese edition's tag says, though the
    two editions keep histories of their own. It names the edition; the default's line is as it was."""
    ws = english_workspace(tmp_path)
    assert run(ws, "build", "--game", "test", "--lang", "en", "--jobs", "1", "--no-rulebook") == 0
    assert run(ws, "build", "--game", "test", "--jobs", "1", "--no-rulebook") == 0
    capsys.readouterr()
    assert run(ws, "tag", "--game", "test", "--lang", "en", "playtest-1") == 0
    assert capsys.readouterr().out.startswith("test (en): playtest-1 = v1 (")
    assert run(ws, "tag", "--game", "test", "playtest-1") == 0
    assert capsys.readouterr().out.startswith("test: playtest-1 = v1 (")


def test_log_of_the_english_edition_says_it_is_the_english_editions(tmp_path, capsys):
    """trial32: 'pnpgen log --lang en' listed the English edition's versions in the very lines the
    Japanese edition's log prints. It names the edition first, as tag does; the default's log is as it was."""
    ws = english_workspace(tmp_path)
    capsys.readouterr()
    assert run(ws, "log", "--game", "test", "--lang", "en") == 0
    assert capsys.readouterr().out.startswith("test (en): no recorded version yet")
    assert run(ws, "build", "--game", "test", "--lang", "en", "--jobs", "1", "--no-rulebook") == 0
    assert run(ws, "build", "--game", "test", "--jobs", "1", "--no-rulebook") == 0
    capsys.readouterr()
    assert run(ws, "log", "--game", "test", "--lang", "en") == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "test (en): the en edition's versions, newest first" and lines[1].startswith("v1 "), lines
    assert run(ws, "log", "--game", "test") == 0
    assert capsys.readouterr().out.startswith("v1 ")


def test_a_version_not_found_names_the_output_folders_history_it_looked_in(tmp_path, capsys, built_copy):
    """A designer tagged playtest-1 in build/ and asked `reprint --since playtest-1 --out build-cut`:
    the error said only "no version 'playtest-1'", not that build-cut keeps a history of its own."""
    ws = built_copy(tmp_path / "ws", *BUILD, pieces=NAMES)
    assert run(ws, "tag", "--game", "test", "playtest-1") == 0
    assert run(ws, *BUILD, "--out", "build-cut") == 0
    capsys.readouterr()
    assert run(ws, "reprint", "--game", "test", "--since", "playtest-1", "--out", "build-cut") == 2
    err = capsys.readouterr().err
    assert "build-cut/.history/test: version: no version 'playtest-1'" in err, err
    assert "Traceback" not in err


def test_diff_and_the_change_line_name_a_field_by_the_sheets_own_header(tmp_path, capsys):
    """Wargame trial (trial69): a counter sheet headed in Japanese (`columns: {攻撃: atk}`) had a unit's
    strength edited; the changelog for the playtesters said 「徳川歩兵：atk：6 → 7」 and the build's
    change line `徳川歩兵: atk`, a field name they never see. Both say the sheet's header (here 能力
    for the card's text), the JSON keeping the field beside it."""
    deck = DECK_YAML.replace("pieces:\n", "pieces: {file: cards.csv, columns: {部隊名: name, 能力: text, 枚数: count}}\n")
    ws = make_workspace(tmp_path / "ws", deck=deck)
    sheet = ws / "data" / "test" / "decks" / "cards.csv"
    sheet.write_text("部隊名,能力,枚数\n徳川歩兵,6-4-4,1\n石田歩兵,5-4-4,1\n", encoding="utf-8")
    _build(ws)
    sheet.write_text("部隊名,能力,枚数\n徳川歩兵,7-4-4,1\n石田歩兵,5-4-4,1\n", encoding="utf-8")
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    assert "(徳川歩兵: 能力)" in capsys.readouterr().out
    assert run(ws, "diff", "--game", "test") == 0
    assert [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("- ")] == ["- 徳川歩兵：能力：“6-4-4” → “7-4-4”"]
    assert run(ws, "diff", "--game", "test", "--format", "json") == 0
    assert json.loads(capsys.readouterr().out)["decks"]["cards"]["fields"] == [
        {"piece": "徳川歩兵", "field": "text", "old": "6-4-4", "new": "7-4-4", "header": "能力"}]


def test_a_field_every_piece_edited_alike_is_told_once_in_the_change_line_and_the_changelog(tmp_path, capsys):
    """trial73: a memory game's new back picture, its deck's ``defaults: {back_art: …}`` edited, was
    told ``Frog: back_art, Duck: back_art, …`` on the build's change line and as a line a piece
    (37) in ``pnpgen diff``: a field every piece of both builds edited alike (the same old value,
    the same new one) is one reason, ``all 4 pieces: mark``, and one changelog line; the JSON's
    ``fields`` still lists each piece. Three pieces or fewer are named, as briefly."""
    deck = DECK_YAML.replace("  text: text\n", "  text: text\n  mark: text\ndefaults: {mark: 春}\n") \
        + "".join(f"  - {{name: {n}, text: 本文{n}}}\n" for n in NAMES[:4])
    ws = make_workspace(tmp_path / "ws", deck=deck, back=BACK.replace('"B" ~ piece.name', "piece.mark"))
    _build(ws)
    _edit(ws, "defaults: {mark: 春}", "defaults: {mark: 夏}")
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    out = capsys.readouterr().out
    assert "changed: cards: 4 → 4 (back changed, all 4 pieces: mark); reprint cards.pdf: sheet 1 (pages 1–2)" in out, out
    assert run(ws, "diff", "--game", "test") == 0
    md = capsys.readouterr().out
    assert "- 全4種すべて：mark：「春」 → 「夏」\n" in md and "カード1" not in md, md
    assert run(ws, "diff", "--game", "test", "--format", "json") == 0
    cards = json.loads(capsys.readouterr().out)["decks"]["cards"]
    assert cards["every_piece"] == [{"field": "mark", "old": "春", "new": "夏", "pieces": 4}]
    assert [f["piece"] for f in cards["fields"]] == NAMES[:4]
    page = (REPO / "docs" / "playtest.md").read_text(encoding="utf-8")  # the page's examples, in these words
    assert "`all 37 pieces: back_art`" in page and "`- all 37 pieces: back_art: “back.png” → “back2.webp”`" in page
    assert "`- 全37種すべて：back_art：…`" in page and "`every_piece`" in page


def test_edits_made_alike_are_only_those_every_compared_piece_made_from_the_same_value():
    """Not collapsed: a field edited on some pieces only, or from different values (a piece's own
    value replaced by the deck's new default), or on three pieces or fewer (named as briefly)."""
    from pnpgen.engine.changes import edited_alike

    def alike(old: dict, new: dict) -> list:
        return edited_alike({k: k for k in new}, old, new, lambda f: False)
    four = "abcd"
    assert alike({k: {"m": 1, "t": k} for k in four}, {k: {"m": 2, "t": k * 2} for k in four}) == [("m", 1, 2)]
    assert alike({k: {"m": 1} for k in four}, {k: {"m": 2 if k != "d" else 1} for k in four}) == []
    assert alike({k: {"m": 1 if k != "d" else 3} for k in four}, {k: {"m": 2} for k in four}) == []
    assert alike({k: {"m": 1} for k in "abc"}, {k: {"m": 2} for k in "abc"}) == []
    assert alike({k: {} for k in four}, {k: {"m": [1, 2]} for k in four}) == [("m", None, [1, 2])]


def test_diff_names_a_piece_nothing_tells_apart_by_its_deck_file_and_line(tmp_path, capsys, built_copy):
    """Two cards alike in name and every value: the changelog told the one recounted by its
    number in the deck ('カード2 #3'), which the designer counts to; it names its deck file and
    line, as every other message does (a version recorded before places were: its number still,
    test_the_changelog_tells_pieces_of_one_name_by_their_values_and_by_their_place_when_none_does)."""
    ws = built_copy(tmp_path / "ws", *BUILD, pieces=["カード1", "カード2", "カード2"])
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    text = deck.read_text(encoding="utf-8")
    line = text.count("\n", 0, text.rindex("{name: カード2")) + 1
    deck.write_text(text[:text.rindex("}\n")] + ", count: 2}\n", encoding="utf-8")
    _build(ws)
    capsys.readouterr()
    assert run(ws, "diff", "--game", "test", "--format", "json") == 0
    assert json.loads(capsys.readouterr().out)["decks"]["cards"]["counts"] == [
        {"piece": f"カード2 (cards.yaml:{line})", "old": 1, "new": 2}]
    assert run(ws, "diff", "--game", "test") == 0
    assert f"- カード2 (cards.yaml:{line})：×1 → ×2" in capsys.readouterr().out


def _recounted_twin(tmp_path: Path, built_copy) -> tuple[Path, int]:
    """Two cards alike in name and every value, the second's count raised to 2 (and the line it is written on)."""
    ws = built_copy(tmp_path / "ws", *BUILD, pieces=["カード1", "カード2", "カード2"])
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    text = deck.read_text(encoding="utf-8")
    line = text.count("\n", 0, text.rindex("{name: カード2")) + 1
    deck.write_text(text[:text.rindex("}\n")] + ", count: 2}\n", encoding="utf-8")
    return ws, line


def test_the_change_line_names_a_piece_nothing_tells_apart_by_its_deck_file_and_line(tmp_path, capsys, built_copy):
    """The build's change line said 'カード2 #3' (its number in the deck, which the designer counts
    to) where ``pnpgen diff`` says 'カード2 (cards.yaml:11)': both name it by its deck file and line."""
    ws, line = _recounted_twin(tmp_path, built_copy)
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    said = capsys.readouterr().out
    assert f"changed: cards: 3 → 4 (+1 カード2 (cards.yaml:{line}))" in said, said
    assert "#3" not in said, said


def test_reprint_txt_names_a_piece_nothing_tells_apart_by_its_deck_file_and_line(tmp_path, built_copy):
    """reprint.txt listed the copy to add as '1 × カード2 #3'; it names the card by its deck file and
    line, as the change line and ``pnpgen diff`` do — after ``pnpgen clean`` too, compared with the
    history's version, which keeps the places apart from its decks. (The two print the same faces,
    twins: the copy to add is named by the twin whose count rose, as the change line names it, not
    by the first card that prints them, a line above: left49.)"""
    for cleaned in (False, True):
        ws, line = _recounted_twin(tmp_path / str(cleaned), built_copy)
        if cleaned:
            assert run(ws, "clean") == 0
        _build(ws)
        listed = (ws / "build" / "test" / "reprint.txt").read_text(encoding="utf-8")
        assert f"    1 × カード2 (cards.yaml:{line})\n" in listed, listed
        assert "#3" not in listed, listed


def test_after_clean_the_change_line_names_a_piece_removed_that_nothing_told_apart_by_its_line(tmp_path, capsys, built_copy):
    """Compared with the history's version (``pnpgen clean`` removed the last build's record), the
    piece taken out is named by the deck file and line that version recorded, which it keeps apart
    from its decks, not 'カード2 #3'."""
    ws = built_copy(tmp_path / "ws", *BUILD, pieces=["カード1", "カード2", "カード2"])
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    text = deck.read_text(encoding="utf-8")
    line = text.count("\n", 0, text.rindex("{name: カード2")) + 1
    deck.write_text(text[:text.rindex("  - {name: カード2")], encoding="utf-8")
    assert run(ws, "clean") == 0
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    said = capsys.readouterr().out
    assert f"cards: 3 → 2 (-1 カード2 (cards.yaml:{line}) (removed))" in said, said


def test_the_change_line_names_a_nameless_piece_nothing_tells_apart_by_its_line_and_keeps_a_told_ones_number(tmp_path, capsys):
    """A deck without names: the card no value tells from another is named by its deck file and line
    alone on the change line (as ``pnpgen diff`` names it), not '#3'; one its values do tell apart
    keeps its short number there ('#1'; reprint.txt adds the values)."""
    deck_yaml = ("name: 依頼\nformat: poker\nfront: card-front.svg.j2\nback: card-back.svg.j2\n"
                 "fields: {suit: text, text: text}\npieces:\n")
    pieces = ["  - {suit: 青, text: 依頼1}\n", "  - {count: 1}\n", "  - {count: 1}\n"]  # (two blank cards)
    ws = make_workspace(tmp_path / "ws", deck=deck_yaml + "".join(pieces), front=FRONT.replace("piece.name", "piece.suit"),
                        back=BACK.replace("piece.name", "''"))
    _build(ws)
    raised = [p.replace("}", ", count: 2}").replace("count: 1, ", "") for p in pieces]
    (ws / "data" / "test" / "decks" / "cards.yaml").write_text(deck_yaml + "".join([raised[0], pieces[1], raised[2]]),
                                                               encoding="utf-8")
    line = deck_yaml.count("\n") + 3
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    said = capsys.readouterr().out
    assert f"cards: 3 → 5 (+1 #1, +1 cards.yaml:{line})" in said, said
