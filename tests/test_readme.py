"""Issue 21: README is tested as written. Its set-up commands, and docs/templates.md's workspace
by hand and "Adding a deck" files, copied into an empty folder outside the checkout (no fonts/, no
templates/common/), build; so does "Start a game of your own", its first rebuild included."""

from __future__ import annotations

import argparse
import re
import shlex
import subprocess
import textwrap

import pytest
from pypdf import PdfReader

import pnpgen
from conftest import REPO, make_workspace, run
from pnpgen.commandline import parsers
from pnpgen.data import layouts
from pnpgen.data.yamlsrc import load_yaml

README = (REPO / "README.md").read_text(encoding="utf-8")
TEMPLATES = (REPO / "docs" / "templates.md").read_text(encoding="utf-8")
FENCE = re.compile(r"^ *```(\w*)\n(.*?)^ *```", re.S | re.M)


def _section(title: str, page: str = README) -> str:
    start = page.index(title)
    end = page.find("\n## ", start)
    return page[start:] if end < 0 else page[start:end]


def _blocks(title: str, lang: str, page: str = README) -> list[str]:
    return [textwrap.dedent(body) for kind, body in FENCE.findall(_section(title, page)) if kind == lang]


def _commands(title: str, page: str = README) -> list[list[str]]:
    """The sh blocks of a section, each as its command lines (comments after two spaces dropped)."""
    return [[line.split("  #")[0].strip() for line in block.splitlines() if line.strip()]
            for block in _blocks(title, "sh", page)]


def test_readme_set_up_and_first_deck_build_as_written(tmp_path, capsys):
    """README's set-up commands, then docs/templates.md's workspace by hand with its "Adding a
    deck" files, in an empty folder."""
    ws = tmp_path / "mine"
    ws.mkdir()
    deck, front, back = (_blocks("## Adding a deck", "yaml", TEMPLATES)
                         + _blocks("## Adding a deck", "jinja", TEMPLATES))
    setup = _commands("## Set up and build")
    assert setup[0] == ["pip install -e .", "pnpgen build --game populous"]  # in this checkout
    assert setup[1][0].startswith("pip install .") and setup[1][1:] == ["pnpgen --version"]  # a tool
    commands = setup[1][1:] + [line for block in _commands("## A workspace by hand", TEMPLATES) for line in block]
    assert "pnpgen build --game epic" in commands
    built = False
    for line in commands:  # pip install: the suite runs this checkout's package
        if not line.startswith("pnpgen "):
            subprocess.run(["bash", "-euc", line], cwd=ws, check=True)
            continue
        if line.startswith("pnpgen build"):  # the deck, added as "Adding a deck" says, then the build
            game = shlex.split(line)[shlex.split(line).index("--game") + 1]
            decks = ws / "data" / game / "decks"
            (decks / "epic.yaml").write_text(deck, encoding="utf-8")
            sides = load_yaml(decks / "epic.yaml").data
            (ws / "templates" / game / sides["front"]).write_text(front, encoding="utf-8")
            (ws / "templates" / game / sides["back"]).write_text(back, encoding="utf-8")
            built = True
        try:
            code = run(ws, *shlex.split(line)[1:], "--jobs", "1") if built else run(ws, *shlex.split(line)[1:])
        except SystemExit as e:  # --version
            code = e.code
        assert code == 0, line
    out = capsys.readouterr().out
    assert f"pnpgen {pnpgen.__version__}" in out and "epic: " in out
    assert sorted(p.name for p in ws.iterdir()) == ["build", "data", "templates"]  # no fonts/, no common/
    pdf = PdfReader(ws / "build" / "epic" / "shop" / "epic.pdf")
    assert len(pdf.pages) == 32  # 16 cards, each front followed by its back
    assert "祝福" in pdf.pages[0].extract_text() and "エピック" in pdf.pages[1].extract_text()


@pytest.mark.parametrize("command", sorted(parsers()[1]))
def test_readme_command_line_names_every_command(command):
    assert f"pnpgen {command}" in _section("## Command line")


