"""A config as the Python API and the workflows take it: a file's path, a mapping of config keys, or
a loaded :class:`~inexeval.config.schema.Config`, with ``KEY=VALUE`` overrides (``--set``) and keyword
overrides (``METRICS="q"``, ``DCV=[5, 10]``)."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Union

if TYPE_CHECKING:
    from inexeval.config.schema import Config

#: what :func:`inexeval.evaluate` and the workflows take as a config
ConfigSource = Union[str, os.PathLike, Mapping, "Config"]


def load(config: ConfigSource, overrides: Sequence[str] = (), results_dir: str | os.PathLike | None = None) -> Config:
    """A config file's path, a mapping of config keys, or a loaded Config -> Config.

    ``overrides`` are ``KEY=VALUE`` strings applied like ``--set``;
    ``results_dir`` replaces RESULTS_DIR (relative to the current directory).
    A loaded Config takes only ``results_dir``: its file is not read again.
    """
    from inexeval.config.load import load_config
    from inexeval.config.schema import Config

    if results_dir is not None and any(str(o).split("=", 1)[0].strip().upper() == "RESULTS_DIR" for o in overrides):
        from inexeval.errors import ConfigError

        raise ConfigError("--results-dir and --set RESULTS_DIR=... both given: give one", "--results-dir")
    sets = [*overrides, *([f"RESULTS_DIR={results_dir}"] if results_dir is not None else [])]
    if isinstance(config, Config):
        if overrides:
            raise TypeError("config keys can be overridden when the config is a path or a mapping, "
                            "not a loaded Config")
        if results_dir is None:
            return config
        from inexeval.records import replace

        return replace(config, results_dir=Path(os.path.abspath(os.path.expanduser(results_dir))))
    if isinstance(config, Mapping):
        from inexeval.config.load import load_config_mapping

        return load_config_mapping(config, overrides=sets)
    if not isinstance(config, (str, os.PathLike)):
        raise TypeError(f"config must be a path, a mapping of config keys or a Config, not {type(config).__name__}")
    return load_config(config, sets)


def override_strings(overrides: Mapping[str, object]) -> tuple[str, ...]:
    """Keyword overrides (``METRICS="q"``, ``DCV=[5, 10]``, ``GAINS={1: 1, 2: 3}``) -> ``KEY=VALUE`` strings.

    A keyword that is no config key is a ConfigError naming it as a keyword argument (not as
    ``--set``, which the caller did not write), with the key it is close to."""
    from inexeval.config.syntax import canonical_key, unknown_key
    from inexeval.errors import ConfigErrors

    unknown = [unknown_key(key, "keyword argument", None) for key in overrides if canonical_key(key) is None]
    if unknown:
        raise ConfigErrors(unknown)
    out = []
    for key, value in overrides.items():
        if isinstance(value, Mapping):
            text = ", ".join(f"{_item(key, k)}:{_item(key, v)}" for k, v in value.items())
        elif isinstance(value, (list, tuple)):
            text = ", ".join(_item(key, v) for v in value)
        else:
            text = _item(key, value)
        out.append(f"{key}={text}")
    return tuple(out)


def _item(key: str, value: object) -> str:
    if isinstance(value, bool) or not isinstance(value, (str, int, float, os.PathLike)):
        raise TypeError(f"{key}: a config value is a string, a number, a path or a list of them, "
                        f"not {type(value).__name__}")
    return os.fspath(value) if isinstance(value, os.PathLike) else str(value)
