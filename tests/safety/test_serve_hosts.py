"""``pnpgen serve`` answers this machine only. Listening on 127.0.0.1 is not enough: a web page
from elsewhere can make its own name lead to 127.0.0.1 (DNS rebinding) and then read the preview
— the game's data, its faces — as its own. A request that names another host is refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import make_workspace

pytest.importorskip("starlette", reason="the preview's HTTP stack (pip install starlette uvicorn sse-starlette httpx)")

from pnpgen.data.workspace import Workspace
from pnpgen.serve.app import make_app
from pnpgen.serve.preview import Preview


def _app(tmp_path: Path):
    ws = make_workspace(tmp_path / "ws", ["秘密のカード"])
    preview = Preview(Workspace(ws), "test", ws / "build")
    preview.rebuild()
    return make_app(preview, "テストゲーム", watch=False)


def test_a_request_naming_another_host_reads_nothing(tmp_path):
    from starlette.testclient import TestClient

    with TestClient(_app(tmp_path), base_url="http://attacker.example:8765") as client:
        for path in ("/", "/state.json", "/events?limit=1"):
            answer = client.get(path)
            assert answer.status_code == 400 and "秘密" not in answer.text
    for host in ("127.0.0.1:8765", "localhost:8765"):
        with TestClient(_app(tmp_path / host.replace(":", "-")), base_url=f"http://{host}") as client:
            assert "秘密のカード" in client.get("/state.json").text


def test_a_malformed_event_request_is_a_plain_answer(tmp_path):
    from starlette.testclient import TestClient

    with TestClient(_app(tmp_path), base_url="http://127.0.0.1:8765", raise_server_exceptions=False) as client:
        answer = client.get("/events?after=soon")
        assert answer.status_code == 400
