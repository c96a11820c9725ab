"""Convert a build's distinct faces (SVG → vector art), each once, in worker processes when the
machine has cores to spare. Results come back in key order, so output never depends on timing."""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor
from functools import partial
from typing import Any

from pnpgen.build.faces import FaceSet
from pnpgen.render import vector


def _convert(job: tuple[str, str, Any]) -> vector.Art:
    svg, where, art_folder = job
    return vector.convert(svg, where, resolve=partial(art_folder.resolve, where=where))


def convert_faces(faces: FaceSet, art_folder, jobs: int = 1,
                  known: dict[str, vector.Art] | None = None) -> dict[str, vector.Art]:
    """Art for every face of ``faces``; ``known`` (e.g. from the cache) is reused, not converted.
    ``art_folder`` (data/art.py ArtFolder) resolves the ``<image>`` files faces name."""
    arts = dict(known or {})
    todo = sorted(k for k in faces.svgs if k not in arts)
    jobs_list = [(faces.svgs[k], faces.where[k], art_folder) for k in todo]
    if jobs > 1 and len(todo) > 64:  # fewer faces convert faster than worker processes start
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            arts.update(zip(todo, pool.map(_convert, jobs_list, chunksize=8)))
    else:
        arts.update(zip(todo, map(_convert, jobs_list)))
    return arts
