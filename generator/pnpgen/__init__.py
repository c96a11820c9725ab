"""pnpgen: print-and-play components and rulebooks from YAML, Jinja/SVG templates and draft texts."""

__version__ = "0.1.0"
INTERRUPTED = "pnpgen: interrupted"  # what Ctrl-C ends a command with (exit status 130), wherever it comes
