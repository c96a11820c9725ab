"""``python -m pnpgen`` and the ``pnpgen`` command: the command line, imported here under a guard,
so that Ctrl-C while pnpgen's modules are still being imported (the first fifth of a second of
every command) is the same one line and exit status 130 as Ctrl-C later, not a traceback."""

import sys

from pnpgen import INTERRUPTED


def console() -> None:
    try:
        from pnpgen.cli import console as run
    except KeyboardInterrupt:
        print(INTERRUPTED, file=sys.stderr)
        sys.exit(130)
    run()


if __name__ == "__main__":
    console()
