"""Reading the command line: argparse's parsers of pnpgen and its commands, made once a process,
and argparse's mistakes said the way pnpgen says every mistake (what is wrong, what would be right,
"did you mean …?"); -C DIR, values that start with '-' and lengths written apart from their unit
taken before argparse reads the rest. The options themselves: commandoptions.py."""

from __future__ import annotations

import argparse
import functools
import os
import re
from typing import Any, NoReturn

import pnpgen
from pnpgen.commandoptions import commands_table, talk_options
from pnpgen.data import validate
from pnpgen.data.formats import paper_named_by_size
from pnpgen.errors import InputError, suggest


class _Parser(argparse.ArgumentParser):
    """argparse, with its mistakes said in one line (no usage block; ``--help`` shows usage),
    each with what would be right and, for a near miss, "did you mean …?"."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # each option string → its action, kept as the options are added (argparse's own table is
        # private): for "did you mean", "an option of another command" and joining values
        self.options: dict[str, argparse.Action] = {}
        self.by_dest: dict[str, argparse.Action] = {}  # every argument by its name (a positional's too)
        super().__init__(*args, **kwargs)

    def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action:
        return self._remember(super().add_argument(*args, **kwargs))

    def add_subparsers(self, **kwargs: Any) -> Any:
        self.by_dest[kwargs.get("dest") or "command"] = argparse.Action([], kwargs.get("dest") or "command")
        return super().add_subparsers(**kwargs)

    def takes_words(self) -> bool:
        """Does the command take a word that is no option's value (``new SLUG``, ``layout list``)?"""
        return any(not action.option_strings for action in self.by_dest.values())

    def add_mutually_exclusive_group(self, **kwargs: Any) -> Any:
        group = super().add_mutually_exclusive_group(**kwargs)
        add = group.add_argument
        setattr(group, "add_argument", lambda *a, **k: self._remember(add(*a, **k)))  # noqa: B010
        return group

    def _remember(self, action: argparse.Action) -> argparse.Action:
        self.options.update(dict.fromkeys(action.option_strings, action))
        self.by_dest[action.dest] = action
        return action

    # the command being run, for a mistake argparse finds before the command's own parser does
    # (a stray word: ``pnpgen check populous``); a command's parser knows its own from its prog
    running: str | None = None
    game_given = False  # --game (or --all) is on the command line: a stray word is no game name

    def error(self, message: str) -> NoReturn:
        command = self.prog.split(" ", 1)[1] if " " in self.prog else self.running
        # ``pnpgen: error:`` as every other mistake starts (not ``pnpgen build: error:``): the
        # message names the command where it matters ('pnpgen help build')
        self.exit(2, f"pnpgen: error: {_explain(message, command, self.game_given)}\n")


# commands typed as what they show (docs/playtest.md's "Keep the history"): the command, what it shows
WORDS_FOR = {"history": ("log", "the history's versions"), "versions": ("log", "the history's versions"),
             "changelog": ("diff", "the changelog between two versions")}


def _nearest_option(option: str, options: list[str]) -> str:
    """``; did you mean --game?``, the options likened without their dashes: with them ``--gmae``
    was as like ``--paper`` as difflib asks (their ``--``, ``a``, ``e``: 0.615) once ``new`` took it."""
    stems = {o.lstrip("-"): o for o in options if o.lstrip("-")}
    hint = suggest(option.lstrip("-"), stems)
    meant = re.match(r"; did you mean (.*?)\?", hint)
    return hint.replace(meant.group(0), f"; did you mean {stems[meant.group(1)]}?", 1) if meant else hint