def test_readme_start_a_game_builds_as_written(tmp_path, capsys):
    """"Start a game of your own": its commands in an empty folder, then its cards.yaml in place of
    the deck pnpgen new wrote; the layouts its comment names are built-in ones. Its first rebuild,
    after the draft's count and game.yaml's players written as it says, prints the lines it shows,
    and the draft no longer disagrees with the data."""
    section = _section("## Start a game of your own")
    first, again = _commands("## Start a game of your own")
    (deck,) = _blocks("## Start a game of your own", "yaml")
    assert first[0] == "mkdir my-games && cd my-games"
    ws = tmp_path / "my-games"
    ws.mkdir()
    for line in first[1:]:
        args = shlex.split(line)[1:]
        assert run(ws, *args, *(["--no-rulebook", "--jobs", "1"] if args[0] == "build" else [])) == 0, line
    game = ws / "data" / "kingdom"
    assert sorted(p.name for p in (game / "decks").iterdir()) == ["cards.yaml", "tiles.yaml", "tokens.yaml"]
    assert (game / "art").is_dir() and (game / "draft.txt").is_file() and (ws / "templates").is_dir()
    path = deck.splitlines()[0].removeprefix("# ")
    assert path == "data/kingdom/decks/cards.yaml"
    (ws / path).write_text(deck, encoding="utf-8")
    # the first rebuild: the draft's count and the player count, written as the section says
    said, written = re.search(r"still says `(◇[^`]+)` \(in `data/kingdom/draft\.txt`\): write\s+`(◇[^`]+)`", section).groups()
    draft = (game / "draft.txt").read_text(encoding="utf-8")
    assert said in draft
    (game / "draft.txt").write_text(draft.replace(said, written), encoding="utf-8")
    (players,) = re.findall(r"`data/kingdom/game\.yaml`, write the player count, `(players: [^`]+)`", " ".join(section.split()))
    yaml_text = (game / "game.yaml").read_text(encoding="utf-8")
    assert re.search(r"^players: 未定", yaml_text, re.M)
    (game / "game.yaml").write_text(re.sub(r"^players: 未定", players, yaml_text, flags=re.M), encoding="utf-8")
    capsys.readouterr()
    assert again == ["pnpgen build --game kingdom"]
    assert run(ws, *shlex.split(again[0])[1:], "--jobs", "1") == 0
    printed = capsys.readouterr()
    shown = [line for body in FENCE.findall(section[section.index("### The first rebuild"):]) if body[0] == ""
             for line in body[1].splitlines() if line.strip()]
    assert len(shown) == 2 and all(line in printed.out.splitlines() for line in shown), (shown, printed.out)
    assert printed.err == ""  # the draft's count and the players agree with the data now
    pdf = PdfReader(ws / "build" / "kingdom" / "shop" / "cards.pdf")
    assert len(pdf.pages) == 10  # 4 騎士 and 1 魔女 (count 1 by default), each front then its back
    assert "騎士" in pdf.pages[0].extract_text() and "魔女" in pdf.pages[8].extract_text()
    assert "騎士" in PdfReader(ws / "build" / "kingdom" / "reprint.pdf").pages[0].extract_text()
    assert "4 × 騎士" in (ws / "build" / "kingdom" / "reprint.txt").read_text(encoding="utf-8")
    capsys.readouterr()
    assert run(ws, "check", "--game", "kingdom") == 0
    checked = capsys.readouterr()
    assert "魔女.text: 未定" in checked.out  # open values: `pnpgen check` lists them
    assert "count of" not in checked.out + checked.err and "players" not in checked.out + checked.err
    named = re.findall(r"\b((?:card|token|tile)-[a-z-]+|board|standee|tuck-box)\b",
                       "".join(line.partition("#")[2] for line in deck.splitlines()[1:]))
    assert len(named) == 12 and set(named) <= set(layouts.builtin_names()), named


def test_readme_command_line_names_every_option():
    """Every option a command takes (but -q/-v, said once for all) is in the Command line section."""
    section = _section("## Command line")
    for name, parser in parsers()[1].items():
        for action in parser._actions:
            if action.help == argparse.SUPPRESS or {"-h", "-q", "-v"} & set(action.option_strings):
                continue
            for option in action.option_strings:
                assert option in section, f"pnpgen {name} {option}"


