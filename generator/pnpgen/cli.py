"""Command line: thin wrappers over the pipeline stages. Bad input → one clear line, exit 2.

The ``pnpgen`` process itself: its start (the collector, stdout that fails without a traceback,
Ctrl-C), ``main`` running one command, and its end. Reading the command line is commandline.py's,
the commands' options commandoptions.py's, what each command does commands.py's (and checkcommand.py's,
toolcommands.py's)."""

from __future__ import annotations

import contextlib
import functools
import gc
import io
import os
import signal
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pnpgen
from pnpgen.children import forked_end_with_parent
from pnpgen.commandline import (
    command_running,
    default_out_said,
    enter_directory,
    option_values_joined,
    parsers,
    show_help,
    top_parser,
    unknown_options_first,
)
from pnpgen.commandoptions import NO_WORKSPACE
from pnpgen.data.workspace import find_workspace
from pnpgen.errors import STOPPING_SIGNALS, InputError, Stopped, stopped_line
from pnpgen.safetext import shown

# A build is one short process that makes millions of objects and frees nearly all of them as it
# goes. At the collector's default thresholds a cold build of the four games walked its whole heap
# nine times (0.66 s of its 6 s of CPU); fewer, larger young collections cost a third of that, at
# the same peak memory.
COLLECTOR_THRESHOLDS = (50_000, 20, 10)


def console() -> None:
    """The ``pnpgen`` command (and ``python -m pnpgen``): one command per process."""
    gc.set_threshold(*COLLECTOR_THRESHOLDS)
    # A terminal or file whose encoding lacks a character of the game's (Japanese names written to
    # a cp1252 or ascii stdout, as Windows redirects them): \uXXXX, as Python's stderr already
    # says them, where a build ended in a UnicodeEncodeError traceback after writing its files.
    for name in ("stdout", "stderr"):  # started with it closed (pnpgen build >&-): Python leaves None
        if getattr(sys, name) is None:
            setattr(sys, name, open(os.devnull, "w", encoding="utf-8"))  # open for the process's life
    if isinstance(sys.stdout, io.TextIOWrapper):
        sys.stdout.reconfigure(errors="backslashreplace")
        sys.stdout = _Output(sys.stdout)  # type: ignore[assignment]
    if isinstance(sys.stderr, io.TextIOWrapper):  # (2>/dev/full: an error said there ended in status 1)
        sys.stderr = _Output(sys.stderr)  # type: ignore[assignment]
    for stopping in STOPPING_SIGNALS:  # (one ignored as the command starts, nohup's SIGHUP: left ignored)
        if signal.getsignal(stopping) is not signal.SIG_IGN:
            signal.signal(stopping, functools.partial(_ctrl_c, os.getpid()))
    sys.unraisablehook = functools.partial(_ctrl_c_again, sys.unraisablehook)
    forked_end_with_parent()  # a killed command leaves no process of its own behind
    code = main(own_process=True)
    if isinstance(sys.stdout, _Output) and sys.stdout.failed is not None:
        print(f"pnpgen: error: cannot write the command's output: {sys.stdout.failed.strerror} (expected room "
              "where the output goes, or the output not redirected)", file=sys.stderr)
        code = code or 2
    listed = os.environ.get("PNPGEN_TEST_MODULES")  # a test's: the modules the command imported, one a line, written
    if listed:  # there as it ends (tests/test_build_imports.py: a build imports nothing it does not use)
        with open(listed, "w", encoding="utf-8") as f:
            f.write("\n".join(sorted(sys.modules)) + "\n")
    _leave(code)


class _Output:
    """stdout (stderr) that stops writing, without a traceback, once the disk or device it goes to fails
    (``pnpgen build > log`` on a full disk, ``> /dev/full``): the command finishes its work — a
    build commits its files — and ends saying why in one line, exit 2. A closed pipe (``| head``)
    still ends the command as before."""

    def __init__(self, stream: io.TextIOWrapper) -> None:
        self.stream = stream
        self.failed: OSError | None = None

    def write(self, text: str) -> int:
        if self.failed is None:
            try:
                return self.stream.write(text)
            except BrokenPipeError:
                raise
            except OSError as e:
                self.failed = e
        return len(text)

    def flush(self) -> None:
        if self.failed is None:
            try:
                self.stream.flush()
            except BrokenPipeError:
                raise
            except OSError as e:
                self.failed = e

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