def _explain(message: str, command: str | None = None, game_given: bool = False) -> str:
    """argparse's message, said the way pnpgen says every mistake: what is wrong, then what would
    be right, in brackets at the end. ``command``: the one being run, whose options are named
    (its help, the nearest of its own options; a stray word that looks like a game: --game)."""
    listed = f"'pnpgen help {command}'" if command else "'pnpgen help COMMAND'"
    m = re.fullmatch(r"argument (\S+): invalid choice: '(.*)' \(choose from (.*)\)", message, re.S)
    if m:
        name, word, listed = m.groups()
        choices = re.findall(r"'([^']*)'", listed) or [c.strip() for c in listed.split(",")]
        if name in ("command", "COMMAND"):
            meant, shows = WORDS_FOR.get(word.lower(), ("", ""))
            near = f"; did you mean {meant}? (it prints {shows})" if meant in choices else suggest(word, choices)
            return (f"unknown command {word!r}{near} "
                    f"(expected one of {', '.join(choices)}; 'pnpgen help' says what each does)")
        named = paper_named_by_size(word) if name == "--paper" else None  # 8.5x11: letter
        hint = f"; did you mean {named}? (the paper of that size)" if named else suggest(word, choices)
        return f"argument {name}: {word!r} is not a choice{hint} (expected one of {', '.join(choices)})"
    m = re.fullmatch(r"unrecognized arguments: (.*)", message, re.S)
    if m:
        first = m.group(1).split()[0] if m.group(1).split() else m.group(1)
        option = first.split("=", 1)[0]
        owners = [name for name, parser in command_parsers().items() if option in parser.options]
        own = top_parser().options
        short = option[:2] if not option.startswith("--") else option  # -C/tmp is -C with its folder
        if short in own:  # pnpgen's own (-C DIR): before the command, as in git
            if not own[short].metavar:  # --version, --help: a command of their own
                return f"{short} is pnpgen's own option, not a command's (expected: pnpgen {short})"
            return (f"{short} goes before the command, not after it "
                    f"(expected: pnpgen {short} {own[short].metavar} COMMAND …, e.g. pnpgen -C my-games build --game epic)")
        if owners:  # a real option, of other commands: no "did you mean" the same name
            return (f"unknown argument {option!r}: an option of {', '.join(owners)}, not of "
                    f"{command or 'this command'} (expected the options {listed} lists)")
        mine = command_parsers().get(command or "")
        # the nearest of the command's own options (``new --gmae``: new has no --game to offer)
        options = sorted({o for parser in ((top_parser(), mine) if mine else (top_parser(), *command_parsers().values()))
                          for o in parser.options})
        hint = _nearest_option(option, options) if first.startswith("-") else ""
        longs = [o for o in options if re.fullmatch(r"-[A-Za-z]", option) and o.startswith("--" + option[1])]
        if not hint and len(longs) == 1:  # -j for --jobs: the one long option of that letter
            hint = f"; did you mean {longs[0]}?"
        if not hint and mine is not None and "--game" in mine.options and not first.startswith("-") and not game_given:
            hint = f"; a game is named with --game (pnpgen {command} --game {first})"
        return f"unknown argument {first!r}{hint} (expected the options {listed} lists)"
    m = re.fullmatch(r"the following arguments are required: (.*)", message, re.S)
    either = re.fullmatch(r"one of the arguments (.*) is required", message, re.S)
    if either and command in command_parsers():  # build: --game or --all
        wanted = either.group(1).split()
        said = [_required_said(command_parsers()[command], name) for name in wanted]
        return f"missing {' or '.join(wanted)} (expected {'; or '.join(said)}; see {listed})"
    if m and command in command_parsers():
        wanted = m.group(1).split(", ")
        said = [_required_said(command_parsers()[command], name) for name in wanted]
        return f"missing {', '.join(wanted)} (expected {'; '.join(said)}; see {listed})"
    if not message.endswith(")"):
        return f"{message} (see {listed})"
    return message


def _required_said(parser: _Parser, name: str) -> str:
    """What a required argument of ``parser`` takes: its choices, else its help."""
    action = parser.options.get(name) or parser.by_dest.get(name)
    if action is None:
        return name
    if action.choices:
        return f"{name}: one of {', '.join(map(str, action.choices))}"
    return f"{name}: {action.help}" if action.help else name


@functools.cache
def parsers(only: str | None = None) -> tuple[_Parser, dict[str, _Parser]]:
    """Made once per process: the tests run hundreds of commands in one, and parsing leaves the
    parsers as they were. ``only``: the command being run, the one whose options are added (the
    others' names and help alone: every command's options took 10 ms of each start; now not even
    their parsers, 3 ms: a command's own parser reads all its command line, pnpgen's own options
    being -q and -v, which take no value); the whole set is made when a mistake is explained or
    help asked for."""
    p = _Parser(prog="pnpgen", description="Print-and-play components and rulebooks from YAML.",
                epilog="'pnpgen help COMMAND' (or 'pnpgen COMMAND --help') shows a command's options.")
    p.add_argument("-V", "--version", action="version", version=f"pnpgen {pnpgen.__version__}",
                   help="print pnpgen's version and stop")
    p.add_argument("-C", metavar="DIR", dest="directory",
                   help="run as if pnpgen was started in DIR (a workspace, or a folder inside one)")
    talk_options(p)
    sub = p.add_subparsers(dest="command", metavar="COMMAND", title="commands")
    commands: dict[str, _Parser] = {}
    for name, (what, add_options) in commands_table().items():
        if only is None or name == only:
            c = sub.add_parser(name, help=what, description=what[0].upper() + what[1:] + ".")
            add_options(c)
            talk_options(c)
            commands[name] = c
    return p, commands


def top_parser() -> _Parser:
    return parsers()[0]


def command_parsers() -> dict[str, _Parser]:
    return parsers()[1]


def _command_at(argv: list[str]) -> int | None:
    """Where the command stands in ``argv`` (after -C DIR is taken out), None without a known one."""
    at = next((i for i, arg in enumerate(argv) if not arg.startswith("-")), None)
    return at if at is not None and argv[at] in commands_table() else None


def command_running(argv: list[str]) -> str | None:
    """The command ``argv`` runs (the one whose options its parser needs), None without a known one."""
    at = _command_at(argv)
    return argv[at] if at is not None else None


