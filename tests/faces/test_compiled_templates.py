"""A template compiled once is not compiled again for another folder: the same name and text in a
copied workspace, a new build folder or a later process come from memory or the machine's cache
(usercache.py), pointed at their own file, so a template error still names its own file and line."""

from __future__ import annotations

import pytest

from conftest import FRONT, make_workspace, remove_tree, run

# The front with a line that fails while the face is drawn (an unknown palette colour), line 3.
BROKEN = FRONT.replace("{% block art %}", '{% block art %}\n<rect width="3" height="3" fill="{{ colour(\'nosuch\') }}"/>')


@pytest.fixture
def compiled(tmp_path, monkeypatch) -> list[str]:
    """The names of the templates Jinja compiles, from an empty process memory and machine cache."""
    from pnpgen.faces import templates

    monkeypatch.setenv("PNPGEN_CACHE", str(tmp_path / "machine-cache"))
    monkeypatch.setattr("pnpgen.faces.compiled.PROCESS_COMPILED", {})
    names: list[str] = []
    real = templates.FaceEnvironment.compile
    monkeypatch.setattr(templates.FaceEnvironment, "compile",
                        lambda self, source, name=None, *a, **k: names.append(name) or real(self, source, name, *a, **k))
    return names


def test_the_same_template_in_another_workspace_is_not_compiled_again(tmp_path, compiled, monkeypatch):
    assert run(make_workspace(tmp_path / "a", pieces=["カード1"]), "build", "--game", "test", "--no-rulebook") == 0
    assert sorted(compiled) == ["common/piece.svg.j2", "test/card-back.svg.j2", "test/card-front.svg.j2"]
    compiled.clear()
    b = make_workspace(tmp_path / "b", pieces=["カード1"])
    assert run(b, "build", "--game", "test", "--no-rulebook") == 0
    assert compiled == []
    assert (b / "build" / "test" / "cards.pdf").read_bytes() == (tmp_path / "a" / "build" / "test" / "cards.pdf").read_bytes()
    # a later process: from the machine's cache
    monkeypatch.setattr("pnpgen.faces.compiled.PROCESS_COMPILED", {})
    assert run(make_workspace(tmp_path / "c", pieces=["カード1"]), "build", "--game", "test", "--no-rulebook") == 0
    assert compiled == []
    # an edited template is compiled again, in every folder
    c_front = tmp_path / "c" / "templates" / "test" / "card-front.svg.j2"
    c_front.write_text(FRONT.replace("size=9,", "size=8,"), encoding="utf-8")
    assert run(tmp_path / "c", "build", "--game", "test", "--no-rulebook") == 0
    assert compiled == ["test/card-front.svg.j2"]
    # without the machine's cache, a new process compiles
    monkeypatch.setenv("PNPGEN_CACHE", "off")
    monkeypatch.setattr("pnpgen.faces.compiled.PROCESS_COMPILED", {})
    compiled.clear()
    assert run(make_workspace(tmp_path / "d"), "build", "--game", "test", "--no-rulebook") == 0
    assert "test/card-front.svg.j2" in compiled


def test_a_template_from_another_folder_names_its_own_file_and_line(tmp_path, compiled, capsys):
    first = make_workspace(tmp_path / "first", front=BROKEN)
    assert run(first, "build", "--game", "test", "--no-rulebook") == 2
    said = capsys.readouterr().err
    assert said.startswith("pnpgen: error: templates/test/card-front.svg.j2:3: "), said
    remove_tree(first)  # its files gone: a message that named them would fall back on the deck
    compiled.clear()
    second = make_workspace(tmp_path / "second", front=BROKEN)
    assert run(second, "build", "--game", "test", "--no-rulebook") == 2
    assert compiled == []
    again = capsys.readouterr().err
    assert again.startswith("pnpgen: error: templates/test/card-front.svg.j2:3: "), again
    assert "nosuch" in again and "deck 'cards' piece 1" in again


def test_the_check_of_art_outside_the_blocks_reads_a_template_once_per_process(tmp_path, monkeypatch, capsys):
    """Every build read each template's syntax tree again to find art its parent never prints (6 %
    of the in-process builds' time); the same text is read once per process, and an edit that puts
    art outside the block is still told, in a later build of the same process."""
    import jinja2

    from pnpgen.faces import jinjahints

    monkeypatch.setattr(jinjahints, "_PARSED", {}, raising=False)  # (an empty memory)
    parsed: list[str] = []
    real = jinja2.Environment.parse
    monkeypatch.setattr(jinja2.Environment, "parse",
                        lambda self, source, name=None, *a, **k: parsed.append(name) or real(self, source, name, *a, **k))
    for folder in ("a", "b"):
        assert run(make_workspace(tmp_path / folder), "build", "--game", "test", "--no-rulebook") == 0
    assert sorted(parsed) == ["common/piece.svg.j2", "test/card-back.svg.j2", "test/card-front.svg.j2"]
    front = tmp_path / "b" / "templates" / "test" / "card-front.svg.j2"
    front.write_text(FRONT + '<rect width="5" height="5" fill="#000000"/>\n', encoding="utf-8")
    capsys.readouterr()
    assert run(tmp_path / "b", "build", "--game", "test", "--no-rulebook") == 2
    said = capsys.readouterr().err
    assert said.startswith("pnpgen: error: templates/test/card-front.svg.j2:") and "never printed" in said, said