# The stopping signals the command's process received: a library that runs the handler itself and
# raises a KeyboardInterrupt of its own in its place (watchfiles' watcher) loses the ``Stopped``'s signal.
_RECEIVED: list[int] = []


def _ctrl_c(command: int, signum: int, frame) -> None:
    """Ctrl-C: the terminal sends it to every process of the command, its worker processes too
    (forked from it, they keep this handler). The command's own process stops as Python does
    (KeyboardInterrupt: its transactions roll back, ``main`` says it in one line); a worker
    ends at once without a word, where each printed a KeyboardInterrupt traceback of its own.
    SIGTERM and SIGHUP stop it alike (``Stopped``, a KeyboardInterrupt): its temporaries removed,
    its workers ended with it (children.py), where they killed it in the middle of its work."""
    if os.getpid() != command:
        os._exit(128 + signum)
    _RECEIVED.append(signum)
    if signum == signal.SIGINT:
        raise KeyboardInterrupt
    raise Stopped(signum)


def _ctrl_c_again(hook: Callable[[Any], None], unraisable: Any) -> None:
    """``sys.unraisablehook``: a Ctrl-C that landed where Python cannot raise it — an object
    finalised by the collector (a generator a template left open), an at-fork hook (logging's, as
    a worker is forked) — was printed as "Exception ignored in: …" with a traceback, and lost: the
    command went on, its workers gone. It is sent again a moment later, from a thread, so that it
    stops the command where it can (one line, exit 130); anything else as ``hook`` says it."""
    if not isinstance(unraisable.exc_value, KeyboardInterrupt):
        hook(unraisable)
        return
    signum = getattr(unraisable.exc_value, "signum", signal.SIGINT)  # (a SIGTERM's Stopped: SIGTERM again)
    while True:  # (on a loaded machine the Ctrl-C sent again can land while this hook still starts
        try:     # its thread: raised in the hook, it would be lost as the first one was; sent again)
            again = threading.Timer(0.01, os.kill, (os.getpid(), signum))
            again.daemon = True
            again.start()
            return
        except KeyboardInterrupt:
            continue


def _leave(code: int) -> None:
    """End the process once its output is out: without tearing its heap down object by object
    (``os._exit``, 30–50 ms of a short command) when nothing else runs — no worker process, no
    thread besides this one; else as Python usually ends. Every file pnpgen writes is closed (and
    renamed into place) before the command returns, so nothing is left in a buffer."""
    import threading

    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):  # a closed pipe: Python's own ending says nothing more either
        sys.exit(code)
    workers = sys.modules.get("multiprocessing")
    if code in STOPPED_STATUSES or (threading.active_count() == 1 and (workers is None or not workers.active_children())):
        # (interrupted: its work rolled back, its workers ended by the same Ctrl-C or with it; Python's
        # own exit would wake a broken worker pool's thread through a pipe closed beside it — CPython
        # 3.11's race, "Exception ignored … Bad file descriptor" under the one line, seen once in CI)
        os._exit(code)
    sys.exit(code)


INTERRUPTED_STATUS = 130  # a command stopped by Ctrl-C (128 + SIGINT), as a shell reports it
STOPPED_STATUSES = {128 + s for s in STOPPING_SIGNALS}  # 130, 143 (SIGTERM), 129 (SIGHUP)
# a --jobs worker process (a document's, a game's, the rulebook's) killed while the build waited for it
WORKER_KILLED = ("a worker process of this command ended abruptly (killed, or by the system short of memory): "
                 "nothing of it was written, the last good output is as it was (expected the command run again; "
                 "with --jobs 1 it starts no workers and needs less memory)")