def test_every_command_line_in_the_docs_names_options_pnpgen_has():
    """Each `pnpgen COMMAND --option value` shown in README.md and docs/*.md (in prose or in a sh
    block) names an option of that command, and a choice it takes."""
    commands = parsers()[1]
    shown = 0
    for page in [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]:
        text = page.read_text(encoding="utf-8")
        lines = re.findall(r"`(pnpgen [^`\n]+)`", text) + [
            line.split("  #")[0].strip() for block in re.findall(r"^```sh\n(.*?)^```", text, re.S | re.M)
            for line in block.splitlines() if line.strip().startswith("pnpgen ")]
        for line in lines:
            words = line.replace("…", " ").split()[1:]
            while words and words[0].startswith("-"):  # pnpgen -C DIR, -q, -v before the command
                words = words[2:] if words[0] == "-C" else words[1:]
            if not words or words[0] not in commands:
                continue
            options = {o: a for a in commands[words[0]]._actions for o in a.option_strings}
            for word, after in zip(words, [*words[1:], ""], strict=True):
                if not word.startswith("--"):
                    continue
                option = word.split("=")[0].rstrip(".,;:)")
                assert option in options, f"{page.name}: {line}: {option}"
                choices = options[option].choices
                if choices and after and not after.startswith(("-", "[", "<")) and "|" not in after:
                    assert after.lower().rstrip(".,;:)") in choices, f"{page.name}: {line}: {after}"
                shown += 1
    assert shown > 50


def _command_lines():
    """Each line of README's Command line section with the command it belongs to (the last
    ``pnpgen CMD`` above it) and that command's options by their flags."""
    commands = parsers()[1]
    command = None
    for line in _section("## Command line").splitlines():
        starts = re.match(r"pnpgen (?:\[[^\]]*\] )?([a-z-]+)", line)
        if starts and starts.group(1) in commands:
            command = starts.group(1)
        if command is not None:
            yield command, {o: a for a in commands[command]._actions for o in a.option_strings}, line


def test_the_values_the_command_line_shows_are_the_defaults():
    """A `[--option VALUE]` in the Command line section shows the option's default (check's
    --min-dpi was shown as 350 against build's 300, its default in both), but where there is
    none (--creep 0, --sleeve: an example), and --jobs's default is told as it is."""
    section = _section("## Command line")
    commands = parsers()[1]
    compared = 0
    for command, options, line in _command_lines():
        for option, value in re.findall(r"\[(--[a-z-]+) ([0-9][^\]|…,]*)\]", line):
            action = options[option]
            default = action.default
            if default is None:  # the default is given in the help: "(default 300)"
                told = re.search(r"default (\d[\w.]*)|e\.g\. (\S+) \(the default", action.help or "")
                default = action.type(told.group(1) or told.group(2)) if told else None
            if not default:
                continue
            assert action.type(value) == default, f"pnpgen {command} {option} {value}: the default is {default}"
            compared += 1
    assert compared >= 5
    jobs = next(a for a in commands["build"]._actions if "--jobs" in a.option_strings)
    assert "at most 8" in jobs.help and "(default: the number of cores, at most 8)" in README
    verbose = next(a for a in commands["rulebook"]._actions if "-v" in a.option_strings)
    assert "-v says how the draft was read and set" in section and "rulebook: how the draft was read" in verbose.help


def test_the_command_line_lists_every_choice_of_an_option_it_shows_as_choices():
    """An option the Command line section shows as choices (`--paper a4|letter|…`) lists all of
    them: build's --paper took ledger, which README's line left out."""
    listed = 0
    for command, options, line in _command_lines():
        for option, alts in re.findall(r"(--[a-z-]+) ([a-z0-9-]+(?:\|[a-z0-9-]+)+)", line):
            if option in options and options[option].choices:
                assert set(options[option].choices) <= set(alts.split("|")), f"pnpgen {command} {option}: {alts}"
                listed += 1
    assert listed >= 10


def test_every_shipped_preset_is_named_where_a_designer_looks_for_it():
    """README's PRESET list, `pnpgen export --help` and docs/exports.md's table of shipped presets
    name each preset pnpgen ships, and no other."""
    from pnpgen.exports.presets import SHIPPED

    shipped = sorted(p.stem for p in SHIPPED.glob("*.yaml"))
    listed = re.search(r"\(PRESET: (.*?); docs/exports\.md\)", " ".join(_section("## Command line").split())).group(1)
    names = [part.strip().split(" ")[0] for part in re.sub(r"\([^)]*\)", "", listed).split(",")]
    assert sorted(n for n in names if n != "or") == shipped, listed
    preset_help = next(a.help for a in parsers()[1]["export"]._actions if "--preset" in a.option_strings)
    assert all(name in preset_help for name in shipped), preset_help
    exports = (REPO / "docs" / "exports.md").read_text(encoding="utf-8")
    table = exports[exports.index("### Shipped presets"):exports.index("Sources:")]
    assert sorted(re.findall(r"^\| `([a-z-]+)` \|", table, re.M)) == shipped


