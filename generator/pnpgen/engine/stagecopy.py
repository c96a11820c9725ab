"""A document's bytes written into the staging folder: by this process (``stage_file``), or, for a
big one, by a process forked for it (``DocumentCopy``), so the kernel's copies never wait for the
build's interpreter. engine/transaction.py's Staging and commit decide which."""


from __future__ import annotations

import json
import os
import warnings
from pathlib import Path
from typing import NoReturn

from pnpgen.children import end_forked, only_these_open
from pnpgen.engine import spare
from pnpgen.pdf.assemble import PdfFile, SourceChanged


class DocumentCopy:
    """A document written into its staged file by a process forked for it: an interpreter of its
    own, so the kernel's copy of each picture (a thousand cards' document: some 4,500 copies) never
    waits for the lock of this process's interpreter, which the build holds while it goes on (a
    thread of this one waited up to 5 ms before each). The file is opened here, so the process
    makes no name; what it says back through a pipe is nothing, or why it failed. With a ``reuse``
    (engine/spare.py) the file is the spare moved in, and only what follows its common bytes is written:
    here and now when that is all in memory (no picture), by no process of its own; here and now
    too when ``fork`` is False (``--jobs 1``: the build keeps to one core)."""

    def __init__(self, path: Path, data: PdfFile, mode: int, reuse: spare.Spare | None = None,
                 fork: bool = True) -> None:
        self.path, self.data, self.pid = path, data, 0
        self.failure: OSError | None = None  # what stopped the copy (``wait`` raises it)
        opened = reuse.open_as(path, mode) if reuse is not None else None
        if opened is not None:
            fd, start = opened
            data = PdfFile(data.parts[start:])
        else:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
        try:
            os.fchmod(fd, mode)
            if data.in_memory() or not fork:
                # all in memory (a document of text cards, or what follows a spare's common bytes in a
                # text or count edit: the pictures come first), some MB: written here, where a fork of
                # the build's process cost more (its page tables, and a copy-on-write fault for every
                # page the build wrote after)
                data.write_into(fd)
                return
            self.answer, said = os.pipe()
            try:
                with warnings.catch_warnings():  # (3.12 warns of forking beside threads: the process only copies)
                    warnings.simplefilter("ignore", DeprecationWarning)
                    pid = os.fork()
            except OSError:  # no process to be had (memory, a limit on processes): copied here and now
                os.close(self.answer)
                os.close(said)
                data.write_into(fd)
                return
            if pid == 0:
                _copy_and_exit(data, fd, said)
            self.pid = pid
            os.close(said)
        finally:
            os.close(fd)

    def wait(self) -> None:
        """The copy's end: raises what stopped it."""
        if self.pid:
            self._ended(os.waitpid(self.pid, 0)[1])
        if self.failure is not None:
            raise self.failure

    def ended_well(self) -> bool:
        """Has the copy ended, and well? (Its process asked, not waited for.)"""
        if self.pid:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if not pid:
                return False
            self._ended(status)
        return self.failure is None

    def _ended(self, status: int) -> None:
        """The copy's process ended with ``status``: what it said read, what stopped it kept (``failure``)."""
        chunks = []
        while chunk := os.read(self.answer, 4096):
            chunks.append(chunk)
        os.close(self.answer)
        self.pid = 0
        said = json.loads(b"".join(chunks) or b"{}")
        if "changed" in said:
            self.failure = SourceChanged(said["changed"])
        elif said or os.waitstatus_to_exitcode(status) != 0:
            self.failure = OSError(said.get("errno"), said.get("strerror") or "the copy of a document stopped",
                                   said.get("filename") or str(self.path))

    def cancel(self) -> None:
        """Stop the copy (a process ended already is only waited for)."""
        if self.pid:
            end_forked(self.pid, self.answer)
            self.pid = 0


def _copy_and_exit(data: PdfFile, fd: int, said: int) -> NoReturn:
    """The forked process of a ``DocumentCopy``: the document into ``fd``, then gone (``os._exit``: none of
    the build's state is torn down or flushed twice). Every other descriptor is closed first: a
    pipe's end held here would keep the other end of it waiting."""
    code = 1
    try:
        only_these_open(fd, said)
        data.write_into(fd)
        code = 0
    except SourceChanged as e:
        os.write(said, json.dumps({"changed": e.path}).encode())
    except OSError as e:
        os.write(said, json.dumps({"errno": e.errno, "strerror": e.strerror,
                                   "filename": e.filename if isinstance(e.filename, str) else None}).encode())
    finally:
        os._exit(code)


def stage_file(path: Path, data: bytes | PdfFile, mode: int) -> None:
    """One new file in the staging folder."""
    with open(path, "wb") as f:
        if isinstance(data, PdfFile):
            data.write_to(f)  # streamed: its pictures come from the cache as it is written
        else:
            f.write(data)
    os.chmod(path, mode)
