"""Typed errors for user input.

Every problem with what a user gave us (config, assessments, runs,
collection, command line) is one of these. The CLI turns them into one line
``file:line: message`` and an exit status; nothing else prints tracebacks.
"""

from __future__ import annotations

import re

#: A quoted value in a message longer than this many characters is cut (:func:`cut_long`).
QUOTED_LIMIT = 200
_QUOTED = re.compile(r"'(?:[^'\\\n]|\\.)*'" + r'|"(?:[^"\\\n]|\\.)*"')


def cut_long(message: str, limit: int = QUOTED_LIMIT) -> str:
    """``message`` with each quoted value (a repr) longer than ``limit`` characters cut to its start and
    end and its length: ``'aaaa…zz' (5242880 characters)``.  A 5 MB config value is not echoed whole."""
    if len(message) <= limit:
        return message

    def cut(m: re.Match) -> str:
        text = m.group(0)
        if len(text) <= limit:
            return text
        q = text[0]
        return f"{text[:limit // 2]}…{text[-limit // 5:-1]}{q} ({len(text) - 2} characters)"

    return _QUOTED.sub(cut, message)


def cut_text(text: object, limit: int = QUOTED_LIMIT) -> str:
    """``text`` (a value shown without quotes, such as a path) cut as :func:`cut_long` cuts a quoted one."""
    text = str(text)
    if len(text) <= limit:
        return text
    return f"{text[:limit // 2]}…{text[-limit // 5:]} ({len(text)} characters)"


class InexevalError(Exception):
    """A problem with user input, located by file and (optionally) line."""

    exit_status = 1

    def __init__(self, message: str, file: object | None = None, line: int | None = None):
        message = cut_long(message)
        super().__init__(message)
        self.message = message
        self.file = None if file is None else str(file)
        self.line = line

    def __str__(self) -> str:
        where = ""
        if self.file is not None:
            where = self.file if self.line is None else f"{self.file}:{self.line}"
            where += ": "
        return where + self.message


class ConfigError(InexevalError):
    """A bad configuration or command line: nothing is evaluated (exit 2)."""

    exit_status = 2


class ConfigErrors(ConfigError):
    """Several configuration errors of one file, reported together."""

    def __init__(self, errors: list[ConfigError]):
        self.errors = list(errors)
        first = self.errors[0]
        super().__init__(first.message, first.file, first.line)

    def __str__(self) -> str:
        return "\n".join(str(e) for e in self.errors)


class InputError(InexevalError):
    """An input file (assessments, run, collection) that cannot be used (exit 1)."""

    exit_status = 1


class InvalidPath(ValueError):
    """An XPath or file id that inexeval refuses to match (docs/formats.md §1.1)."""


class EmptySelection(ConfigError):
    """A selection key (TOPICS, POOLS, QUERY_TYPE) that leaves no assessed topic: a config error
    naming ``key``; the reader raises it unlocated and the caller, which has the config, places it."""

    def __init__(self, key: str, message: str, file: object | None = None, line: int | None = None):
        super().__init__(f"{key}: {message}", file, line)
        self.key = key
        self.detail = message


class OutputError(InexevalError):
    """The results cannot be written (RESULTS_DIR unusable, disk full, another evaluation
    writing them): exit 2, the previous results are left as they were."""

    exit_status = 2


class Interrupted(KeyboardInterrupt):
    """SIGTERM (or SIGINT) as a KeyboardInterrupt that knows its signal: the command stops,
    cleans up as for Ctrl-C, and exits with 128 + ``signum``."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum
