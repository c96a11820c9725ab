"""A document's bytes written into the staging folder: by this process (``stage_file``), or, for a
big one, by another process (``DocumentCopy``) — the build's copier (``Copier``), forked once beside
the converting workers, or else a process forked for that document — so the kernel's copies never
wait for the build's interpreter. engine/transaction.py's Staging and commit decide which."""


from __future__ import annotations

import array
import json
import marshal
import os
import socket
import threading
import warnings
from pathlib import Path
from typing import NoReturn

from pnpgen.children import end_forked, only_these_open
from pnpgen.engine import spare
from pnpgen.pdf.assemble import PdfFile, SourceChanged, Stored


class DocumentCopy:
    """A document written into its staged file by a process forked for it: an interpreter of its
    own, so the kernel's copy of each picture (a thousand cards' document: some 4,500 copies) never
    waits for the lock of this process's interpreter, which the build holds while it goes on (a
    thread of this one waited up to 5 ms before each). The file is opened here, so the process
    makes no name; what it says back through a pipe is nothing, or why it failed. With a ``reuse``
    (engine/spare.py) the file is the spare moved in, and only what follows its common bytes is written:
    here and now when that is all in memory (no picture), by no process of its own; here and now
    too when ``fork`` is False (``--jobs 1``: the build keeps to one core). With a ``copier`` (the
    build's ``Copier``) the copy is its job, not a process of its own: no fork of the build's grown
    heap (each fork makes the build fault again on every page it writes after)."""

    def __init__(self, path: Path, data: PdfFile, mode: int, reuse: spare.Spare | None = None,
                 fork: bool = True, copier: Copier | None = None) -> None:
        self.path, self.data, self.pid = path, data, 0
        self.failure: OSError | None = None  # what stopped the copy (``wait`` raises it)
        self.copier, self.job = copier, 0  # the copier doing it, and its job's number (0: none)
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
            if copier is not None and copier.pid:
                try:
                    self.job = copier.copy(fd, data)
                    return
                except OSError:  # (the copier gone: a process forked for this copy, as without one)
                    copier.end()
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
        if self.job and self.copier is not None:
            self._told(self.copier.said(self.job, wait=True) or {})
        if self.pid:
            self._ended(os.waitpid(self.pid, 0)[1])
        if self.failure is not None:
            raise self.failure

    def ended_well(self) -> bool:
        """Has the copy ended, and well? (Its process asked, not waited for.)"""
        if self.job and self.copier is not None:
            said = self.copier.said(self.job, wait=False)
            if said is None:
                return False
            self._told(said)
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
        self._told(said if said or os.waitstatus_to_exitcode(status) == 0 else {"stopped": True})

    def _told(self, said: dict) -> None:
        """What the copy said at its end (nothing: it ended well), kept as ``failure``."""
        self.job = 0
        if "changed" in said:
            self.failure = SourceChanged(said["changed"])
        elif said:
            self.failure = OSError(said.get("errno"), said.get("strerror") or "the copy of a document stopped",
                                   said.get("filename") or str(self.path))

    def cancel(self) -> None:
        """Stop the copy (a process ended already is only waited for; the copier's job is dropped:
        the copier ends with the staging, ``Copier.end``)."""
        if self.job and self.copier is not None:
            self.copier.drop(self.job)
            self.job = 0
        if self.pid:
            end_forked(self.pid, self.answer)
            self.pid = 0


