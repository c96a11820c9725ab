"""Compiled templates kept between builds: in the process's memory and in the machine's cache
(usercache.py), by each template's name and source, through Jinja's bytecode-cache interface."""

from __future__ import annotations

from types import CodeType

import jinja2

from pnpgen import usercache

# Templates compiled in this process, by bucket key: the default ``memory`` of every
# ``CompiledTemplates`` (``pnpgen watch`` and every later build of the same process reuse them).
# Jinja checks each entry's source checksum, so sharing it can never serve a stale template.
PROCESS_COMPILED: dict[str, bytes] = {}
COMPILED_KIND = "templates"  # compiled templates by name and source, in the machine's cache (usercache.py)


class CompiledTemplates(jinja2.BytecodeCache):
    """Compiled templates kept between builds (Jinja's public bytecode-cache interface): in
    ``memory`` (by default the process's own, so ``pnpgen watch`` compiles a template once) and
    in the machine's cache (``usercache.py``), by the template's name and source text, so the
    same template in another folder (a copied workspace, a new build folder, ``pnpgen check``)
    is not compiled again — 10 % of the CPU of a first ``pnpgen build --all`` of the shipped
    games, 13 ms of a small game's first build. Jinja checks each entry's source checksum, so an
    edited template is compiled again; an entry that does not load (damaged, other Python) is
    too. Jinja's generated code does not depend on the file's path; the code found is pointed at
    this file (``_at``), so tracebacks and messages name it.

    Never in the workspace's own ``.cache/``: compiled code there would come with a zipped or
    shared workspace and run outside the template sandbox (its checks are a checksum anyone can
    compute). The machine's cache is written by pnpgen alone, for this user."""

    GENERATION = "sandbox+budget+lines+joins+printed+compares+slices 6"  # how templates are compiled (faces/budget.py): a change makes old entries unused

    def __init__(self, memory: dict[str, bytes] | None = None):
        self.memory = PROCESS_COMPILED if memory is None else memory
        # the code found or compiled, pointed at its file, by bucket key and file: kept by a
        # long-running command (engine/warm.py), whose next save loads none of it again (each
        # template's entry unpickled, its code unmarshalled and pointed at the file: some 10 ms of
        # a populous save, 17 templates)
        self.code: dict[tuple[str, str], CodeType] = {}
        # each template's (name, file's) bucket key as last asked for: an edited template's code for
        # its earlier source is dropped, here and from ``memory`` (a long watch session kept the
        # code of every version of a template edited a hundred times)
        self.current: dict[tuple[str, str], str] = {}

    def get_bucket(self, environment: jinja2.Environment, name: str, filename: str | None,
                   source: str) -> jinja2.bccache.Bucket:
        """The template's bucket, keyed by its name and source (not its file's path), its code
        found in memory or in the machine's cache when it was compiled before."""
        checksum = self.get_source_checksum(source)
        key = usercache.key(self.GENERATION.encode(), jinja2.__version__.encode(), name.encode(), checksum.encode())
        bucket = jinja2.bccache.Bucket(environment, key, checksum)
        at = filename or "<template>"
        self._now(name, at, key)
        code = self.code.get((key, at))
        if code is not None:  # (the same name and source: the same code)
            bucket.code = code
            return bucket
        data = self.memory.get(key)
        if data is None:
            kept = usercache.get(COMPILED_KIND, key)
            data = kept if isinstance(kept, bytes) else None
        if data is not None:
            try:
                bucket.bytecode_from_string(data)  # Jinja's own checks: its format, this source
            except Exception:  # noqa: BLE001 - a damaged entry (any error unpickling it): compile again
                bucket.reset()
        if bucket.code is not None:
            self.memory[key] = data  # type: ignore[assignment]  # loaded above
            bucket.code = self.code[key, at] = _at(bucket.code, at)
        return bucket

    def _now(self, name: str, at: str, key: str) -> None:
        """``key`` is now the template's (``name`` at ``at``): the code of the source it had
        before is dropped, and its compiled bytes from ``memory`` unless another template's
        current source has them (the machine's cache keeps them: an edit undone loads them)."""
        was = self.current.get((name, at))
        self.current[name, at] = key
        if was is not None and was != key:
            self.code.pop((was, at), None)
            if was not in self.current.values():
                self.memory.pop(was, None)

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        """Unused: ``get_bucket`` looks entries up by name and source."""

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        if bucket.code is not None:  # (compiled from its file: Jinja named it)
            self.code[bucket.key, bucket.code.co_filename] = bucket.code
        if bucket.key not in self.memory:
            data = self.memory[bucket.key] = bucket.bytecode_to_string()
            usercache.put(COMPILED_KIND, bucket.key, data)


def _at(code: CodeType, filename: str) -> CodeType:
    """Compiled template code (its functions' code nested in its constants) as compiled from
    ``filename``: Jinja names a template's file, and a traceback its lines, by ``co_filename``."""
    consts = tuple(_at(c, filename) if isinstance(c, CodeType) else c for c in code.co_consts)
    return code.replace(co_filename=filename, co_consts=consts)
