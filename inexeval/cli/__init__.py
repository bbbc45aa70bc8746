"""The command line (click): :mod:`inexeval.cli.command` holds the group and the evaluation, one
module per subcommand beside it, and :mod:`inexeval.cli._common` what they share.
``inexeval.cli.main`` is the group (loaded on first use)."""


def __getattr__(name: str):
    if name == "main":
        from inexeval.cli.command import main

        return main
    raise AttributeError(f"module 'inexeval.cli' has no attribute {name!r}")
