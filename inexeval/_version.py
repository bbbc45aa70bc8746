"""The version, written once: the package metadata (pyproject.toml) and every module read it here."""

__version__ = "0.1.0"
