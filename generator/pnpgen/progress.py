"""What a build says while it works: a bar per game on a terminal (rich), plain lines when the
output goes to a file or a pipe, nothing with --quiet."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from pnpgen.safetext import shown


@contextmanager
def progress(slugs: list[str], quiet: bool, verbose: bool) -> Iterator[Callable[[str], None]]:
    """A ``say(text)`` for the build: texts are ``"<slug>: what happens"``."""
    if quiet:
        yield lambda text: None
        return
    if not sys.stdout.isatty():
        yield (lambda text: print(shown(text), flush=True)) if verbose else (lambda text: None)
        return
    from rich.markup import escape
    from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn

    with Progress(SpinnerColumn(), TextColumn("{task.fields[slug]:<24}"), BarColumn(),
                  TextColumn("{task.description}"), transient=True) as bar:
        tasks = {slug: bar.add_task("waiting", slug=slug, total=None) for slug in slugs}

        def say(text: str) -> None:
            slug, _, what = text.partition(": ")
            task = tasks.get(slug)
            if task is None:
                return
            if what == "built":
                bar.update(task, description="done", total=1, completed=1)
            else:
                bar.update(task, description=escape(shown(what)))  # a deck's [name] is text, not markup
            if verbose:
                bar.console.print(shown(text), markup=False, highlight=False)

        yield say