def unknown_options_first(argv: list[str]) -> None:
    """A misspelt option (``--gmae hoshi``) is said as such, with its "did you mean": argparse
    checks a command's required options first and would say only that ``--game`` is missing."""
    at = _command_at(argv)
    if at is None:
        return
    parser = parsers(argv[at])[1][argv[at]]
    value_next = False  # the word after an option that takes a value is that value
    parser.game_given = False  # (the parsers are made once a process: reset for this command line)
    for arg in argv[at + 1:]:
        if arg == "--":
            return
        option = arg.split("=", 1)[0]
        if option.startswith("--") and not any(o.startswith(option) for o in parser.options):
            parser.error(f"unrecognized arguments: {arg}")
        if not arg.startswith("-") and not value_next and not parser.takes_words():
            # a stray word (``build populous``): argparse would say only that --game or --all is missing
            parser.error(f"unrecognized arguments: {arg}")
        named = {id(a): a for o, a in parser.options.items() if o == option or (option.startswith("--") and o.startswith(option))}
        # (an option of no command, -j: the word after it may be its value; argparse names both)
        value_next = arg.startswith("-") and "=" not in arg and (len(named) != 1 or next(iter(named.values())).nargs != 0)
        parser.game_given = parser.game_given or any(a.dest in ("game", "all") for a in named.values())


_NEGATIVE = re.compile(r"-\.?\d")  # -1mm, -0.5, -.5, -1.5,0: a value, never an option's name
_UNIT = re.compile(f"(?i:{validate.UNITS})")  # a unit written apart from its number: --bleed 0.125 in
# the options whose value is a length (or lengths): the types optionvalues.option names after their readers
_LENGTH_TYPES = {"bleed_option", "margin_option", "creep_option", "_sleeve", "_cricut_area", "_silhouette"}


def option_values_joined(argv: list[str]) -> list[str]:
    """``--bleed -1mm`` as ``--bleed=-1mm``: argparse takes a value starting with '-' for an
    option ("expected one argument"), so the option's own reading says what is wrong with it (or
    takes it). ``--bleed 0.125 in`` as ``--bleed=0.125in``: a length written with a space before its
    unit, as game.yaml takes it, is one value, not a stray word 'in'. Only after an option of the
    command that takes a value (a length, for the unit); ``--`` ends the options."""
    at = _command_at(argv)
    if at is None:
        return argv
    actions = parsers(argv[at])[1][argv[at]].options
    out = argv[:at + 1]
    i = at + 1
    while i < len(argv):
        arg = argv[i]
        if arg == "--":
            return out + argv[i:]
        name, eq, given = arg.partition("=") if arg.startswith("--") else (arg, "", "")
        named = [actions[name]] if name in actions else [
            a for o, a in actions.items() if name.startswith("--") and o.startswith(name)]  # argparse's --ble for --bleed
        takes_value = len({id(a) for a in named}) == 1 and named[0].nargs != 0
        # the option's value and the word after it: (given, next) for --bleed=0.125 in, else the next two
        value, after = (given, argv[i + 1:i + 2]) if eq else (argv[i + 1:i + 2], argv[i + 2:i + 3])
        if takes_value and value and after and _UNIT.fullmatch(after[0]) \
                and getattr(named[0].type, "__name__", "") in _LENGTH_TYPES:
            out.append(f"{name}={''.join(value)}{after[0]}")
            i += 2 if eq else 3
            continue
        if takes_value and not eq and i + 1 < len(argv) and _NEGATIVE.match(argv[i + 1]):
            out.append(f"{arg}={argv[i + 1]}")
            i += 2
            continue
        out.append(arg)
        i += 1
    return out


def enter_directory(argv: list[str]) -> list[str]:
    """-C DIR (before the command, as in git and make): go to DIR, so a workspace and every
    relative path of the other options are found from there; ``argv`` without it."""
    rest: list[str] = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--" or not arg.startswith("-"):
            return rest + argv[i:]  # the command: its own options follow
        if arg == "-C" or (arg.startswith("-C") and not arg.startswith("--")):
            folder = arg[2:] if arg != "-C" else (argv[i + 1] if i + 1 < len(argv) else None)
            i += 1 if arg != "-C" else 2
            if not folder:
                raise InputError("needs a folder", key="-C", expected="-C DIR, a workspace or a folder inside one")
            if not os.path.isdir(folder):
                raise InputError(f"{folder!r} is not a folder", key="-C", expected="-C DIR, a workspace or a folder inside one")
            os.chdir(folder)
            continue
        rest.append(arg)
        i += 1
    return rest


def show_help(topic: str | None) -> int:
    """``pnpgen help [COMMAND]``: the help of pnpgen, or of one command."""
    if topic is None:
        top_parser().print_help()
        return 0
    command = command_parsers().get(topic.lower())
    if command is None:
        command_parsers()["help"].error(f"argument command: invalid choice: '{topic}' (choose from "
                                  + ", ".join(f"'{c}'" for c in command_parsers()) + ")")
    command.print_help()
    return 0


DEFAULT_OUT = "the default output folder (no --out given)"


def default_out_said(e: InputError, args: Any) -> InputError:
    """``e`` as the designer typed the command: an output folder's mistake is told as --out's,
    but a command given no --out writes to the workspace's build/, which "build: --out: …" named
    as an option never typed (build, check, export, and each of watch's saves)."""
    if e.key == "--out" and getattr(args, "out", "") is None:
        e.key = DEFAULT_OUT
    return e
