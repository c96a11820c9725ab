"""The preview's HTTP server (starlette on uvicorn, 127.0.0.1 only): the page, /state.json, the
pictures, and /events, a server-sent event stream that says ``state`` after every rebuild."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import signal
import socket
import sys
import threading
from collections.abc import Callable, Iterator
from types import FrameType

from pnpgen.data.load import load_game
from pnpgen.data.workspace import Workspace
from pnpgen.engine.fresh import present_inputs, profile_stamps, worth_a_build
from pnpgen.engine.output import claim
from pnpgen.errors import InputError, stopped_line
from pnpgen.safetext import shown, warning_line
from pnpgen.serve.page import html, per_page
from pnpgen.serve.preview import Preview

HOST = "127.0.0.1"  # never another interface: nothing of the game leaves the machine
# The names a request may call this server by. A page from elsewhere can make its own name lead
# to 127.0.0.1 (DNS rebinding) and read what the server answers as its own: such a request, which
# names that other host, is refused.
HOSTS = ["127.0.0.1", "localhost"]
# A face's SVG (the template's own markup) shown with nothing run or fetched: no script, its
# pictures only as the data: URIs it carries, inline styles, and a sandbox of no origin
SVG_POLICY = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; font-src data:; sandbox"


def page_title(ws: Workspace, slug: str, preview: Preview) -> tuple[str, str]:
    """The page's title and language: the game's (an English game's page is ``lang="en"``), else,
    when its data does not load, the last good build's title (the page shows the error). The
    game just built says them in its manifest (``State.title``): the game is not loaded again
    (5,000 illustrated cards: seconds)."""
    if not preview.state.error and preview.state.title and preview.state.lang:
        return preview.state.title, preview.state.lang
    try:
        game = load_game(ws, slug, preview.lang)
    except InputError:
        return preview.built_title or slug, "ja"
    return game.title, game.lang


def make_app(preview: Preview, title: str, watch: bool = True, lang: str = "ja", end: Callable[[], None] | None = None,
             started: str | None = None):
    """The preview's app; ``end`` ends the server (the workspace gone while it serves); ``started``:
    what its first build read (``_watch``)."""
    from sse_starlette.sse import EventSourceResponse
    from starlette.applications import Starlette
    from starlette.concurrency import run_in_threadpool
    from starlette.middleware import Middleware
    from starlette.middleware.trustedhost import TrustedHostMiddleware
    from starlette.requests import Request
    from starlette.responses import HTMLResponse, JSONResponse, Response
    from starlette.routing import Route

    async def page(request: Request) -> HTMLResponse:
        shown = preview.state  # the game as last built: its title edited since the server started
        return HTMLResponse(html(shown, shown.title or title, shown.lang or lang, per_page(request.query_params.get("per_page"))),
                            headers={"Cache-Control": "no-store"})

    async def state(request: Request) -> JSONResponse:
        return JSONResponse(preview.state.to_json(), headers={"Cache-Control": "no-store"})

    async def picture(request: Request) -> Response:
        data = await run_in_threadpool(preview.png, request.path_params["pid"])
        if data is None:
            return Response("no such picture (the game was rebuilt)", status_code=404)
        return Response(data, media_type="image/png", headers={"Cache-Control": "max-age=3600"})

    async def face_svg(request: Request) -> Response:
        try:
            svg = await run_in_threadpool(preview.face_svg, request.path_params["sid"])
        except InputError as e:  # (its pictures too many bytes to send in it)
            return Response(str(e), status_code=413, media_type="text/plain; charset=utf-8")
        if svg is None:
            return Response("no such face (the game was rebuilt, or its data does not load)", status_code=404)
        # opened as a page of its own: the template's SVG, run as nothing (no script, no request
        # out of it: its pictures are in it, the sandbox gives it no origin of the preview's)
        return Response(svg, media_type="image/svg+xml", headers={
            "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff",
            "Content-Security-Policy": SVG_POLICY})

    async def events(request: Request):
        try:
            seen = int(request.query_params.get("after", preview.state.generation))
            limit = int(request.query_params.get("limit", 0))  # close after this many events (tests)
        except ValueError:
            return Response("after and limit are whole numbers", status_code=400)

        async def stream():
            sent = 0
            nonlocal seen
            while True:
                if preview.state.generation > seen:
                    seen = preview.state.generation
                    yield {"event": "state", "data": json.dumps({"generation": seen, "error": preview.state.error,
                                                                 "ended": preview.state.ended}, ensure_ascii=False)}
                    sent += 1
                    if limit and sent >= limit:
                        return
                await asyncio.sleep(0.05)

        return EventSourceResponse(stream())

    @contextlib.asynccontextmanager
    async def lifespan(app):
        task = asyncio.create_task(_watch(preview, end, started)) if watch else None
        yield
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    return Starlette(routes=[Route("/", page), Route("/state.json", state), Route("/events", events),
                             Route("/picture/{pid}.png", picture), Route("/svg/{sid}.svg", face_svg)], lifespan=lifespan,
                     middleware=[Middleware(TrustedHostMiddleware, allowed_hosts=HOSTS)])


# How long the server goes on once the workspace is gone, so that an open page reads the error
# it pushed (the page asks for /state.json on each event) before the server ends (seconds).
GONE_GRACE = 1.0


async def _watch(preview: Preview, end: Callable[[], None] | None = None, started: str | None = None) -> None:
    """Rebuild on every save of what the game's build reads (as ``pnpgen watch`` does), and watch
    a folder the build reads made since the start (then build what it holds). The workspace
    itself gone (deleted, renamed, its name given to a link or another folder) ends the preview as
    it ends ``watch``: one line in the terminal and on the page, then ``end`` (exit 2); it showed
    "unknown game" for ever, and a save built wherever the name led. ``started``: what the first
    build read (``Preview.inputs``), taken before it: a save made since, while the server started
    and before the watcher ran, is built once the watcher runs (the page stayed stale till the next save)."""
    from starlette.concurrency import run_in_threadpool
    from watchfiles import awatch

    root = preview.ws.still_there(None, "serve")
    out = preview.out_root.resolve()
    profiles = profile_stamps(preview.ws)  # printers.yaml: looked at on every tick, as watch does
    folders, present = preview.folders(), present_inputs(preview.ws, preview.slug)
    anew = False  # the watcher started again on other folders: build once it runs (no save missed)
    try:
        while True:
            moved = False
            async for changes in awatch(*folders, debounce=200, step=50, rust_timeout=500, yield_on_timeout=True):
                try:
                    root = preview.ws.still_there(root, "serve")  # (every 0.5 s: a batch, or an empty one)
                except InputError as e:
                    preview.workspace_gone(str(e))
                    print(shown(preview.state.error), file=sys.stderr, flush=True)
                    await asyncio.sleep(GONE_GRACE)
                    if end is not None:
                        end()
                    return
                if present_inputs(preview.ws, preview.slug) != present:
                    moved = True  # a folder the build reads made (or removed) since: watched from now on
                    break
                if started is not None:  # the first tick, the watcher running: a save made before it?
                    anew = anew or await run_in_threadpool(preview.inputs) != started
                    started = None
                now = profile_stamps(preview.ws)
                if anew or worth_a_build(changes, out) or now != profiles:  # (else nothing, an editor's own files, our output)
                    anew, profiles = False, now
                    await _rebuilt(preview)
            if not moved:
                return
            present = present_inputs(preview.ws, preview.slug)
            try:
                folders = preview.folders()
            except InputError:  # a link out below the new folder: not followed (the rebuild says it)
                folders = [f for f in folders if f.exists()]
            anew = True
    except RuntimeError as e:  # watchfiles stopped by itself: the page says so (it was a traceback at Ctrl-C)
        preview.watcher_stopped(str(e))
        print(shown(preview.state.error), file=sys.stderr, flush=True)


async def _rebuilt(preview: Preview) -> None:
    """Build on a save; its error said in the terminal too, as watch says it (the page is not
    always in view), and the save that fixes it too (the error stayed the terminal's last line);
    a save that built says so, with its warnings, what changed and what to reprint, as a build says it."""
    from starlette.concurrency import run_in_threadpool

    broken = bool(preview.state.error)
    state = await run_in_threadpool(preview.rebuild)
    if state.error:
        print(shown(state.error), file=sys.stderr, flush=True)
    elif broken or preview.told is not None:
        again = "fixed, built again" if broken else "built again"
        for warning in state.warnings[bool(preview.profile_left):]:  # (before its lines, as a build says them;
            # the profile left out said at the start and on the page, not on every save)
            print(warning_line(warning), file=sys.stderr, flush=True)
        print(preview.ws.shown(f"{preview.slug}: {again} ({preview.out})"), flush=True)
        for line in preview.told or []:
            print(shown(f"  changed: {line}"), flush=True)


def port_free(port: int) -> None:
    """A port in use is one line, not uvicorn's exit. The probe binds as uvicorn does (SO_REUSEADDR):
    the connections of a preview just stopped, waiting out TCP's TIME_WAIT for a minute, do not
    keep the port from a new one; a server listening there does."""
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((HOST, port))
            probe.listen()
        except OSError as e:
            raise InputError(f"port {port} on {HOST}: {e.strerror}", key="--port",
                             expected="another port (--port 8766), or stop what uses this one") from None


def serve(ws: Workspace, args: argparse.Namespace) -> int:
    import uvicorn

    class _Server(uvicorn.Server):
        """uvicorn's server, which ends quietly on Ctrl-C (SIGINT) and SIGTERM and returns as if it
        had ended by itself: it remembers the signal, so ``serve`` exits 130 (143) as ``watch`` does."""

        stopped_by = 0

        def end(self) -> None:
            """End as Ctrl-C ends it, but as no signal did (the workspace gone: exit 2)."""
            self.handle_exit(0, None)

        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            self.stopped_by = self.stopped_by or sig
            super().handle_exit(sig, frame)

        @contextlib.contextmanager
        def capture_signals(self) -> Iterator[None]:
            """uvicorn's Ctrl-C and SIGTERM, and a closed terminal's SIGHUP, which it leaves to the
            command's handler: raised in the middle of its loop, a traceback."""
            hup = getattr(signal, "SIGHUP", None)
            held = threading.current_thread() is threading.main_thread() and hup is not None
            previous = signal.signal(hup, self.handle_exit) if held and hup is not None else None
            try:
                with super().capture_signals():
                    yield
            finally:
                if held and hup is not None:
                    signal.signal(hup, previous)

        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            """The "preview on" line once the server listens, its Ctrl-C handler in place: said
            before, a Ctrl-C in the instant between (uvicorn still importing) could land in an
            import's clean-up, where Python ignores it, and the preview ran on."""
            await super().startup(sockets=sockets)
            if self.started:
                print(ready, flush=True)

    port_free(args.port)
    claim(args.out or ws.root / "build", ws.input_folders, ws.root)  # an --out no save can make right: exit 2 now
    preview = Preview(ws, args.game, args.out or ws.root / "build", args.lang, margin_mm=args.margin)
    preview.folders()  # a link out of the workspace below them: one line, before anything is served
    started = preview.inputs()  # (a save from now until the watcher runs: built once it does)
    preview.rebuild()
    for warning in preview.state.warnings:  # the first build's, as a build says them
        print(warning_line(warning), file=sys.stderr, flush=True)
    title, lang = page_title(ws, args.game, preview)
    if preview.state.error:
        print(shown(preview.state.error), flush=True)
        if preview.state.decks or preview.state.sheets:
            print(f"{args.game}: the page shows the last good build until the error is fixed", flush=True)
    ready = f"{args.game}: preview on http://{HOST}:{args.port}/ — rebuilt on every save (Ctrl-C to stop)"
    servers: list[_Server] = []  # (the app ends the server it runs in)
    app = make_app(preview, title, lang=lang, end=lambda: servers[0].end(), started=started)
    server = _Server(uvicorn.Config(app, host=HOST, port=args.port, log_level="warning"))
    servers.append(server)
    server.run()
    if server.stopped_by:  # Ctrl-C: 130, as ``watch`` and every shell command stopped by it
        print(stopped_line(server.stopped_by), file=sys.stderr)  # the one line Ctrl-C ends every command with
        return 128 + server.stopped_by
    if preview.gone:
        return 2  # (said in the terminal and on the page: the workspace is gone)
    return 0 if server.started else 3  # (uvicorn's own status when it could not start; it said why)
