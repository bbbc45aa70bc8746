"""What the subcommands of the command line share: the one-value-per-option rule, the refusal of
an option that would have no effect, errors as one line and an exit status, the worker count and
the options of the commands that reuse result files (the progress bar: :mod:`inexeval.cli.progress_bar`)."""

from __future__ import annotations

import sys

import click

from inexeval.errors import InexevalError
from inexeval.interrupts import signals_end_the_command


def fail(err: InexevalError, debug: bool) -> None:
    if debug:
        import traceback

        traceback.print_exc()
    for line in str(err).splitlines():
        click.echo(f"inexeval: error: {line}", err=True)
    sys.exit(err.exit_status)


def check_repeats(ctx: click.Context, order) -> None:
    """A UsageError when an option that takes one value is given twice (``-config A -config B`` would
    silently use B): options that take several values are declared ``multiple``; a flag given twice is
    the same flag."""
    seen: set[str] = set()
    for param in order:
        if not isinstance(param, click.Option) or param.multiple or param.is_flag or param.count:
            continue
        if param.name in seen:
            raise click.UsageError(f"option {param.opts[-1]} given more than once (it takes one value; "
                                   "give it once)", ctx)
        seen.add(param.name)


def whole_option(exc: click.NoSuchOption, args: list[str], ctx: click.Context) -> click.NoSuchOption:
    """The unknown option as the user wrote it, with the close matches among the command's options.

    click reads an unknown word with one dash (``-confg``) as a cluster of one-letter flags and
    names its first letter (``No such option '-c'``); the word written is named instead, with what
    it is close to (``-config``).  Other errors are returned as they are."""
    import difflib

    letter = exc.option_name
    if len(letter) != 2 or letter.startswith("--") or letter in args:
        return exc
    known = [o for p in ctx.command.get_params(ctx) for o in (*p.opts, *p.secondary_opts)]
    for arg in args:
        if arg == "--":
            break
        word = arg.partition("=")[0]
        if word.startswith(letter) and len(word) > 2 and not word.startswith("--") and word not in known:
            close = difflib.get_close_matches(word, known, n=3, cutoff=0.7)
            return click.NoSuchOption(word, possibilities=close, ctx=ctx)
    return exc


class Once(click.Command):
    """A command whose options that take one value may be given once (see check_repeats)."""

    def parse_args(self, ctx, args):
        written = list(args)  # (click's parser consumes the list it is given)
        try:
            return super().parse_args(ctx, args)
        except click.NoSuchOption as exc:
            raise whole_option(exc, written, ctx) from None

    def make_parser(self, ctx):
        parser = super().make_parser(ctx)
        parse = parser.parse_args

        def parse_args(args):
            opts, rest, order = parse(args=args)
            check_repeats(ctx, order)
            return opts, rest, order

        parser.parse_args = parse_args
        return parser


def given(ctx: click.Context, name: str) -> bool:
    """Whether the option NAME was given on the command line (not its default)."""
    return ctx.get_parameter_source(name) not in (None, click.core.ParameterSource.DEFAULT)


def refuse(ctx: click.Context, message: str) -> None:
    """An option that would have no effect with the others given: exit 2 with MESSAGE."""
    raise click.UsageError(message, ctx)


class Group(Once, click.Group):
    """A group whose own options run the evaluation when no subcommand is given, and whose
    subcommands are loaded when named (``lazy``: name -> "module:attribute"): ``inexeval --version``
    and an evaluation import none of them."""

    lazy: dict[str, str] = {}

    def list_commands(self, ctx):
        return sorted({*super().list_commands(ctx), *self.lazy})

    def get_command(self, ctx, name):
        if name in self.lazy and name not in self.commands:
            import importlib

            module, _, attr = self.lazy[name].partition(":")
            self.add_command(getattr(importlib.import_module(module), attr), name)
        return super().get_command(ctx, name)

    def resolve_command(self, ctx, args):
        """An unknown command is named with the command it is close to, or, when it looks like a
        config file (``inexeval my.prop``), with the ``-config`` that was left out."""
        name = args[0] if args else ""
        if name and not name.startswith("-") and self.get_command(ctx, name) is None:
            import difflib
            import os

            if os.path.isfile(name) or name.endswith((".prop", ".yaml", ".yml")):
                ctx.fail(f"no command {name!r}: to evaluate a config, give it after -config "
                         f"(inexeval -config {name})")
            close = difflib.get_close_matches(name, self.list_commands(ctx), n=1, cutoff=0.6)
            if close:
                ctx.fail(f"no command {name!r}; did you mean {close[0]!r}?")
        return super().resolve_command(ctx, args)

    def format_usage(self, ctx, formatter):
        formatter.write_usage("inexeval", "-config FILE [-q] [-e] [-gnu] [-jfree|-png] [OPTIONS] | COMMAND ...")

    def main(self, *args, **kwargs):
        """A reader that stops reading (``| head``) changes nothing but what it reads: every file is
        written and the exit status is the command's own (:mod:`inexeval.cli.pipes`), where click would
        stop at the first write and exit 1 ("some input skipped")."""
        from inexeval.cli.pipes import closed_pipes_ignored

        with closed_pipes_ignored():
            return super().main(*args, **kwargs)

    def invoke(self, ctx):
        """Every command ends on a signal as :mod:`inexeval.interrupts` says, not with a traceback
        and click's "Aborted!" (status 1)."""
        with signals_end_the_command(bool(ctx.params.get("debug")), say=lambda m: click.echo(m, err=True)):
            return super().invoke(ctx)


def default_jobs() -> int:
    """The number of cores this process may use."""
    from inexeval.engine import available_cores

    return available_cores()


def reusing_results(command):
    """The options of the commands that reuse up-to-date result files and evaluate the configs whose
    files are not (compare, report): --set, --results-dir, --reevaluate, --quiet, --debug."""
    for option in reversed((
        click.option("--set", "overrides", multiple=True, metavar="KEY=VALUE", help="Override a config key."),
        click.option("--results-dir", type=click.Path(file_okay=False), help="Override RESULTS_DIR."),
        click.option("--reevaluate", is_flag=True, help="Evaluate even when the result files are up to date."),
        click.option("--quiet", is_flag=True, help="No warnings on standard error."),
        click.option("--debug", is_flag=True, help="Show Python tracebacks."),
    )):
        command = option(command)
    return command


