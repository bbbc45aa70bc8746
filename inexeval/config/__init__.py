"""The configuration: a ``.prop`` or YAML file, or a mapping of keys, into one checked Config (docs/config.md).

One job per module, each importing only the ones above it in this list:

- :mod:`~inexeval.config.values`: the value parsers and path expansion (files, directories, globs,
  comma lists; ``-`` is standard input), :class:`InputFile`;
- :mod:`~inexeval.config.schema`: the key table (:data:`SCHEMA`: each key's field, parser, default,
  per-task default, documentation, and whether the measures read it) and :class:`Config`;
- :mod:`~inexeval.config.syntax`: ``.prop`` text, YAML, a mapping and ``--set KEY=VALUE`` into raw
  entries (canonical key, raw value, where from);
- :mod:`~inexeval.config.load`: :func:`load_config` and :func:`load_config_mapping`, the glue that
  runs syntax -> values -> checks -> Config;
- :mod:`~inexeval.config.source`: a path, a mapping or a Config, with overrides, as the API and the
  workflows take it.

The public names below are importable from here (``from inexeval.config import load_config``).
They are loaded on first use, not when the package is imported: ``inexeval --version`` and the
command line's start-up import :mod:`inexeval.config.source` only, which loads no key table.
"""

from __future__ import annotations

#: public name -> the module of this package that defines it
_HOMES = {
    **dict.fromkeys(("load_config", "load_config_mapping", "unknown_metrics"), "load"),
    **dict.fromkeys(("Config", "Key", "Computed", "PER_TASK", "SCHEMA", "KEY_TABLE", "KEYS", "KEY_ALIASES",
                     "REQUIRED_KEYS", "PARAM_DEFAULTS", "BOOKKEEPING_FIELDS", "OVERRIDE_SOURCE",
                     "value_as_written"), "schema"),
    **dict.fromkeys(("parse_prop_text",), "syntax"),
    **dict.fromkeys(("InputFile", "Problem", "expand_paths", "MAX_RANK"), "values"),
}

__all__ = sorted(_HOMES)


def __getattr__(name: str) -> object:
    """The public name NAME, imported from its module on first use (PEP 562)."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from inexeval.config import load, schema, syntax, values

    value = getattr({"load": load, "schema": schema, "syntax": syntax, "values": values}[home], name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