def test_ci_runs_the_test_command_the_readme_gives():
    """README's test command is the one .ci/run runs, word for word (CI runs what a contributor is
    told to run)."""
    (block,) = _commands("## Test")
    tests = [line for line in block if "pytest" in line]
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    told = ci.index("# The test command, exactly as README.md gives it:")
    assert tests == [ci[told + 1]] == ["python -m pytest -q"]
    assert "pip install -e '.[test]'" in block  # CI installs the same, with ruff and mypy: '.[test,dev]'
    assert any("pip install" in line and "-e '.[test,dev]'" in line for line in ci[:told])


def test_the_readme_s_table_of_the_docs_names_every_page():
    """README's Documentation table links every docs/*.md page (a new page is not left unfound),
    with the topic `pnpgen docs` prints it by."""
    section = _section("## Documentation")
    rows = re.findall(r"^\| \[[^\]]+\]\(docs/([a-z-]+)\.md\) \(`([a-z-]+)`\) \|", section, re.M)
    assert sorted(rows) == sorted((p.stem, p.stem) for p in (REPO / "docs").glob("*.md")), rows


def test_the_set_up_shows_what_building_populous_prints_and_writes(built):
    """README's set-up: the lines it quotes of `pnpgen build --game populous` (… for what it leaves
    out) are what the build prints, its file count the files written, and the files it lists there."""
    section = _section("## Set up and build")
    (printed,) = [body for kind, body in FENCE.findall(section) if kind == ""]
    first, *lines = [line for line in printed.splitlines() if line.strip() and line.strip() != "…"]
    log = (built.parent / "built.log").read_text(encoding="utf-8").splitlines()
    for line in lines:
        pattern = re.compile(re.escape(line).replace("…", ".*"))
        assert any(pattern.fullmatch(seen) for seen in log), line
    files = [p for p in (built / "populous").rglob("*") if p.is_file()]
    assert first == f"populous: {len(files)} files in build/populous, {len(files)} written"
    listed = re.findall(r"^\| `([^`|]+)`", section, re.M) + re.findall(r"`(shop/[^`]+)`", section)
    assert len(listed) >= 8
    for name in listed:
        assert (built / "populous" / name).exists(), name


def test_pip_builds_outside_pnpgen_s_output_folder():
    """README: pip builds in `.setuptools-build/` (setup.cfg), never in build/, pnpgen's output
    folder, as setuptools itself reads the configuration."""
    from setuptools.dist import Distribution

    section = " ".join(_section("## Set up and build").split())
    folder = re.search(r"pip builds it in the checkout's `([^`]+)/`, set in `setup.cfg`", section).group(1)
    dist = Distribution()
    dist.parse_config_files([str(REPO / "setup.cfg")])
    build_base = dist.get_option_dict("build")["build_base"][1]
    assert build_base == folder and build_base.split("/")[0] != "build"
    assert f"/{folder}/" in (REPO / ".gitignore").read_text(encoding="utf-8").splitlines()


def test_the_set_up_s_note_on_pip_s_build_folder_holds(tmp_path, capsys):
    """README: pip builds in the checkout's build/; a build/ of pip's files alone is refused with
    the words it quotes, one pnpgen built into first keeps them and builds."""
    quoted = re.search(r"is refused by the next `pnpgen build` there, `([^`]+)`", " ".join(_section("## Set up and build").split())).group(1)
    fresh, used = make_workspace(tmp_path / "fresh"), make_workspace(tmp_path / "used")
    assert run(used, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    for ws in (fresh, used):
        for pip_made in ("lib/pnpgen/__init__.py", "bdist.linux-x86_64/x"):
            (ws / "build" / pip_made).parent.mkdir(parents=True)
            (ws / "build" / pip_made).write_text("", encoding="utf-8")
    capsys.readouterr()
    assert run(fresh, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 2
    assert quoted in capsys.readouterr().err
    assert run(used, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    assert (used / "build" / "lib" / "pnpgen" / "__init__.py").is_file()