def main(argv: list[str] | None = None, own_process: bool = False) -> int:
    """``own_process``: the command is the whole process (``console``), not one call of a program
    that goes on after it (a test, a script): what only a process's own start-up may do (the
    build's ``gc.freeze``) is done."""
    argv = list(sys.argv[1:] if argv is None else argv)
    # Every file pnpgen writes is dated 2000-01-01 (pdf/settings.py, dated_as_pnpgen_dates); every
    # ReportLab canvas reads SOURCE_DATE_EPOCH, and one not a whole number (1.5, 1e10, a CI's typo)
    # ended a build in a ValueError traceback from the rulebook's fold marks, or called a face's
    # art unconvertible: dropped for the process and the workers it starts.
    os.environ.pop("SOURCE_DATE_EPOCH", None)
    # The Python processes pnpgen starts (spawned workers, as macOS and Windows start them; the
    # trash's) start in the workspace, and would put it first on their path: its own
    # multiprocessing/ or pnpgen/ folder (a stranger's game) would be imported, and run, there.
    os.environ["PYTHONSAFEPATH"] = "1"
    try:
        here: str | None = os.getcwd()
    except FileNotFoundError:  # the terminal's folder deleted, or replaced by one of its name, since
        here = None
    try:
        argv = option_values_joined(enter_directory(argv))
        if here is None and not _folder_exists():  # (-C DIR went somewhere that is)
            raise InputError("the current folder no longer exists (deleted, or replaced by a new one of the same "
                             "name, since the terminal went into it)", expected='cd into it again (cd "$PWD"), or '
                             "pnpgen -C DIR")
        unknown_options_first(argv)
        parser = parsers(command_running(argv))[0]
        parser.running = command_running(argv)
        args = parser.parse_args(argv)
        args.own_process = own_process
        args.quiet, args.verbose = getattr(args, "quiet", False), getattr(args, "verbose", False)
        if args.quiet and args.verbose:
            parser.error("-q and -v together (say one of them)")
        if args.command is None:
            top_parser().print_help()
            return 0
        if args.command == "help":
            return show_help(args.topic)
        from pnpgen import commands

        if args.command in ("calibrate", "docs", "preflight"):  # no workspace needed (preflight: with FOLDERs)
            if args.command == "calibrate":  # (it records the sheets it wrote in the machine cache)
                from pnpgen import usercache

                usercache.refuse_stranger()
            return _run_by(args.command)(args)
        if args.command in NO_WORKSPACE:  # new makes one
            from pnpgen import scaffold

            return getattr(scaffold, args.command)(args)
        ws = None
        try:
            ws = find_workspace()
            _cache_kept_apart(ws.root, args)
            if isinstance(getattr(args, "game", None), str):
                args.game = ws.game_named(args.game)
                # --lang naming the game's default language: the edition a plain build makes (a
                # build and watch resolve it for each game they build: engine.fresh.for_game)
                if getattr(args, "lang", None) and args.command not in ("build", "watch"):
                    args.lang = commands.asked_language(ws, args.game, args.lang)
            return _run_by(args.command)(ws, args)
        except InputError as e:
            text = str(default_out_said(e, args))
            print(f"pnpgen: error: {shown(ws.shown(text) if ws is not None else text)}", file=sys.stderr)
            return 2
        except Exception as e:  # a BrokenProcessPool (a traceback; the transaction kept the last good output)
            futures = sys.modules.get("concurrent.futures")  # (imported by a command that started workers)
            if futures is None or not isinstance(e, futures.BrokenExecutor):
                raise
            print(f"pnpgen: error: {WORKER_KILLED}", file=sys.stderr)
            return 2
    except InputError as e:  # -C: no such folder
        print(f"pnpgen: error: {shown(str(e))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as e:  # (SIGTERM, SIGHUP: the signal named on the line)
        signum = getattr(e, "signum", _RECEIVED[0] if _RECEIVED else signal.SIGINT)
        print(stopped_line(signum), file=sys.stderr)
        return 128 + signum
    except BrokenPipeError:  # output piped into head or less that closed early
        sys.stderr.close()
        return 0
    except Exception as e:  # a fault of pnpgen's own (a test's or a script's call sees it raised)
        if not own_process or os.environ.get("PNPGEN_TRACEBACK"):
            raise
        return _fault_of_pnpgen(e, argv)
    finally:
        if here is not None:
            with contextlib.suppress(OSError):  # (the folder deleted or renamed while the command ran: watch)
                os.chdir(here)


def _fault_of_pnpgen(error: Exception, argv: list[str]) -> int:
    """A fault of pnpgen's own, not of the designer's files: said in one paragraph, its traceback
    kept in a file of the system's temporary folder to send with a report (as Sphinx keeps its
    own), not printed over the designer's terminal. A build's transaction has kept the output
    folder whole: the last good set, or the new one if the fault came after its commit."""
    import tempfile
    import traceback

    report = "".join(traceback.format_exception(error))
    try:
        handle, path = tempfile.mkstemp(prefix="pnpgen-fault-", suffix=".txt")
        with os.fdopen(handle, "w", encoding="utf-8", errors="backslashreplace") as f:
            f.write(f"pnpgen {pnpgen.__version__}, Python {sys.version.split()[0]}: pnpgen {' '.join(argv)}\n\n{report}")
        kept = f"its report is in {path}"
    except OSError:  # (no temporary folder to write it in: said here instead)
        print(report, file=sys.stderr, end="")
        kept = "its report is above"
    print(f"pnpgen: internal error: {shown(f'{type(error).__name__}: {error}')} — a fault of pnpgen's, not of your "
          "files; the output folder is as a whole build left it (the last good output, or the new one if it was "
          f"committed); {kept}: please send it with the command you ran (PNPGEN_TRACEBACK=1 prints the "
          "traceback here instead)", file=sys.stderr)
    return 1


def _run_by(command: str) -> Callable[..., int]:
    """The function that runs ``command``, named as it is (``export-sheet`` → ``export_sheet``): in
    commands.py (the build and its loop), checkcommand.py or toolcommands.py (the commands beside it),
    each imported only when the ones before it do not hold the command (a build imports neither)."""
    import importlib

    name = command.replace("-", "_")
    for module in ("pnpgen.commands", "pnpgen.checkcommand", "pnpgen.toolcommands"):
        run: Callable[..., int] | None = getattr(importlib.import_module(module), name, None)
        if run is not None:
            return run
    raise AssertionError(f"no function runs the command {command!r}")


def _cache_kept_apart(root: Path, args: Any) -> None:
    """The machine cache is never one of the workspace's or the output folder's folders (usercache);
    ``clean`` sets such a cache aside itself and cleans (toolcommands.clean). Nor is it a folder
    of another's files (``PNPGEN_CACHE=$HOME``: usercache.stranger); nor is the temporary folder
    one of them (scratch.py)."""
    from pnpgen import scratch, usercache

    if args.command != "clean":
        usercache.refuse_inside(cache_kept_from(root, args))
    if args.command != "clean" or usercache.inside(cache_kept_from(root, args)) is None:
        usercache.refuse_stranger()
    scratch.refuse_inside(cache_kept_from(root, args))


def cache_kept_from(root: Path, args: Any) -> list[tuple[Path, str]]:
    """The folders the machine cache may not be in: the workspace, and the output folder ``--out`` names."""
    out = getattr(args, "out", None) if args.command in OUT_FOLDER_COMMANDS else None
    return [(root, "the workspace"), *([(Path(out), "the output folder")] if out else [])]


OUT_FOLDER_COMMANDS = frozenset({"build", "watch", "rulebook", "check", "clean", "export"})  # --out: a folder


def _folder_exists() -> bool:
    """Whether the current folder is still there (a deleted one still answers stat)."""
    try:
        os.getcwd()
    except FileNotFoundError:
        return False
    return True


if __name__ == "__main__":
    console()
