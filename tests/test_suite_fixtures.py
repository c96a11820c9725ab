"""The suite's own fixtures where they replace pytest's (tests/conftest.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

SEEN: list[Path] = []


@pytest.mark.parametrize("n", [1, 2])
def test_each_test_gets_a_new_empty_folder_of_its_own_in_the_runs_temporary_folder(tmp_path, tmp_path_factory, n):
    assert tmp_path.is_dir() and not any(tmp_path.iterdir())
    assert tmp_path.parent == tmp_path_factory.getbasetemp()
    assert "test_each_test_gets_a_new_emp" in tmp_path.name
    assert tmp_path not in SEEN
    SEEN.append(tmp_path)
    (tmp_path / "left.txt").write_text("what the next test must not see", encoding="utf-8")


def test_built_shared_builds_each_workspace_once_and_hands_every_test_the_same(built_shared):
    args = ("build", "--game", "test", "--no-rulebook", "--jobs", "1")
    one = built_shared(*args, pieces=["カード1"])
    assert (one / "build" / "test" / "cards.pdf").is_file()
    assert built_shared(*args, pieces=["カード1"]) == one  # asked again: the same folder, not built again
    other = built_shared(*args, pieces=["カード2"])
    assert other != one and "カード2" in (other / "data" / "test" / "decks" / "cards.yaml").read_text(encoding="utf-8")


def _fixtures(path: Path) -> set[str]:
    """The fixtures a test module defines, by the name a test asks for them by."""
    import ast

    names: set[str] = set()
    text = path.read_text(encoding="utf-8")
    if "fixture" not in text:  # none is made without the word: 58 of the 244 modules' 2.7 MB parsed, not all
        return names
    for node in ast.walk(ast.parse(text)):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for deco in node.decorator_list:
            call = deco if isinstance(deco, ast.Call) else None
            target = call.func if call is not None else deco
            if ast.unparse(target) in ("pytest.fixture", "fixture"):
                named = [k.value for k in (call.keywords if call is not None else []) if k.arg == "name"]
                names.add(named[0].value if named and isinstance(named[0], ast.Constant) else node.name)
    return names


def test_no_test_module_shadows_a_fixture_of_the_suites_conftest():
    """A module's own fixture named as one of conftest.py's hides it there, and the session
    fixtures that look for tests asking for it by name (``built``: the four games built in the
    background) start work no test of the module needs."""
    here = Path(__file__).parent
    shared = _fixtures(here / "conftest.py")
    assert {"built", "workspace", "built_shared"} <= shared  # (the reader finds them)
    shadowing = sorted(f"{path.relative_to(here)}: {name}" for path in here.rglob("test_*.py")
                       for name in _fixtures(path) & shared)
    assert shadowing == []


CRASHING_RUN = {
    "pytest.ini": "[pytest]\naddopts = --disable-plugin-autoload -p xdist.plugin -p no:cacheprovider\n",
    "conftest.py": "from scheduling import scheduling_for\n\n\n"
                   "def pytest_xdist_make_scheduler(config, log):\n    return scheduling_for({})(config, log)\n",
    "test_a.py": "".join(f"def test_a{i}():\n    pass\n\n\n" for i in range(12)),
    "test_b.py": "import os\n\n\ndef test_before():\n    pass\n\n\ndef test_dies():\n    os._exit(3)\n\n\n"
                 "def test_after():\n    pass\n",
    "test_c.py": "".join(f"def test_c{i}():\n    pass\n\n\n" for i in range(4)),
    "test_d.py": "def test_d():\n    pass\n",
}


def test_a_worker_that_dies_is_reported_once_and_the_run_ends(tmp_path):
    """tests/scheduling.py: a test that kills its pytest-xdist worker is one failure, run once; the
    rest of its module runs on another worker, and the run ends (pytest-xdist's loadscope ran it
    again on the next worker, which died too, and then waited for ever: CI's limit)."""
    import os
    import subprocess
    import sys

    for name, text in CRASHING_RUN.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    env["PYTHONPATH"] = str(Path(__file__).parent)
    # one worker: its replacement takes the rest of the dead one's module (stock loadscope hangs so
    # too); the timeout only against that hang, long for a loaded machine (a run takes some 2 s idle)
    done = subprocess.run([sys.executable, "-m", "pytest", "-n", "1", "--dist", "loadscope", "-q", "-rf"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    out = done.stdout + done.stderr
    assert done.returncode == 1, out
    assert "1 failed, 19 passed" in out, out
    assert out.count("died running test_b.py::test_dies") == 1 and "memory available" in out, out