class Copier:
    """One process, forked once beside the build's converting workers (``fork``: the build's heap
    write-protected once for both), that copies every big document of the build into the staging
    folder: each is a job sent through a socket — the staged file's descriptor, and the document's
    parts (its bytes in memory, its pictures as places in files) — copied on a thread of the
    copier's own, beside the others. Forked for each document instead, a thousand cards' build
    forked its grown heap four times more after the documents began, and faulted again on every
    page it wrote after each (jobs46: some 29,000 faults, docs/speed.md). Each job's end is said
    back through a pipe, one line each: nothing, or why it failed (as ``DocumentCopy``'s process
    says). Ended (killed) with the staging: its jobs are waited for by the commit first."""

    def __init__(self) -> None:
        self.pid = 0
        self._sock: socket.socket | None = None
        self._answer = -1
        self._jobs = 0  # the last job's number
        self._said: dict[int, dict] = {}  # what the jobs ended so far said, by number
        self._dropped: set[int] = set()  # jobs whose end is no longer wanted
        self._pending = b""  # an answer's line read in part

    @classmethod
    def fork(cls) -> Copier | None:
        """The copier, forked now; None where no process is to be had."""
        copier = cls()
        try:
            mine, theirs = socket.socketpair()
        except OSError:  # (no descriptor to be had: each document copied by a process forked for it)
            return None
        try:
            answer, said = os.pipe()
        except OSError:
            mine.close()
            theirs.close()
            return None
        try:
            with warnings.catch_warnings():  # (3.12 warns of forking beside threads: the copier imports nothing)
                warnings.simplefilter("ignore", DeprecationWarning)
                pid = os.fork()
        except OSError:
            for end in (mine, theirs):
                end.close()
            os.close(answer)
            os.close(said)
            return None
        if pid == 0:
            _copier(theirs.fileno(), said)
        theirs.close()
        os.close(said)
        copier.pid, copier._sock, copier._answer = pid, mine, answer
        return copier

    def copy(self, fd: int, data: PdfFile) -> int:
        """``data`` into ``fd`` from its position, as a job of the copier's: its number. ``fd`` is
        the caller's still (the copier has its own copy of it)."""
        assert self._sock is not None
        self._jobs += 1
        body = marshal.dumps([p if isinstance(p, bytes) else (p.path, p.size, p.offset, p.stamp) for p in data.parts])
        flags = getattr(socket, "MSG_NOSIGNAL", 0)  # (the copier gone: an OSError here, not a SIGPIPE)
        header = self._jobs.to_bytes(8, "little") + len(body).to_bytes(8, "little")
        # (socket.send_fds, but with the flags: it drops them)
        sent = self._sock.sendmsg([header], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", [fd]))], flags)
        self._sock.sendall(header[sent:] + body, flags)
        return self._jobs

    def said(self, job: int, wait: bool) -> dict | None:
        """What ``job`` said at its end (``{}``: it ended well; the copier gone: it stopped); None
        while it goes on and ``wait`` is False."""
        while job not in self._said:
            if self._answer < 0:  # (ended by ``end``, its jobs with it)
                return {"stopped": True}
            if not self._read(wait):
                return None
        return self._said.pop(job)

    def _read(self, wait: bool) -> bool:
        """The answers the copier has said, read (waiting for one if ``wait``): whether any came.
        Its end (killed, out of memory): every job not ended is said to have stopped."""
        if self._answer < 0:
            return False
        os.set_blocking(self._answer, wait)
        try:
            chunk = os.read(self._answer, 65536)
        except BlockingIOError:
            return False
        if not chunk:
            os.close(self._answer)
            self._answer = -1
            for job in range(1, self._jobs + 1):
                if job not in self._dropped:
                    self._said.setdefault(job, {"stopped": True})
            return True
        *lines, self._pending = (self._pending + chunk).split(b"\n")
        for line in lines:
            job, said = json.loads(line)
            if job not in self._dropped:
                self._said[job] = said
        return True

    def drop(self, job: int) -> None:
        """``job``'s end no longer wanted (another file replaces its document, the build failed)."""
        self._dropped.add(job)
        self._said.pop(job, None)

    def end(self) -> None:
        """The copier ended (killed: what it still copies is no longer wanted) and waited for."""
        if self.pid:
            try:
                os.kill(self.pid, 9)
                os.waitpid(self.pid, 0)
            except (ProcessLookupError, ChildProcessError):  # (ended and waited for already)
                pass
            self.pid = 0
        if self._sock is not None:
            self._sock.close()
            self._sock = None
        if self._answer >= 0:
            os.close(self._answer)
            self._answer = -1


def _copier(sock: int, said: int) -> NoReturn:
    """The copier's process: each job taken from ``sock`` copied on a thread of its own, its end
    said through ``said``; gone once the build's end of the socket closes. Every other descriptor
    is closed first (the converting workers' pipes it was forked beside: held, a worker would wait
    for a chunk's number for ever)."""
    code = 1
    try:
        only_these_open(sock, said)
        conn = socket.socket(fileno=sock)
        telling = threading.Lock()
        copies = []
        while True:
            header, fds, _, _ = socket.recv_fds(conn, 16, 1)
            if not header:
                break
            while len(header) < 16:  # (a header read in part)
                header += _exactly(conn, 16 - len(header))
            job, size = int.from_bytes(header[:8], "little"), int.from_bytes(header[8:], "little")
            parts = marshal.loads(_exactly(conn, size))
            copy = threading.Thread(target=_copy_job, args=(job, fds[0], parts, said, telling))
            copy.start()
            copies.append(copy)
        for copy in copies:
            copy.join()
        code = 0
    finally:
        os._exit(code)


def _exactly(conn: socket.socket, size: int) -> bytes:
    """``size`` bytes from ``conn``: EOFError if it closes first."""
    view = memoryview(bytearray(size))
    at = 0
    while at < size:
        n = conn.recv_into(view[at:])
        if not n:
            raise EOFError
        at += n
    return bytes(view)


def _copy_job(job: int, fd: int, parts: list, said: int, telling: threading.Lock) -> None:
    """One of the copier's jobs: the parts into ``fd``, then its end said (``DocumentCopy``'s words)."""
    answer: dict = {}
    try:
        PdfFile(tuple(p if isinstance(p, bytes) else Stored(*p) for p in parts)).write_into(fd)
    except SourceChanged as e:
        answer = {"changed": e.path}
    except OSError as e:
        answer = {"errno": e.errno, "strerror": e.strerror,
                  "filename": e.filename if isinstance(e.filename, str) else None}
    except BaseException:  # noqa: BLE001 - said as a copy stopped
        answer = {"stopped": True}
    finally:
        os.close(fd)
    with telling:
        os.write(said, json.dumps([job, answer]).encode() + b"\n")


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