def test_a_kept_instance_loads_no_template_it_loaded_before(tmp_path, monkeypatch):
    """A long-running command's templates (engine/warm.py): a save takes each template's code as
    the last one left it, unloaded; a new instance loads it from the process's memory; an edited
    template is compiled again."""
    import jinja2

    from pnpgen.faces.compiled import CompiledTemplates

    monkeypatch.setenv("PNPGEN_CACHE", "off")
    monkeypatch.setattr("pnpgen.faces.compiled.PROCESS_COMPILED", {})
    loads: list[str] = []
    real = jinja2.bccache.Bucket.bytecode_from_string
    monkeypatch.setattr(jinja2.bccache.Bucket, "bytecode_from_string", lambda self, s: loads.append(self.key) or real(self, s))
    (tmp_path / "t.j2").write_text("{{ 1 + x }}", encoding="utf-8")

    def render(cache: CompiledTemplates) -> str:  # a new environment, as every build makes
        env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(tmp_path)), bytecode_cache=cache)
        return env.get_template("t.j2").render(x=2)

    kept = CompiledTemplates()
    assert render(kept) == "3"  # compiled
    assert render(kept) == "3" and loads == []  # kept: its code as it was
    assert render(CompiledTemplates()) == "3" and len(loads) == 1  # a new instance: loaded from memory
    (tmp_path / "t.j2").write_text("{{ 2 + x }}", encoding="utf-8")
    assert render(kept) == "4" and len(loads) == 1  # edited: compiled again, not the kept code
    assert {f for _, f in kept.code} == {str(tmp_path / "t.j2")}  # pointed at its own file


def test_a_template_edited_many_times_in_one_session_keeps_one_version(tmp_path, monkeypatch):
    """A watch session keeps its templates' code across saves (engine/warm.py): a template edited
    eight times kept eight versions' code and compiled bytes (the store grew with every edit of
    a long session). Each template keeps only its current source's, in the session and in the
    process's memory; an edit undone is loaded again, not compiled, from the machine's cache."""
    from conftest import FRONT as front_text
    from pnpgen.data.workspace import Workspace
    from pnpgen.engine import run as build_run
    from pnpgen.engine.options import BuildOptions
    from pnpgen.engine.warm import Warm
    from pnpgen.faces import compiled as compiled_module
    from pnpgen.faces import templates

    memory: dict[str, bytes] = {}
    monkeypatch.setenv("PNPGEN_CACHE", str(tmp_path / "machine-cache"))
    monkeypatch.setattr(compiled_module, "PROCESS_COMPILED", memory)
    names: list[str] = []
    real = templates.FaceEnvironment.compile
    monkeypatch.setattr(templates.FaceEnvironment, "compile",
                        lambda self, source, name=None, *a, **k: names.append(name) or real(self, source, name, *a, **k))
    root = make_workspace(tmp_path / "ws", pieces=["カード1"])
    front = root / "templates" / "test" / "card-front.svg.j2"
    cards = root / "build" / "test" / "cards.pdf"
    with Warm() as warm:
        build_run.run_build(Workspace(root), ["test"], BuildOptions(jobs=1), root / "build", None, warm=warm)
        first = (len(warm.compiled.code), len(memory), cards.read_bytes())
        assert first[0] == 3 and first[1] == 3  # the front, the back, the piece they extend
        for size in range(10, 18):
            front.write_text(front_text.replace("size=9,", f"size={size},"), encoding="utf-8")
            build_run.run_build(Workspace(root), ["test"], BuildOptions(jobs=1), root / "build", None, warm=warm)
            assert (len(warm.compiled.code), len(memory)) == first[:2], size
        assert names.count("test/card-front.svg.j2") == 9 and names.count("common/piece.svg.j2") == 1
        front.write_text(front_text, encoding="utf-8")  # undone: its first code, from the machine's cache
        names.clear()
        build_run.run_build(Workspace(root), ["test"], BuildOptions(jobs=1), root / "build", None, warm=warm)
        assert names == [] and len(warm.compiled.code) == 3 and cards.read_bytes() == first[2]
