"""``python -m pnpgen`` and the ``pnpgen`` command: the command line, imported and run here under a
guard, so that Ctrl-C while pnpgen's modules are still being imported (the first fifth of a second of
every command), SIGTERM or Ctrl-C in the instants between the command's handler put in place and
the command's own guard (cli.py ``console`` and the start of ``main``), and one as the process ends
(``_leave``), are the same one line and exit status as a signal during the command, not a traceback."""

import sys

from pnpgen import INTERRUPTED


def console() -> None:
    try:
        from pnpgen.cli import console as run

        run()
    except KeyboardInterrupt as e:  # (SIGTERM, SIGHUP: a Stopped, the signal named on the line)
        signum = getattr(e, "signum", None)
        if signum is None:
            print(INTERRUPTED, file=sys.stderr)
            sys.exit(130)
        from pnpgen.errors import stopped_line

        print(stopped_line(signum), file=sys.stderr)
        sys.exit(128 + signum)


if __name__ == "__main__":
    console()
