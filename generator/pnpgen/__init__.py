"""pnpgen: print-and-play components and rulebooks from YAML, Jinja/SVG templates and draft texts."""

import os
import sys
from types import ModuleType

__version__ = "0.1.0"
INTERRUPTED = "pnpgen: interrupted"  # what Ctrl-C ends a command with (exit status 130), wherever it comes

# ReportLab's own settings, which it reads from outside the workspace when it is first imported.
REPORTLAB_HOOKS = ("reportlab_mods", "reportlab_settings")  # modules it imports from anywhere on Python's path
REPORTLAB_ENVIRONMENT = "RL_"  # RL_<setting>: an environment variable it takes a setting from


def reportlab_as_shipped() -> None:
    """ReportLab, first imported, runs ``reportlab_mods`` and ``reportlab_settings`` modules found
    anywhere on Python's path (the current folder, under ``python -m pnpgen``), else
    ``~/.reportlab_mods`` (as Python) and ``~/.reportlab_settings``, and takes any setting from an
    ``RL_<setting>`` environment variable: ``invariant=0`` there dated the rulebook by the clock
    (the same inputs, other bytes), a workspace's ``reportlab_mods.py`` ran as code, ``HOME=/dev/null``
    (a service's, a CI runner's) stopped the build with a traceback blamed on a font, and
    ``RL_invariant=maybe`` ended a worker as if killed. pnpgen builds from ReportLab's shipped
    settings alone: empty modules stand for the two hooks, and the variables are dropped, before
    anything imports ReportLab (every pnpgen process imports this package first)."""
    for name in REPORTLAB_HOOKS:
        sys.modules.setdefault(name, ModuleType(name))
    for key in [key for key in os.environ if key.startswith(REPORTLAB_ENVIRONMENT)]:
        del os.environ[key]


reportlab_as_shipped()
