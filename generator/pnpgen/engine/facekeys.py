"""A game's faces rendered, and what they are made from hashed: the keys the cache keeps its faces,
their art and the game's packs under (renders, faces, lints, pieces, nesting). Apart from
game.py: the keys are asked before anything is built (engine/run.py, engine/check.py)."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from functools import partial
from pathlib import Path

from pnpgen.data.art import ArtFolder, Sizes, art_folders
from pnpgen.data.load import check_bleed, load_game, max_dpi_of
from pnpgen.data.model import Game
from pnpgen.data.workspace import Workspace
from pnpgen.engine import prerender as parallel
from pnpgen.engine.cache import Cache
from pnpgen.engine.fingerprint import FileHashes, content_hash, fingerprint, sha, staying_in
from pnpgen.engine.fresh import edition
from pnpgen.engine.options import BuildOptions
from pnpgen.errors import InputError
from pnpgen.faces import builtin, sourcelines
from pnpgen.faces.compiled import CompiledTemplates
from pnpgen.faces.faceset import RenderedGame, render_game
from pnpgen.faces.rendermemo import RenderMemo
from pnpgen.faces.templates import Renderer
from pnpgen.memo import Memo, Stamps
from pnpgen.pdf.assemble import SourceChanged


def load_and_render(ws: Workspace, slug: str, options: BuildOptions, compiled: CompiledTemplates | None = None,
                game: Game | None = None, memo: RenderMemo | None = None,
                known: FileHashes | None = None) -> RenderedGame:
    """A build's faces: the game loaded (unless given, loaded), its bleed checked, and each
    distinct face rendered once (faces/faceset.py ``render_game``), spread over the build's
    workers, its art hashed only if a face needs it (``known``: files' hashes kept by their stamps)."""
    game = game or load_game(ws, slug, lang=options.lang)
    check_bleed(game, options.bleed_mm)
    bleed = options.bleed_mm  # every deck's faces drawn at the build's bleed, but a deck's own wider one
    own = game.drawn_bleeds(bleed)  # (a narrower one: its pages clip the art to it)

    workers = parallel.Workers()

    def spread(renderer: Renderer) -> None:  # the faces over the workers, replayed in order by the face stage
        nonlocal workers
        if memo is not None and options.jobs > 1:
            workers = parallel.prerender(ws, game, options, renderer, memo, bleed)

    try:
        return render_game(ws.templates, game, bleed, options.min_dpi, compiled, memo,
                             partial(art_fingerprint, ws, game, known, memo.stamps if memo is not None else None),
                             before=spread, deck_bleeds=own, max_dpi=max_dpi_of(options.max_dpi, game))  # (the art's hash made only if a face needs it)
    finally:
        workers.close()



def render_inputs(ws: Workspace, slug: str, options: BuildOptions, known: FileHashes | None = None) -> str:
    """What every face of a game is rendered from besides its own deck and piece: templates,
    icons, fonts, game.yaml, pnpgen itself and the options (the art files a face looks at are
    remembered with it: ``RenderMemo.fresh``)."""
    path = ws.data / slug / "game.yaml"
    game_yaml = path.read_bytes() if path.is_file() else b""  # missing: loading the game says so
    return fingerprint(staying_in([ws.templates / slug, ws.templates / "common", builtin.FOLDER, ws.fonts], ws.fonts),
                       (options, game_yaml), known, ws.fonts)  # the art: each face by the files it looked at (RenderMemo)


def cache_uses(cache: Cache, renders: str, face_keys: dict[str, str], nest_memo: Memo[list]) -> set[Path]:
    """The cache entries this build used: its faces, rendered faces and nest choices. (Compiled
    templates are kept in the machine's cache, never in the workspace's: ``CompiledTemplates``.)"""
    uses = {cache.face_path(k + digest) for k, digest in face_keys.items()}
    uses.add(cache.pack_path(renders))  # the faces' renders, in one file
    uses |= {cache.record_path("nest", k) for k in nest_memo.used}
    return uses


def art_fingerprint(ws: Workspace, game: Game, known: FileHashes | None = None, stamps: Stamps | None = None) -> str:
    """Hash of the game's art files (and its templates, which may name art): what a face that
    embeds an image depends on beyond its SVG. ``stamps``: the build's (``Cache.stamps``)."""
    return fingerprint(staying_in(art_folders(ws, game), ws.fonts), None, known, stamps=stamps)


def face_art(svg: str, folder: ArtFolder, whole: str, digest: Callable[[Path], str] = content_hash) -> str:
    """What a face's pictures are made of: the hash of the art files its SVG shows, so editing
    one picture converts again only the faces that show it (an SVG picture with the pictures it
    shows); ``whole`` (``art_fingerprint``) when a file it names is not found in the art folders
    (a link elsewhere); "" when it shows none."""
    if "<image" not in svg:
        return ""
    files = folder.shown_files(svg)
    return whole if files is None else _pictures_hash([(p, digest(p)) for p in files])


def _pictures_hash(hashed: list[tuple[Path, str]]) -> str:
    """The hash of a face's art files, each by its name and its content's hash."""
    return sha(os.fsencode("\n".join(f"{p.name}:{h}" for p, h in hashed)))


def face_pictures_of(rendered: RenderedGame, digest: Callable[[Path], str] = content_hash
                     ) -> tuple[dict[str, str], dict[str, dict[str, str]]]:
    """Each face that shows a picture → the hash of its pictures (``face_art``); and each face that
    shows art files → each file as the designer names it (``art/dragon.png``) and the first 12
    digits of its content's hash, so the change report names a picture replaced (and each icon it
    draws, ``icons/fish.svg``, by its shapes' hash: an icon redrawn). One pass: each
    face's SVG read for its files once."""
    arts: dict[str, str] = {}
    files_of: dict[str, dict[str, str]] = {}
    folder = rendered.art_folder
    for k, svg in rendered.faces.svgs.items():
        icons = sourcelines.icons_drawn(svg)  # each by its file and its shapes' hash: a redrawn icon told by its file
        if icons:
            files_of[k] = {f"icons/{name}": h for name, h in icons}
        if "<image" not in svg:
            continue
        files = folder.shown_files(svg)
        if files is None:
            arts[k] = rendered.art_digest
            continue
        hashed = [(p, digest(p)) for p in files]
        arts[k] = _pictures_hash(hashed)
        if hashed:
            files_of[k] = {folder.shown_name(p): h[:12] for p, h in hashed} | files_of.get(k, {})
    return arts, files_of



_GROUNDED = re.compile(r'href="([^"#]*)#[^"]*\bbg=')


def face_grounds(rendered: RenderedGame) -> dict[str, list[str]]:
    """Each face that flattens a see-through picture onto the colour beneath it (``#bg=``, faces/
    images.py) → those pictures' hrefs: a picture saved again with see-through pixels changes its
    face by that alone, which the change report tells as the picture replaced, not the face edited."""
    return {k: sorted(set(_GROUNDED.findall(svg))) for k, svg in rendered.faces.svgs.items() if "bg=" in svg
            and _GROUNDED.search(svg)}


def face_keys_of(rendered: RenderedGame, digest: Callable[[Path], str] = content_hash,
                 arts: dict[str, str] | None = None) -> dict[str, str]:
    """Each face's key suffix (``face_suffix``) in the cache of converted faces; ``arts``: the
    faces' pictures (``face_pictures_of``) when already worked out."""
    arts = face_pictures_of(rendered, digest)[0] if arts is None else arts
    known = rendered.faces.lines  # (each remembered face's, from its render's record)
    return {k: face_suffix(svg, arts.get(k, ""), known.get(k)) for k, svg in rendered.faces.svgs.items()}


def face_suffix(svg: str, art: str, lines: str | None = None) -> str:
    """What a converted face is cached under beyond its SVG's hash: the hash of the pictures it
    shows (``face_art``) when it embeds an image, and the template lines that drew it (the print
    lint's marks name them; ``lines``: ``sourcelines.lines_of(svg)``, when known), hashed
    together into one 16-digit suffix."""
    images = art[:16] if "<image" in svg else ""
    if lines is None:
        lines = sourcelines.lines_of(svg)  # the template lines the print lint names are part of the art
    if not lines:
        return "-" + images if images else ""
    return "-" + sha(f"{images} {lines}".encode())[:16]


def cached_rendering(cache: Cache, ws: Workspace, slug: str, options: BuildOptions,
                     compiled: CompiledTemplates | None = None,
                     sizes: Sizes | None = None) -> tuple[CompiledTemplates, RenderMemo]:
    """The templates compiled and the faces rendered by earlier builds, from ``cache``;
    ``compiled``: a long-running command's (engine/warm.py), else new; ``sizes``: the art files'
    sizes the game's loading used (a face's image() measures its picture by them)."""
    return (compiled or CompiledTemplates(),
            RenderMemo(known=cache.pack(renders_pack(slug, options)), inputs=render_inputs(ws, slug, options, cache.hashes),
                       digest=cache.digest, stamps=cache.stamps, sizes=sizes))


def renders_pack(slug: str, options: BuildOptions) -> str:
    """The pack of a game's rendered faces in the cache, one per edition (a game in a language)."""
    return f"renders/{edition(slug, options)}"


def saved_again(e: SourceChanged) -> InputError:
    """An art file saved again while the build read it: build again (nothing was replaced)."""
    return InputError(f"{Path(e.path).name} was saved again while the build read it", path=e.path,
                      expected="build again: the last good files are kept")


def faces_pack(slug: str, options: BuildOptions) -> str:
    """The pack of a game's converted faces (their JSON, each picture by its SHA-256): an edit
    reads the thousand faces it did not change in one file, not a thousand files."""
    return f"converted/{edition(slug, options)}"


def lints_pack(slug: str, options: BuildOptions) -> str:
    """The pack of the print lint's findings on a game's faces (faces/printlint.py): an edit
    measures only the faces it changed."""
    return f"lint/{edition(slug, options)}"


def pieces_pack(slug: str, options: BuildOptions) -> str:
    """The pack of the hashes of the pieces of a game's pictures placed from their art files."""
    return f"pieces/{edition(slug, options)}"


def cached_nesting(cache: Cache | None) -> Memo[list]:
    """The nesting searches of earlier builds, from ``cache`` (none without one)."""
    return Memo(known=cache.records("nest") if cache is not None else {})
